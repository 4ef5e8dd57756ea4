/**
 * Whole-index export (`%export` and the panel's export), one run, side by side on the same sandbox engines (their own
 * process): `%export` through a real kernel over ZeroMQ against elasticdump 6.x (`--searchAfter
 * --pit --limit 10000`, installed into a scratch directory outside the repository) and against
 * a bare undici point-in-time + search_after loop writing the same JSONL; the kernel's peak RSS
 * (VmHWM) exporting 100k and 1M documents, each in a fresh kernel; Typesense `%export` against a
 * bare streamed GET into a file. The contenders take turns, round after round (the machine is
 * shared, so its load drifts): each one's best round is compared, and every round is printed.
 * Prints docs/s and ratios; asserts nothing.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/export.js [docs] [rounds, 3] [--memory-only]
 * --memory-only: the kernel's peak RSS only (no contenders, Elasticsearch alone), e.g. at 5,000,000.
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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';
import { KernelClient } from '../test/support/kernel-client';

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const MEMORY_ONLY = process.argv.includes('--memory-only');
const SMALL = 100_000;
const REPO = join(__dirname, '..', '..');
const ELASTICDUMP = '6.125.1';
const scratch = mkdtempSync(join(tmpdir(), 'searchbook-export-bench-'));

const rate = (docs: number, ms: number) => Math.round((docs / ms) * 1000);
const fmt = (n: number) => n.toLocaleString('en-US');
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
  // A last line without its newline counts too; empty lines never occur in JSONL.
  return last === 0x0a ? count : count + 1;
};

/** Asks the engines' process to collect its heap, and waits until it has. */
async function settle(child: ChildProcess): Promise<void> {
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
      `--max-old-space-size=${Math.max(8192, Math.ceil(TOTAL / 1_000_000) * 2048)}`,
      join(REPO, 'dist', 'bench', 'export-sandbox.js'),
      String(TOTAL),
      ...(MEMORY_ONLY ? ['--elasticsearch-only'] : [])
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

function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** `%export` in a fresh kernel: elapsed from the execute request to its reply, and the kernel's peak RSS. */
async function kernelExport(
  connect: string,
  target: string,
  file: string
): Promise<{ ms: number; rssMb: number; idleRssMb: number }> {
  const kernel = await KernelClient.start({
    ES_PASSWORD: 'bench',
    TS_KEY: 'bench'
  });
  try {
    const connected = await kernel.execute(connect);
    if (connected.reply.content.status !== 'ok') {
      throw new Error(
        `connect failed: ${String(connected.reply.content.evalue)}`
      );
    }
    const pid = kernel.process.pid as number;
    const idleRssMb = peakRss(pid);
    const started = performance.now();
    const { reply } = await kernel.execute(
      `%export ${target} ${file} overwrite`
    );
    const ms = performance.now() - started;
    if (reply.content.status !== 'ok') {
      throw new Error(`%export failed: ${String(reply.content.evalue)}`);
    }
    return { ms, rssMb: peakRss(pid), idleRssMb };
  } finally {
    await kernel.close();
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

async function bareTypesense(ts: string, file: string): Promise<number> {
  const started = performance.now();
  const res = await request(`${ts}/collections/bench/documents/export`, {
    headers: { 'x-typesense-api-key': 'bench' }
  });
  await pipeline(res.body, createWriteStream(file));
  return performance.now() - started;
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
  const child = spawn(
    bin,
    [
      `--input=${input}/bench`,
      `--output=${file}`,
      '--type=data',
      '--limit=10000',
      '--searchAfter',
      '--pit',
      '--quiet'
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] }
  );
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) {
    throw new Error(`elasticdump exited with ${code}`);
  }
  return performance.now() - started;
}

/** Runs the contenders in turn, `ROUNDS` times, in a rotating order; the times of each, in order. */
async function rounds(
  contenders: Record<string, () => Promise<number>>,
  between: () => Promise<void>
): Promise<Record<string, number[]>> {
  const names = Object.keys(contenders);
  const times: Record<string, number[]> = Object.fromEntries(
    names.map(n => [n, []])
  );
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length] as string;
      times[name]?.push(await (contenders[name] as () => Promise<number>)());
      await between();
    }
  }
  return times;
}

const best = (times: number[]) => Math.min(...times);
const runs = (times: number[]) =>
  times.map(ms => fmt(rate(TOTAL, ms))).join(', ');

