/**
 * The licences of the npm packages esbuild folded into the bundles, which otherwise would ship
 * without them: one text file listing each package, its version and its licence text.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { PACKAGE_ROOT } from '../kernel/src/package-info';

/** `node_modules/@scope/name/...` or `node_modules/name/...` → the package's folder, innermost node_modules. */
function packageDir(input: string): string | undefined {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) {
    return undefined;
  }
  const [first, second] = input.slice(at + 'node_modules/'.length).split('/');
  return join(
    input.slice(0, at),
    'node_modules',
    ...(first?.startsWith('@') ? [first, second ?? ''] : [first ?? ''])
  );
}

async function licenceText(dir: string): Promise<string> {
  const file = (await readdir(dir)).find(name => /^licen[cs]e/i.test(name));
  return file
    ? (await readFile(join(dir, file), 'utf8')).trim()
    : '(no licence file in the package; see its package.json)';
}

export async function thirdPartyLicenses(
  metafiles: Metafile[]
): Promise<string> {
  const dirs = new Set(
    metafiles
      .flatMap(m => Object.keys(m.inputs))
      .map(packageDir)
      .filter((d): d is string => d !== undefined)
  );
  const sections: string[] = [];
  for (const dir of [...dirs].sort()) {
    const abs = join(PACKAGE_ROOT, dir);
    if (!existsSync(join(abs, 'package.json'))) {
      continue;
    }
    const pkg = JSON.parse(
      await readFile(join(abs, 'package.json'), 'utf8')
    ) as { name: string; version: string; license?: string };
    sections.push(
      `${pkg.name} ${pkg.version} (${pkg.license ?? 'see below'})\n\n${await licenceText(abs)}`
    );
  }
  return `Packages bundled into searchbook's kernel\n\n${sections.join(`\n\n${'-'.repeat(72)}\n\n`)}\n`;
}
