import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARENT_PID_ENV, RUN_DIR_ENV } from './run-nodes';

const RUN_DIR_PREFIX = 'searchbook-real-es-run-';

/**
 * Starts nothing: it only names this run's folder for real-node state and the process the
 * nodes must not outlive (jest's main process); workers inherit both variables. It also
 * removes folders left by runs that were killed (their nodes ended with them).
 */
export default function globalSetup(): void {
  removeFoldersOfEndedRuns();
  process.env[RUN_DIR_ENV] = mkdtempSync(
    join(tmpdir(), `${RUN_DIR_PREFIX}${process.pid}-`)
  );
  process.env[PARENT_PID_ENV] = String(process.pid);
}

function removeFoldersOfEndedRuns(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(/^searchbook-real-es-run-(\d+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !running(pid)) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
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
