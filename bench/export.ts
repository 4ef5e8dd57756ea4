/**
 * Whole-index export (`%export` and the panel's export) as a user runs it: one kernel over
 * ZeroMQ, against the sandbox engines in a process of their own.
 *
 * 1. Memory: in ONE kernel, in order, JSONL, CSV, JSONL again with `overwrite`, JSONL and CSV
 *    with `slices=2`, then a Typesense collection to JSONL and CSV. After each step the kernel's
 *    peak RSS so far (VmHWM of /proc/<kernel pid>/status) and how long its RSS took to come
 *    back to what it was before the step (polled for up to 10 s). Goal: < 200 MB throughout.
 * 2. Speed (skipped with --memory-only): the same kernel's JSONL and CSV, one cursor and
 *    `slices=2`, and elasticdump 6.x (`--searchAfter --pit --limit 10000`, installed by npm into
 *    a scratch directory outside the repository) and a bare undici `search_after` loop writing
 *    the same JSONL, taking turns round after round (the machine is shared, so its load drifts);
 *    medians per contender, every round printed, with the load average.
 * Each step and contender also prints the CPU time the kernel and the engines' process spent a
 * document, and how busy each was over the wall time: on a machine of two cores the engines
 * run beside the kernel, and whichever is near 100% sets the pace. The kernel's also shows how
 * much of it its main thread spent (pages are read and written there; the rest is V8's and
 * libuv's threads: collections, file writes).
 * Prints figures and ratios; asserts nothing but that each file holds every document.
 *
 *   npm run build && node dist/bench/export.js [docs, 200000] [rounds, 5] [--memory-only]
 *     [--typesense-docs N, 30000] [--profile <dir>]
 * --memory-only: part 1 only, e.g. at 5,000,000 documents.
 * --profile: the kernel and the engines write a .cpuprofile each into <dir> when they exit
 *   (bench/cpu-profile-summary.ts).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  createWriteStream,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { Agent, request } from 'undici';
import { KernelClient } from '../test/support/kernel-client';
import { errorOf } from '../test/support/kernel-client';

const positional = process.argv.slice(2).filter((a, i, all) => {
  const previous = all[i - 1];
  return (
    !a.startsWith('--') &&
    previous !== '--typesense-docs' &&
    previous !== '--profile'
  );
});
const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const TOTAL = Number(positional[0] ?? 200_000);
const ROUNDS = Number(positional[1] ?? 5);
const MEMORY_ONLY = process.argv.includes('--memory-only');
const TS_TOTAL = Number(option('--typesense-docs') ?? 30_000);
const PROFILE = option('--profile');
const REPO = join(__dirname, '..', '..');
const ELASTICDUMP = '6.125.1';
/** How long the kernel's memory may take to come back after an export. */
const SETTLE_MS = 10_000;
/** RSS within this much of its level before an export counts as back. */
const SETTLE_SLACK_MB = 10;
const scratch = mkdtempSync(join(tmpdir(), 'searchbook-export-bench-'));

const rate = (docs: number, ms: number) => Math.round((docs / ms) * 1000);
const perDoc = (cpuMs: number, docs: number) =>
  `${((cpuMs * 1000) / docs).toFixed(1)} µs a document`;
const mainPerDoc = (cpuMs: number, docs: number) =>
  ((cpuMs * 1000) / docs).toFixed(1);
/** A process's CPU time as a share of the wall time (above 100% on more than one core). */
const busy = (cpuMs: number, wallMs: number) =>
  `${Math.round((cpuMs / wallMs) * 100)}%`;
const fmt = (n: number) => n.toLocaleString('en-US');
const load = () =>
  loadavg()
    .map(l => l.toFixed(2))
    .join(' ');
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Lines in a file, read in chunks: a 5,000,000-document export is more than a string may hold. */
const lines = (file: string): number => {
  const chunk = Buffer.alloc(1 << 20);
  const fd = openSync(file, 'r');
  let count = 0;
  let last = 0x0a;
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) {
        break;
      }
      for (let i = 0; i < read; i++) {
        if (chunk[i] === 0x0a) {
          count++;
        }
      }
      last = chunk[read - 1] as number;
    }
  } finally {
    closeSync(fd);
  }
  // A last line without its newline counts too; empty lines never occur in JSONL or CSV here.
  return last === 0x0a ? count : count + 1;
};