/** The kernel's peak RSS exporting 100k and TOTAL documents, one cursor and sliced, each in a fresh kernel. */
async function memoryOnly(): Promise<void> {
  const loading = performance.now();
  const engines = await startEngines();
  console.log(
    `engine loaded ${fmt(TOTAL)} + ${fmt(SMALL)} ES documents in ${((performance.now() - loading) / 1000).toFixed(0)} s`
  );
  const esConnect = `%connect elasticsearch ${engines.es} user=elastic password=\${env:ES_PASSWORD}`;
  try {
    const runs: [string, string, string, number][] = [
      ['one cursor', 'bench_small', 'small.jsonl', SMALL],
      ['one cursor', 'bench', 'kernel.jsonl', TOTAL],
      ['slices=2', 'bench', 'sliced.jsonl slices=2', TOTAL]
    ];
    for (const [kind, index, file, docs] of runs) {
      await settle(engines.child);
      const run = await kernelExport(esConnect, index, join(scratch, file));
      const written = lines(join(scratch, file.split(' ')[0] as string));
      if (written !== docs) {
        throw new Error(`${file} holds ${written} lines, not ${docs}`);
      }
      console.log(
        `kernel peak RSS, ${kind}, ${fmt(docs)} documents: ${run.rssMb.toFixed(0)} MB (after connect ${run.idleRssMb.toFixed(0)} MB; ${(run.ms / 1000).toFixed(0)} s, ${fmt(rate(docs, run.ms))} docs/s; goal < 200 MB and flat)`
      );
      rmSync(join(scratch, file.split(' ')[0] as string), { force: true });
    }
  } finally {
    engines.child.kill();
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (MEMORY_ONLY) {
    return memoryOnly();
  }
  const dump = installElasticdump();
  const loading = performance.now();
  const engines = await startEngines();
  console.log(
    `engines loaded ${fmt(TOTAL)} + ${fmt(SMALL)} ES documents and ${fmt(TOTAL)} Typesense documents in ${((performance.now() - loading) / 1000).toFixed(0)} s`
  );
  const esConnect = `%connect elasticsearch ${engines.es} user=elastic password=\${env:ES_PASSWORD}`;
  try {
    // A first pass warms the engines (snapshots, JIT) so that no contender pays for it alone.
    await bareLoop(engines.es, join(scratch, 'bare.jsonl'));
    await bareTypesense(engines.ts, join(scratch, 'ts-bare.jsonl'));
    const settled = () => settle(engines.child);
    await settled();
    const small = await kernelExport(
      esConnect,
      'bench_small',
      join(scratch, 'small.jsonl')
    );
    await settled();
    const peaks: Record<'cursor' | 'sliced', number[]> = {
      cursor: [],
      sliced: []
    };
    let idleRssMb = 0;
    const kernelRun = async (file: string, kind: 'cursor' | 'sliced') => {
      const run = await kernelExport(esConnect, 'bench', file);
      peaks[kind].push(run.rssMb);
      idleRssMb = run.idleRssMb;
      return run.ms;
    };
    const es = await rounds(
      {
        '%export (kernel, 1 cursor)': () =>
          kernelRun(join(scratch, 'kernel.jsonl'), 'cursor'),
        '%export slices=2': () =>
          kernelRun(`${join(scratch, 'sliced.jsonl')} slices=2`, 'sliced'),
        'bare undici search_after': () =>
          bareLoop(engines.es, join(scratch, 'bare.jsonl')),
        [`elasticdump ${ELASTICDUMP}`]: () =>
          elasticdump(dump, engines.es, join(scratch, 'elasticdump.json'))
      },
      settled
    );
    for (const name of [
      'kernel.jsonl',
      'sliced.jsonl',
      'bare.jsonl',
      'elasticdump.json'
    ]) {
      const n = lines(join(scratch, name));
      if (n !== TOTAL) {
        throw new Error(`${name} holds ${n} lines, not ${TOTAL}`);
      }
    }
    console.log(
      `\nElasticsearch, ${fmt(TOTAL)} documents (files of ${fmt(statSync(join(scratch, 'kernel.jsonl')).size)} bytes), best of ${ROUNDS} rounds (each round's docs/s):`
    );
    for (const [name, times] of Object.entries(es)) {
      console.log(
        `  ${name.padEnd(28)} ${fmt(rate(TOTAL, best(times))).padStart(9)} docs/s (${(best(times) / 1000).toFixed(1)} s; ${runs(times)})`
      );
    }
    const kernelMs = best(es['%export (kernel, 1 cursor)'] as number[]);
    const dumpMs = best(es[`elasticdump ${ELASTICDUMP}`] as number[]);
    const bareMs = best(es['bare undici search_after'] as number[]);
    console.log(
      `  %export / elasticdump = ${(dumpMs / kernelMs).toFixed(2)}x (goal >= 2), %export / bare loop = ${(bareMs / kernelMs).toFixed(2)}x (goal >= 0.9)`
    );
    const highest = (mbs: number[]) =>
      `${Math.max(...mbs).toFixed(0)} MB (${mbs.map(mb => mb.toFixed(0)).join(', ')})`;
    console.log(
      `kernel peak RSS, one cursor: ${small.rssMb.toFixed(0)} MB at ${fmt(SMALL)}, ${highest(peaks.cursor)} at ${fmt(TOTAL)}; slices=2: ${highest(peaks.sliced)} at ${fmt(TOTAL)} (after connect: ${idleRssMb.toFixed(0)} MB; goal < 200 MB and flat)`
    );

    const tsConnect = `%connect typesense ${engines.ts} key=\${env:TS_KEY}`;
    let tsPeak = 0;
    const ts = await rounds(
      {
        '%export (kernel)': async () => {
          const run = await kernelExport(
            tsConnect,
            'bench',
            join(scratch, 'ts-kernel.jsonl')
          );
          tsPeak = Math.max(tsPeak, run.rssMb);
          return run.ms;
        },
        'bare streamed GET': () =>
          bareTypesense(engines.ts, join(scratch, 'ts-bare.jsonl'))
      },
      settled
    );
    if (lines(join(scratch, 'ts-kernel.jsonl')) !== TOTAL) {
      throw new Error('the Typesense export is incomplete');
    }
    console.log(
      `\nTypesense, ${fmt(TOTAL)} documents, best of ${ROUNDS} rounds (each round's docs/s):`
    );
    for (const [name, times] of Object.entries(ts)) {
      console.log(
        `  ${name.padEnd(28)} ${fmt(rate(TOTAL, best(times))).padStart(9)} docs/s (${(best(times) / 1000).toFixed(1)} s; ${runs(times)})`
      );
    }
    console.log(
      `  %export / bare GET = ${(best(ts['bare streamed GET'] as number[]) / best(ts['%export (kernel)'] as number[])).toFixed(2)}x (goal >= 0.9); kernel peak RSS ${tsPeak.toFixed(0)} MB`
    );
  } finally {
    engines.child.kill();
    rmSync(scratch, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
