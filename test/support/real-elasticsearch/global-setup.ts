import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARENT_PID_ENV, RUN_DIR_ENV } from './run-nodes';

/**
 * Starts nothing: it only names this run's folder for real-node state and the process the
 * nodes must not outlive (jest's main process); workers inherit both variables.
 */
export default function globalSetup(): void {
  process.env[RUN_DIR_ENV] = mkdtempSync(join(tmpdir(), 'searchbook-real-es-'));
  process.env[PARENT_PID_ENV] = String(process.pid);
}