/** Asks the engines' process to collect its heap, and waits until it has. */
async function settleEngines(child: ChildProcess): Promise<void> {
  const done = once(child.stdout as NodeJS.ReadableStream, 'data');
  child.kill('SIGUSR2');
  await done;
}

async function startEngines(): Promise<{
  es: string;
  ts: string;
  child: ChildProcess;
}> {
  const child = spawn(
    process.execPath,
    [
      // The engines hold every document in their heap (about 1.5 GB a million).
      `--max-old-space-size=${Math.max(4096, Math.ceil(TOTAL / 1_000_000) * 2048)}`,
      ...(PROFILE
        ? [
            '--cpu-prof',
            `--cpu-prof-dir=${resolve(PROFILE)}`,
            '--cpu-prof-name=engines.cpuprofile'
          ]
        : []),
      join(REPO, 'dist', 'bench', 'export-sandbox.js'),
      String(TOTAL),
      String(TS_TOTAL)
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] }
  );
  const [chunk] = (await once(
    child.stdout as NodeJS.ReadableStream,
    'data'
  )) as [Buffer];
  return {
    ...(JSON.parse(chunk.toString()) as { es: string; ts: string }),
    child
  };
}

/** The kernel's VmHWM (peak) and VmRSS (now), in MB. */
function memory(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { peak: kb('VmHWM'), now: kb('VmRSS') };
}

/**
 * CPU time the process has used, in ms (utime + stime of /proc/<pid>/stat, in clock ticks of
 * 10 ms); with `mainThread`, its main thread's alone (the rest is V8's and libuv's threads).
 */
