import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  oncePerRun,
  PARENT_PID_ENV,
  runDir
} from '../real-elasticsearch/run-nodes';
import { typesenseBinary } from './binary';
import { launchRealTypesense, type RealTypesenseAddress } from './launch';

/**
 * One real Typesense server per test run, started by the first test file that asks for it and
 * shared by every jest worker through a state file in the run's folder (as the real
 * Elasticsearch nodes are); global-teardown.ts stops it. A run whose tests never ask starts
 * nothing. Suites create collections of their own names and remove them.
 */
const STATE = 'typesense-server';

const serverState = z.object({
  version: z.string(),
  url: z.string(),
  apiKey: z.string(),
  pid: z.number().int(),
  log: z.string()
});
const skipState = z.object({ skipped: z.string() });

export type RealTypesenseOutcome =
  { server: RealTypesenseAddress } | { skipped: string };

let pending: Promise<RealTypesenseOutcome> | undefined;

/** The run's real Typesense server, starting it when no worker has; or why it cannot run here. */
export function realTypesense(): Promise<RealTypesenseOutcome> {
  pending ??= oncePerRun(STATE, z.union([serverState, skipState]), () =>
    startServer()
  ).then(state => ('skipped' in state ? state : { server: state }));
  return pending;
}

/** The server, or an error with the reason it could not start (for suites that need it). */
export async function realTypesenseServer(): Promise<RealTypesenseAddress> {
  const outcome = await realTypesense();
  if ('skipped' in outcome) {
    throw new Error(outcome.skipped);
  }
  return outcome.server;
}

/** Why the real Typesense tier cannot run here (no binary installed), or undefined; asked when a test file loads. */
export function realTypesenseMissing(): string | undefined {
  const binary = typesenseBinary();
  return 'missing' in binary ? binary.missing : undefined;
}

async function startServer(): Promise<
  RealTypesenseAddress | { skipped: string }
> {
  const missing = realTypesenseMissing();
  if (missing) {
    return { skipped: missing };
  }
  return launchRealTypesense({
    // A fixed folder of the run: the teardown removes it with the run's folder.
    home: join(runDir(), 'typesense'),
    parentPid: Number(process.env[PARENT_PID_ENV] ?? process.pid)
  });
}

/** The server this run's folder says was started (for the teardown), or undefined. */
export function startedTypesense(
  dir: string
): RealTypesenseAddress | undefined {
  const file = join(dir, `${STATE}.json`);
  if (!existsSync(file)) {
    return undefined;
  }
  const parsed = z
    .object({ ok: serverState })
    .safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data.ok : undefined;
}
