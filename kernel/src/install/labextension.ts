import { access, cp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-info';

/** The extension's name in `jupyter labextension list`; the same as the npm package's. */
export const LABEXTENSION_NAME = 'searchbook';

const BUILT = join(PACKAGE_ROOT, 'labextension');

/** install.json: what `jupyter labextension list` says about where the extension came from. */
export interface InstallInfo {
  packageManager: string;
  packageName: string;
  uninstallInstructions: string;
}

const FROM_CHECKOUT: InstallInfo = {
  packageManager: 'npm',
  packageName: LABEXTENSION_NAME,
  uninstallInstructions:
    'Run "searchbook uninstall" with the same scope flag you installed with'
};

/**
 * Copies the prebuilt labextension into `<data>/labextensions/searchbook`, with the
 * install.json that tells `jupyter labextension list` where it came from and how to remove it.
 */
export async function installLabextension(
  dataDir: string,
  installInfo: InstallInfo = FROM_CHECKOUT
): Promise<string> {
  try {
    await access(join(BUILT, 'package.json'));
  } catch {
    throw new Error(
      `the JupyterLab extension is not built (no ${BUILT}); run "npm run build" first`
    );
  }
  const dir = join(dataDir, 'labextensions', LABEXTENSION_NAME);
  await rm(dir, { recursive: true, force: true });
  await cp(BUILT, dir, { recursive: true });
  await writeFile(
    join(dir, 'install.json'),
    `${JSON.stringify(installInfo, null, 2)}\n`
  );
  return dir;
}

export async function uninstallLabextension(dataDir: string): Promise<string> {
  const dir = join(dataDir, 'labextensions', LABEXTENSION_NAME);
  await rm(dir, { recursive: true, force: true });
  return dir;
}
