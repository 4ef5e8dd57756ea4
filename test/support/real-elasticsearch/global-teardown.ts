import { readdirSync, rmSync } from 'node:fs';
import { stopRealNode } from './launch';
import { stopRealTypesense } from '../real-typesense/launch';
import { startedTypesense } from '../real-typesense/run-server';
import { RUN_DIR_ENV, startedNodes } from './run-nodes';

/** Stops the nodes (and the real Typesense server) this run started and removes their data. */
export default async function globalTeardown(): Promise<void> {
  const dir = process.env[RUN_DIR_ENV];
  if (!dir) {
    return;
  }
  const typesense = startedTypesense(dir);
  await Promise.all([
    ...startedNodes(dir, readdirSync(dir)).map(node => stopRealNode(node.pid)),
    ...(typesense ? [stopRealTypesense(typesense.pid)] : [])
  ]);
  rmSync(dir, { recursive: true, force: true });
}
