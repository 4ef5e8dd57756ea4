import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { buildLaunchers } from './build';
import { REAL_FLAVOUR_IDS, type RealFlavourId } from './flavours';
import { nodeJvm } from './jvm';
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
  user: z.string().optional(),
  caFile: z.string().optional(),
  log: z.string()
});
const skipState = z.object({ skipped: z.string() });
const buildState = z.union([
  z.object({ built: z.literal(true) }),
  z.object({ built: z.literal(false), reason: z.string() })
]);

export type RealNodeOutcome = { node: RealNodeAddress } | { skipped: string };

const WAIT_LIMIT_MS = 15 * 60_000;
/**
 * The instance every suite shares unless it asks for a node of its own (the differential suite
 * too: an index template of its own gives its `diff_*` indices Elasticsearch's defaults back).
 */
export const SUITES_INSTANCE = 'suites';
/**
 * New indices refresh this often: the grid saves with `refresh=wait_for`, which answers at the
 * next refresh, so at Elasticsearch's 1s each save waits up to a second.
 */
const SUITES_REFRESH_INTERVAL = '100ms';
const inProcess = new Map<string, Promise<RealNodeOutcome>>();

/**
 * The run's node of this flavour, starting it when no worker has; or why the tier is skipped.
 * `instance` names a separate node of the same flavour, for a suite whose set-up would disturb
 * the others (a JVM takes 15 to 30 s of CPU to start, so every suite shares 'suites').
 */
export function realNode(
  flavour: RealFlavourId,
  instance = SUITES_INSTANCE
): Promise<RealNodeOutcome> {
  const key = `node-${flavour}-${instance}`;
  let pending = inProcess.get(key);
  if (!pending) {
    pending = oncePerRun(key, z.union([nodeState, skipState]), () =>
      startNode(flavour, instance)
    ).then(state => ('skipped' in state ? state : { node: state }));
    inProcess.set(key, pending);
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

/** The nodes started in a run's folder (for the teardown). */
export function startedNodes(dir: string, files: string[]): RealNodeAddress[] {
  const started = z.object({ ok: nodeState });
  const nodes: RealNodeAddress[] = [];
  for (const file of files.filter(
    name => name.startsWith('node-') && name.endsWith('.json')
  )) {
    const parsed = started.safeParse(
      JSON.parse(readFileSync(join(dir, file), 'utf8'))
    );
    if (parsed.success) {
      nodes.push(parsed.data.ok);
    }
  }
  return nodes;
}

/**
 * Runs `work` in exactly one process of this test run (whichever asks first) and gives every
 * asker its result, through `<name>.json` in the run's folder. A failure is shared the same way.
 */
export async function oncePerRun<T>(
  name: string,
  schema: z.ZodType<T>,
  work: () => Promise<T>
): Promise<T> {
  const dir = runDir();
  const stateFile = join(dir, `${name}.json`);
  if (claim(join(dir, `${name}.lock`))) {
    const outcome = await work().then(
      ok => ({ ok }),
      (err: unknown) => ({
        failed: err instanceof Error ? err.message : String(err)
      })
    );
    writeAtomically(stateFile, outcome);
  }
  const state = await waitForFile(
    stateFile,
    z.union([z.object({ ok: schema }), z.object({ failed: z.string() })])
  );
  if ('failed' in state) {
    throw new Error(state.failed);
  }
  return state.ok as T;
}

async function startNode(
  flavour: RealFlavourId,
  instance: string
): Promise<RealNodeAddress | { skipped: string }> {
  const build = await oncePerRun('build', buildState, buildLaunchers);
  if (!build.built) {
    return { skipped: build.reason };
  }
  // Elasticsearch 9.x or OpenSearch 3.x without a JDK 21+ (or 9.x without native zstd) here:
  // those nodes alone are skipped.
  const jvm = nodeJvm(flavour);
  if ('skipped' in jvm) {
    return { skipped: jvm.skipped };
  }
  const parentPid = Number(process.env[PARENT_PID_ENV] ?? process.pid);
  const { stop: _stop, ...address } = await launchRealNode(flavour, {
    home: join(runDir(), 'homes', instance),
    parentPid,
    refreshInterval: SUITES_REFRESH_INTERVAL,
    clientCompilerOnly: true
  });
  return address;
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
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw err;
      }
    }
    if (Date.now() > deadline) {
      throw new Error(
        `no real Elasticsearch state in ${file} after ${WAIT_LIMIT_MS / 60_000} minutes`
      );
    }
    await new Promise(r => setTimeout(r, 200));
  }
}