function cpuMs(pid: number, mainThread = false): number {
  const stat = readFileSync(
    mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`,
    'utf8'
  );
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One kernel, kept for the whole run as a notebook keeps its kernel. */
class Kernel {
  private constructor(readonly client: KernelClient) {}

  static async start(): Promise<Kernel> {
    const client = await KernelClient.start({
      ES_PASSWORD: 'bench',
      TS_KEY: 'bench',
      ...(PROFILE
        ? {
            NODE_OPTIONS: `--require ${join(REPO, 'dist', 'bench', 'kernel-cpu-profile.js')}`,
            SEARCHBOOK_CPU_PROFILE_DIR: resolve(PROFILE)
          }
        : {})
    });
    return new Kernel(client);
  }

  get pid(): number {
    return this.client.process.pid as number;
  }

  /** The kernel's CPU time in the last `run`, in ms: a figure the machine's load hardly moves. */
  lastCpuMs = 0;
  /** Of which its main thread's, where a page is read and written. */
  lastMainMs = 0;

  async run(code: string): Promise<number> {
    const cpu = cpuMs(this.pid);
    const main = cpuMs(this.pid, true);
    const started = performance.now();
    const { reply } = await this.client.execute(code);
    const ms = performance.now() - started;
    this.lastCpuMs = cpuMs(this.pid) - cpu;
    this.lastMainMs = cpuMs(this.pid, true) - main;
    if (reply.content.status !== 'ok') {
      throw new Error(
        `${code.split('\n')[0]} failed: ${errorOf(reply).evalue}`
      );
    }
    return ms;
  }

  /** Polls RSS until it is within the slack of `before`; the time it took, or undefined past SETTLE_MS. */
  async settle(
    before: number
  ): Promise<{ ms: number | undefined; mb: number }> {
    const started = performance.now();
    for (;;) {
      const { now } = memory(this.pid);
      const ms = performance.now() - started;
      if (now <= before + SETTLE_SLACK_MB) {
        return { ms, mb: now };
      }
      if (ms > SETTLE_MS) {
        return { ms: undefined, mb: now };
      }
      await new Promise(r => setTimeout(r, 100));
    }
  }

  async close(): Promise<void> {
    if (PROFILE) {
      // Shut down rather than killed: the profile is written as the process exits.
      const exited = once(this.client.process, 'exit');
      await this.client.submit('control', 'shutdown_request', {
        restart: false
      });
      await exited;
    }
    await this.client.close();
  }
}

function check(file: string, expected: number): void {
  const n = lines(file);
  if (n !== expected) {
    throw new Error(`${file} holds ${n} lines, not ${expected}`);
  }
}

/** Part 1: every format and order in one kernel, its peak after each step. */
async function memorySteps(
  kernel: Kernel,
  engines: { es: string; ts: string; child: ChildProcess }
): Promise<void> {
  const esConnect = `%connect elasticsearch ${engines.es} user=elastic password=\${env:ES_PASSWORD}`;
  const tsConnect = `%connect typesense ${engines.ts} key=\${env:TS_KEY}`;
  const steps: [string, string | undefined, string, string, number][] = [
    // [step, connect first, target, file and options, lines]
    ['JSONL', esConnect, 'bench', 'a.jsonl', TOTAL],
    ['CSV', undefined, 'bench', 'a.csv', TOTAL + 1],
    ['JSONL overwrite', undefined, 'bench', 'a.jsonl overwrite', TOTAL],
    ['JSONL slices=2', undefined, 'bench', 'b.jsonl slices=2', TOTAL],
    ['CSV slices=2', undefined, 'bench', 'b.csv slices=2', TOTAL + 1],
    ['Typesense JSONL', tsConnect, 'bench', 'ts.jsonl', TS_TOTAL],
    ['Typesense CSV', undefined, 'bench', 'ts.csv', TS_TOTAL + 1]
  ];
  console.log(
    `\nOne kernel, every format in turn (${fmt(TOTAL)} Elasticsearch documents, ${fmt(TS_TOTAL)} Typesense documents; load ${load()}):`
  );
  let highest = 0;
  for (const [step, connect, target, file, expected] of steps) {
    if (connect) {
      await kernel.run(connect);
      console.log(
        `  after %connect: ${memory(kernel.pid).now.toFixed(0)} MB RSS`
      );
    }
    await settleEngines(engines.child);
    const before = memory(kernel.pid).now;
    const engineCpu = cpuMs(engines.child.pid as number);
    const ms = await kernel.run(`%export ${target} ${join(scratch, file)}`);
    const engineMs = cpuMs(engines.child.pid as number) - engineCpu;
    const { peak } = memory(kernel.pid);
    highest = Math.max(highest, peak);
    const back = await kernel.settle(before);
    check(join(scratch, file.split(' ')[0] as string), expected);
    console.log(
      `  ${step.padEnd(16)} peak so far ${peak.toFixed(0).padStart(4)} MB; ${fmt(rate(expected, ms)).padStart(9)} docs/s, kernel CPU ${perDoc(kernel.lastCpuMs, expected)} (main thread ${mainPerDoc(kernel.lastMainMs, expected)}, busy ${busy(kernel.lastCpuMs, ms)}), engines ${perDoc(engineMs, expected)} (${busy(engineMs, ms)}); RSS ${before.toFixed(0)} MB before, ${back.ms === undefined ? `still ${back.mb.toFixed(0)} MB after ${SETTLE_MS / 1000} s` : `back to ${back.mb.toFixed(0)} MB in ${(back.ms / 1000).toFixed(1)} s`}`
    );
  }
  console.log(
    `  kernel peak ${highest.toFixed(0)} MB (goal < 200 MB throughout, memory back within ${SETTLE_MS / 1000} s)`
  );
  for (const file of ['a.jsonl', 'a.csv', 'b.jsonl', 'b.csv']) {
    rmSync(join(scratch, file), { force: true });
  }
}

/** The baseline: what a careful hand-written exporter does, with nothing of searchbook. */
async function bareLoop(es: string, file: string): Promise<number> {
  const dispatcher = new Agent({ connections: 2 });
  const headers = {
    authorization: `Basic ${Buffer.from('elastic:bench').toString('base64')}`,
    'content-type': 'application/json'
  };
  const post = async (path: string, body?: unknown) => {
    const res = await request(`${es}${path}`, {
      method: 'POST',
      headers,
      dispatcher,
      ...(body ? { body: JSON.stringify(body) } : {})
    });
    return JSON.parse(await res.body.text());
  };
  const started = performance.now();
  const out = createWriteStream(file);
  let pit = (await post('/bench/_pit?keep_alive=5m')).id as string;
  let after: unknown[] | undefined;
  for (;;) {
    const page = await post('/_search', {
      size: 10_000,
      pit: { id: pit, keep_alive: '5m' },
      sort: [{ _shard_doc: 'asc' }],
      track_total_hits: false,
      ...(after ? { search_after: after } : {})
    });
    pit = page.pit_id ?? pit;
    const hits = page.hits.hits as {
      _index: string;
      _id: string;
      _source: unknown;
      sort: unknown[];
    }[];
    if (hits.length === 0) {
      break;
    }
    const text = `${hits.map(h => JSON.stringify({ _index: h._index, _id: h._id, _source: h._source })).join('\n')}\n`;
    if (!out.write(text)) {
      await once(out, 'drain');
    }
    after = hits[hits.length - 1]?.sort;
    if (hits.length < 10_000) {
      break;
    }
  }
  out.end();
  await once(out, 'finish');
  const ms = performance.now() - started;
  await dispatcher.close();
  return ms;
}

function installElasticdump(): string {
  const dir = join(tmpdir(), `searchbook-elasticdump-${ELASTICDUMP}`);
  const bin = join(dir, 'node_modules', '.bin', 'elasticdump');
  if (!existsSync(bin)) {
    const npm = spawnSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefix',
        dir,
        `elasticdump@${ELASTICDUMP}`
      ],
      { stdio: 'inherit' }
    );
    if (npm.status !== 0) {
      throw new Error('npm install elasticdump failed');
    }
  }
  return bin;
}

async function elasticdump(
  bin: string,
  es: string,
  file: string
): Promise<number> {
  const input = es.replace('http://', 'http://elastic:bench@');
  // elasticdump refuses to replace a file (the previous round's).
  rmSync(file, { force: true });
  const started = performance.now();
  // Run by a shell whose `times` then prints the CPU time its child (elasticdump) used.
  const child = spawn(
    'bash',
    [
      '-c',
      '"$@" >/dev/null && times',
      'elasticdump',
      bin,
      `--input=${input}/bench`,
      `--output=${file}`,
      '--type=data',
      '--limit=10000',
      '--searchAfter',
      '--pit',
      '--quiet'
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] }
  );
  let printed = '';
  child.stdout?.on('data', (d: Buffer) => (printed += d.toString()));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) {
    throw new Error(`elasticdump exited with ${code}`);
  }
  const ms = performance.now() - started;
  // `times`: the shell's user and system time, then its children's, as `0m1.234s 0m0.056s`.
  const children = printed.trim().split('\n')[1] ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce(
    (sum, m) => sum + Number(m[1]) * 60 + Number(m[2]),
    0
  );
  (dumpCpu[ELASTICDUMP_NAME] ??= []).push(seconds * 1000);
  return ms;
}

const ELASTICDUMP_NAME = `elasticdump ${ELASTICDUMP}`;
/** elasticdump's own CPU time in each round, in ms. */
const dumpCpu: Record<string, number[]> = {};

/** Runs the contenders in turn, `ROUNDS` times, in a rotating order; the times of each, in order. */
async function rounds(
  contenders: Record<string, () => Promise<number>>,
  between: () => Promise<void>,
  enginesPid: number
): Promise<{
  times: Record<string, number[]>;
  engineCpu: Record<string, number[]>;
}> {
  const names = Object.keys(contenders);
  const times: Record<string, number[]> = Object.fromEntries(
    names.map(n => [n, []])
  );
  const engineCpu: Record<string, number[]> = Object.fromEntries(
    names.map(n => [n, []])
  );
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length] as string;
      const cpu = cpuMs(enginesPid);
      times[name]?.push(await (contenders[name] as () => Promise<number>)());
      engineCpu[name]?.push(cpuMs(enginesPid) - cpu);
      await between();
    }
  }
  return { times, engineCpu };
}

/** Part 2: docs/s of each format and cursor count against elasticdump, in the same kernel. */
async function speed(
  kernel: Kernel,
  engines: { es: string; ts: string; child: ChildProcess }
): Promise<void> {
  const dump = installElasticdump();
  await kernel.run(
    `%connect elasticsearch ${engines.es} user=elastic password=\${env:ES_PASSWORD}`
  );
  const cpu: Record<string, number[]> = {};
  const mainCpu: Record<string, number[]> = {};
  const exported = (file: string, name: string) => async () => {
    const ms = await kernel.run(
      `%export bench ${join(scratch, file)} overwrite`
    );
    (cpu[name] ??= []).push(kernel.lastCpuMs);
    (mainCpu[name] ??= []).push(kernel.lastMainMs);
    return ms;
  };
  const JSONL = 'JSONL, 1 cursor';
  const CSV = 'CSV, 1 cursor';
  const JSONL2 = 'JSONL, slices=2';
  const CSV2 = 'CSV, slices=2';
  const DUMP = ELASTICDUMP_NAME;
  const BARE = 'bare undici search_after';
  // A first pass warms the engines and the kernel (JIT) so that no contender pays for it alone.
  await bareLoop(engines.es, join(scratch, 'bare.jsonl'));
  await exported('k.csv', 'warm-up')();
  const loadBefore = load();
  const { times, engineCpu } = await rounds(
    {
      [JSONL]: exported('k.jsonl', JSONL),
      [CSV]: exported('k.csv', CSV),
      [JSONL2]: exported('k2.jsonl slices=2', JSONL2),
      [CSV2]: exported('k2.csv slices=2', CSV2),
      [DUMP]: () => elasticdump(dump, engines.es, join(scratch, 'dump.json')),
      [BARE]: () => bareLoop(engines.es, join(scratch, 'bare.jsonl'))
    },
    () => settleEngines(engines.child),
    engines.child.pid as number
  );
  for (const file of ['k.jsonl', 'k2.jsonl', 'dump.json', 'bare.jsonl']) {
    check(join(scratch, file), TOTAL);
  }
  for (const file of ['k.csv', 'k2.csv']) {
    check(join(scratch, file), TOTAL + 1);
  }
  const docsPerSecond = (name: string) =>
    rate(TOTAL, median(times[name] as number[]));
  console.log(
    `\nElasticsearch, ${fmt(TOTAL)} documents (JSONL ${fmt(statSync(join(scratch, 'k.jsonl')).size)} bytes), median of ${ROUNDS} rounds (each round's docs/s); load ${loadBefore} before, ${load()} after:`
  );
  for (const name of Object.keys(times)) {
    const wall = median(times[name] as number[]);
    const engine = median(engineCpu[name] as number[]);
    const ownCpu = cpu[name] ?? dumpCpu[name];
    const own = ownCpu ? median(ownCpu) : undefined;
    const main = mainCpu[name] ? median(mainCpu[name]) : undefined;
    console.log(
      `  ${name.padEnd(26)} ${fmt(docsPerSecond(name)).padStart(9)} docs/s (${(times[name] as number[]).map(ms => fmt(rate(TOTAL, ms))).join(', ')}); engines CPU ${perDoc(engine, TOTAL)}, busy ${busy(engine, wall)}${own === undefined ? '' : `; ${name === DUMP ? 'its own' : 'kernel'} CPU ${perDoc(own, TOTAL)}${main === undefined ? '' : ` (main thread ${mainPerDoc(main, TOTAL)})`}, busy ${busy(own, wall)}`}`
    );
  }
  const ratio = (a: string, b: string) =>
    (docsPerSecond(a) / docsPerSecond(b)).toFixed(2);
  console.log(
    [
      `  JSONL / elasticdump = ${ratio(JSONL, DUMP)}x, CSV / elasticdump = ${ratio(CSV, DUMP)}x (goal >= 3)`,
      `  CSV / JSONL = ${ratio(CSV, JSONL)}x one cursor, ${ratio(CSV2, JSONL2)}x slices=2 (goal >= 0.9)`,
      `  slices=2 / one cursor = ${ratio(JSONL2, JSONL)}x JSONL, ${ratio(CSV2, CSV)}x CSV (goal >= 1.5)`,
      `  JSONL / bare loop = ${ratio(JSONL, BARE)}x`,
      `  kernel peak after the rounds ${memory(kernel.pid).peak.toFixed(0)} MB`
    ].join('\n')
  );
}

async function main(): Promise<void> {
  const loading = performance.now();
  const engines = await startEngines();
  console.log(
    `engines loaded ${fmt(TOTAL)} Elasticsearch and ${fmt(TS_TOTAL)} Typesense documents in ${((performance.now() - loading) / 1000).toFixed(0)} s`
  );
  const kernel = await Kernel.start();
  try {
    console.log(`kernel started: ${memory(kernel.pid).now.toFixed(0)} MB RSS`);
    await memorySteps(kernel, engines);
    if (!MEMORY_ONLY) {
      await speed(kernel, engines);
    }
  } finally {
    await kernel.close();
    const enginesGone = once(engines.child, 'exit');
    engines.child.kill();
    // A profiled engines process writes its profile as it exits.
    await enginesGone;
    rmSync(scratch, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
