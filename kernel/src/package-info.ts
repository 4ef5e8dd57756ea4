import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The package's root folder, found from this file whether it runs from source or from dist/. */
export const PACKAGE_ROOT: string = (() => {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(
        readFileSync(join(dir, 'package.json'), 'utf8')
      ) as { name?: string };
      if (pkg.name === 'searchbook') {
        return dir;
      }
    } catch {
      // Not here; keep climbing.
    }
  }
  throw new Error('searchbook: cannot find its own package.json');
})();

export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
