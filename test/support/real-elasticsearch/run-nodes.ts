import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { buildLaunchers } from './build';
import { REAL_FLAVOUR_IDS, type RealFlavourId } from './flavours';
import { type RealNodeAddress, launchRealNode } from './launch';

/**
 * One node per flavour per test run, started by the first test file that asks for it and
 * shared by every jest worker through state files in the run's folder (global-setup.ts makes
 * it; global-teardown.ts stops what was started). A run whose tests never ask starts nothing.
 */
export const RUN_DIR_ENV = 'SEARCHBOOK_REAL_ES_RUN_DIR';
export const PARENT_PID_ENV = 'SEARCHBOOK_REAL_ES_PARENT_PID';

const nodeState = z.object({
  flavour: z.enum(REAL_FLAVOUR_IDS as [RealFlavourId, ...RealFlavourId[]]),
  version: z.string(),
  url: z.string(),
  pid: z.number().int(),
  password: z.string().optional(),
  log: z.string(),
});
const failureState = z.object({ failed: z.string() });
const skipState = z.object({ skipped: z.string() });
const buildState = z.union([z.object({ built: z.literal(true) }), z.object({ built: z.literal(false), reason: z.string() })]);

export type RealNodeOutcome = { node: RealNodeAddress } | { skipped: string };

const WAIT_LIMIT_MS = 15 * 60_000;
const inProcess = new Map<RealFlavourId, Promise<RealNodeOutcome>>();

/** The run's node of this flavour, starting it when no worker has; or why the tier is skipped. */
export function realNode(flavour: RealFlavourId): Promise<RealNodeOutcome> {
  let pending = inProcess.get(flavour);
  if (!pending) {
    pending = startOrAttach(flavour);
    inProcess.set(flavour, pending);
  }
  return pending;
}

export function runDir(): string {
  let dir = process.env[RUN_DIR_ENV];
  if (!dir) {
    // Outside jest's global set-up (a script): nodes live as long as this process.
    dir = mkdtempSync(join(tmpdir(), 'searchbook-real-es-'));
    process.env[RUN_DIR_ENV] = dir;
    process.env[PARENT_PID_ENV] = String(process.pid);
  }
  return dir;
}

export function readNodeStates(dir: string, files: string[]): RealNodeAddress[] {
  const nodes: RealNodeAddress[] = [];
  for (const file of files) {
    const parsed = nodeState.safeParse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    if (parsed.success) nodes.push(parsed.data);
  }
  return nodes;
}

async function startOrAttach(flavour: RealFlavourId): Promise<RealNodeOutcome> {
  const dir = runDir();
  const stateFile = join(dir, `${flavour}.json`);
  if (claim(join(dir, `${flavour}.lock`))) {
    const outcome = await startNode(flavour, dir).catch((err: unknown) => ({ failed: err instanceof Error ? err.message : String(err) }));
    writeAtomically(stateFile, 'node' in outcome ? outcome.node : outcome);
  }
  const state = await waitForFile(stateFile, z.union([nodeState, failureState, skipState]));
  if ('failed' in state) throw new Error(state.failed);
  if ('skipped' in state) return state;
  return { node: state };
}

async function startNode(flavour: RealFlavourId, dir: string): Promise<RealNodeOutcome> {
  const build = await launchersBuilt(dir);
  if (!build.built) return { skipped: build.reason };
  const parentPid = Number(process.env[PARENT_PID_ENV] ?? process.pid);
  const node = await launchRealNode(flavour, { home: join(dir, 'homes'), parentPid });
  const { stop: _stop, ...address } = node;
  return { node: address };
}

/** One Maven build per run, whichever worker needs a node first. */
async function launchersBuilt(dir: string): Promise<z.infer<typeof buildState>> {
  const stateFile = join(dir, 'build.json');
  if (claim(join(dir, 'build.lock'))) {
    const outcome = await buildLaunchers().catch((err: unknown) => ({ failed: err instanceof Error ? err.message : String(err) }));
    writeAtomically(stateFile, outcome);
  }
  const state = await waitForFile(stateFile, z.union([buildState, failureState]));
  if ('failed' in state) throw new Error(state.failed);
  return state;
}

/** mkdir is atomic: exactly one process succeeds. */
function claim(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    return false;
  }
}

function writeAtomically(file: string, value: unknown): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(value));
  renameSync(`${file}.tmp`, file);
}

async function waitForFile<T>(file: string, schema: z.ZodType<T>): Promise<T> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    try {
      return schema.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (Date.now() > deadline) throw new Error(`no real Elasticsearch state in ${file} after ${WAIT_LIMIT_MS / 60_000} minutes`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
