/** Where the official suites' runs keep what they install, kept between runs. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');

/** A folder under node_modules/.cache (git-ignored with node_modules/), made on first use. */
export function cacheDir(name: string): string {
  const dir = join(
    ROOT,
    'node_modules',
    '.cache',
    'searchbook-typesense-clients',
    name
  );
  mkdirSync(dir, { recursive: true });
  return dir;
}
