import { readdirSync, rmSync } from 'node:fs';
import { stopRealNode } from './launch';
import { RUN_DIR_ENV, readNodeStates } from './run-nodes';

/** Stops the nodes this run started and removes their data. */
export default async function globalTeardown(): Promise<void> {
  const dir = process.env[RUN_DIR_ENV];
  if (!dir) return;
  const files = readdirSync(dir).filter((name) => name.endsWith('.json') && name !== 'build.json');
  await Promise.all(readNodeStates(dir, files).map((node) => stopRealNode(node.pid)));
  rmSync(dir, { recursive: true, force: true });
}
