/**
 * The build step behind `npm run build:wheel` (after `npm run build`): lays out under python/
 * what the Python package ships, for hatchling (python/pyproject.toml) to zip:
 *   searchbook/node/   the kernel bundled (lib/), the entry script (bin/), a package.json, the
 *                      Elasticsearch endpoint catalog, and the native addons for this platform
 *   share/jupyter/     the kernelspec (started through `python -m searchbook`) and the labextension
 */
import { build, type Metafile } from 'esbuild';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { compactCatalogPath } from '../kernel/src/engines/elasticsearch/endpoints';
import { KERNEL_NAME, writeKernelspec } from '../kernel/src/install/kernelspec';
import {
  installLabextension,
  LABEXTENSION_NAME
} from '../kernel/src/install/labextension';
import { PACKAGE_ROOT, PACKAGE_VERSION } from '../kernel/src/package-info';
import { copyNativeAddons, NATIVE_PACKAGES } from './native-addons';
import { thirdPartyLicenses } from './third-party-licenses';

const PYTHON = join(PACKAGE_ROOT, 'python');
/** The bundle's package root: package-info and the endpoint catalog are found from it as in a checkout. */
const NODE_ROOT = join(PYTHON, 'searchbook', 'node');
const SHARE = join(PYTHON, 'share', 'jupyter');

/**
 * Jupyter puts the Python it runs on in place of a leading "python" (as it does for ipykernel),
 * and the package's launcher then hands over to the Node.js installed with it.
 */
export const WHEEL_KERNEL_ARGV = [
  'python',
  '-m',
  'searchbook',
  'kernel',
  '{connection_file}'
];

const FROM_PIP = {
  packageManager: 'python',
  packageName: 'jupyterlab-searchbook',
  uninstallInstructions:
    'Use your Python package manager (pip, conda, etc.) to uninstall the package jupyterlab-searchbook'
};

/**
 * One bundle, from the files the build wrote: the command line with the kernel, from the same
 * entry as a checkout's `searchbook` command. The sandbox engines are a package of their own
 * (sandbox/) that the kernel never imports, so none of it is bundled: the wheel's
 * `searchbook sandbox` says where to find them.
 */
async function bundle(): Promise<Metafile[]> {
  const cli = await build({
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: [...NATIVE_PACKAGES],
    logLevel: 'error',
    metafile: true,
    entryPoints: [join(PACKAGE_ROOT, 'bin', 'searchbook.js')],
    outfile: join(NODE_ROOT, 'lib', 'searchbook.js')
  });
  return [cli.metafile];
}

async function main(): Promise<void> {
  await rm(NODE_ROOT, { recursive: true, force: true });
  await rm(join(PYTHON, 'share'), { recursive: true, force: true });
  await writeFile(
    join(NODE_ROOT, 'lib', 'THIRD-PARTY-LICENSES.txt'),
    await thirdPartyLicenses(await bundle())
  );
  await cp(
    join(PACKAGE_ROOT, 'packaging', 'wheel-entry.js'),
    join(NODE_ROOT, 'bin', 'searchbook.js')
  );
  await writeFile(
    join(NODE_ROOT, 'package.json'),
    `${JSON.stringify({ name: 'searchbook', version: PACKAGE_VERSION, private: true, license: 'BSD-3-Clause' }, null, 2)}\n`
  );
  const catalog = join(
    NODE_ROOT,
    'dist',
    'catalog',
    'elasticsearch-endpoints.json'
  );
  await mkdir(dirname(catalog), { recursive: true });
  await cp(compactCatalogPath(), catalog);
  const addons = await copyNativeAddons(join(NODE_ROOT, 'node_modules'));
  await writeKernelspec(join(SHARE, 'kernels', KERNEL_NAME), WHEEL_KERNEL_ARGV);
  await installLabextension(SHARE, FROM_PIP);
  process.stdout.write(
    `Staged searchbook ${PACKAGE_VERSION} in ${PYTHON}: bundle, ${addons.length} addon files, kernelspec ${KERNEL_NAME}, labextension ${LABEXTENSION_NAME}\n`
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Could not stage the wheel: ${error instanceof Error ? error.message : String(error)}\n`
  );
  process.exitCode = 1;
});
