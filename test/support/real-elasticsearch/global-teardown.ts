import { readdirSync, rmSync } from 'node:fs';
import { stopRealNode } from './launch';
import { RUN_DIR_ENV, startedNodes } from './run-nodes';

/** Stops the nodes this run started and removes their data. */
export default async function globalTeardown(): Promise<void> {
  const dir = process.env[RUN_DIR_ENV];
  if (!dir) {
    return;
  }
  await Promise.all(
    startedNodes(dir, readdirSync(dir)).map(node => stopRealNode(node.pid))
  );
  rmSync(dir, { recursive: true, force: true });
}
