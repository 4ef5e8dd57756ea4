import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A jest run keeps every temporary file in one folder of its own: TMPDIR points there for the
 * run's workers and every process they start (Node, Python, JupyterLab, Chromium), so what a
 * test forgets to remove is seen at the run's end, named, and removed with the folder.
 */
export const RUN_TEMP_ENV = 'SEARCHBOOK_RUN_TEMP_DIR';

const RUN_TEMP_PREFIX = 'searchbook-tests-';
/** Folders of earlier runs, by the pid of their jest process (the real nodes' folders of runs before they lived inside). */
const RUN_FOLDER = /^searchbook-(?:tests|real-es-run)-(\d+)-/;

/** Makes this run's temporary folder and points TMPDIR at it; removes folders of runs that were killed. */
export function startRunTempDir(): void {
  const systemTemp = tmpdir();
  removeFoldersOfEndedRuns(systemTemp);
  const dir = mkdtempSync(
    join(systemTemp, `${RUN_TEMP_PREFIX}${process.pid}-`)
  );
  process.env[RUN_TEMP_ENV] = dir;
  process.env.TMPDIR = dir;
}

/** Where the teardown lists what the tests left, for scripts/test.sh to fail the run on (jest's own report stays whole). */
export const LEFT_BEHIND_FILE = 'test-results/temp-left.txt';
/** Caches programs keep for themselves (Node's compile cache), not a test's leftovers. */
const PROGRAM_CACHES = new Set(['node-compile-cache']);

/**
 * Removes this run's temporary folder, after every shared server stopped, and writes what the
 * tests left in it to LEFT_BEHIND_FILE (each test removes what it made, on failure too): a
 * throw here would keep jest from writing its report.
 */
export function endRunTempDir(): void {
  const dir = process.env[RUN_TEMP_ENV];
  if (!dir) {
    return;
  }
  const left = readdirSync(dir)
    .filter(name => !PROGRAM_CACHES.has(name))
    .sort();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(LEFT_BEHIND_FILE), { recursive: true });
  writeFileSync(LEFT_BEHIND_FILE, left.map(name => `${name}\n`).join(''));
}

function removeFoldersOfEndedRuns(systemTemp: string): void {
  for (const name of readdirSync(systemTemp)) {
    const pid = Number(RUN_FOLDER.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !running(pid)) {
      rmSync(join(systemTemp, name), { recursive: true, force: true });
    }
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
