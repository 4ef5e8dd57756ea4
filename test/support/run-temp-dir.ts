import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/**
 * Removes this run's temporary folder, after every shared server stopped. Throws, naming
 * them, when the tests left anything in it: each test removes what it made, on failure too.
 */
export function endRunTempDir(): void {
  const dir = process.env[RUN_TEMP_ENV];
  if (!dir) {
    return;
  }
  const left = readdirSync(dir).sort();
  rmSync(dir, { recursive: true, force: true });
  if (left.length > 0) {
    throw new Error(
      `the tests left ${left.length} temporary ${left.length === 1 ? 'entry' : 'entries'} (removed now; each test must remove what it makes): ${left.join(', ')}`
    );
  }
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
