/**
 * A searchbook cell against a Python notebook with the official client, in one run on one
 * sandbox (its own process, 25,000 products): the raw HTTP request (undici, body read), a searchbook cell, a searchbook cell that
 * sends nothing, and ipykernel running `display(JSON(es.search(...).body))` with
 * elasticsearch-py, each timed from execute_request to idle with every output received through
 * jupyter_client (bench/cell_timing.py), for 5, 1,000 and 10,000 hits of a `match` search.
 * Also weighs each answer in a notebook saved as JupyterLab saves it. Prints medians and the
 * ratios issue 15 sets goals for; asserts nothing.
 *
 *   npm run bench:cell [-- --runs 15] [--sizes 5,1000,10000]
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';

const REPO = join(__dirname, '..', '..');
const PYTHON = join(REPO, '.venv', 'bin', 'python');
const sizesArg = process.argv.indexOf('--sizes');
const SIZES = sizesArg > 0 ? String(process.argv[sizesArg + 1]).split(',').map(Number) : [5, 1_000, 10_000];
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 15;
const QUERY = { match: { description: 'durable lightweight stylish powerful quiet handy' } };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** bench/cell_timing.py, driven one command at a time. */
class CellTimer {
  private readonly child;
  private readonly lines: AsyncIterator<string>;

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(PYTHON, [join(REPO, 'bench', 'cell_timing.py')], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  private async ask<T>(command: object): Promise<T> {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
    const line = await this.lines.next();
    if (line.done) throw new Error('bench/cell_timing.py stopped');
    return JSON.parse(line.value) as T;
  }

  start(name: string, kernel: string, setup: string[]): Promise<unknown> {
    return this.ask({ start: name, kernel, setup });
  }

  run(name: string, code: string, weigh = false): Promise<{ ms: number; weight: number | null }> {
    return this.ask({ run: name, code, weigh });
  }

  async close(): Promise<void> {
    this.child.stdin.end();
    await new Promise((resolve) => this.child.on('close', resolve));
  }
}

/**
 * The sandbox in a process of its own, as a real engine is: every client (this one's raw
 * requests, both kernels) crosses a process boundary alike.
 */
async function startSandboxProcess(): Promise<{ esUrl: string; close: () => void }> {
  const child = spawn(process.execPath, [join(REPO, 'bin', 'searchbook.js'), 'sandbox', '--es-port', '0', '--ts-port', '0', '--no-security'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let seen = '';
  for await (const line of createInterface({ input: child.stdout })) {
    seen += `${line}\n`;
    const es = /Elasticsearch\s+(http\S+)/.exec(seen);
    if (es && line.includes('Press Ctrl-C')) return { esUrl: es[1] as string, close: () => child.kill('SIGTERM') };
  }
  throw new Error(`the sandbox did not start:\n${seen}`);
}

async function main(): Promise<void> {
  const sandbox = await startSandboxProcess();
  const agent = new Agent({ connections: 1 });
  const body = (size: number) => JSON.stringify({ size, query: QUERY });
  const rawRequest = async (size: number): Promise<{ ms: number; bytes: number }> => {
    const started = performance.now();
    const response = await agent.request({ origin: sandbox.esUrl, method: 'POST', path: '/products/_search', headers: { 'content-type': 'application/json' }, body: body(size) });
    const text = await response.body.text();
    return { ms: performance.now() - started, bytes: Buffer.byteLength(text) };
  };

  const prefix = mkdtempSync(join(tmpdir(), 'searchbook-bench-'));
  spawnSync(process.execPath, [join(REPO, 'bin', 'searchbook.js'), 'install', '--prefix', prefix], { stdio: 'ignore' });
  const timer = new CellTimer({ ...process.env, JUPYTER_PATH: join(prefix, 'share', 'jupyter'), SEARCHBOOK_MAX_ROWS: '10000' });
  await timer.start('searchbook', 'searchbook', [`%connect elasticsearch ${sandbox.esUrl}`]);
  await timer.start('python', 'python3', ['from elasticsearch import Elasticsearch\nfrom IPython.display import JSON, display', `es = Elasticsearch(${JSON.stringify(sandbox.esUrl)})`]);
  const cells = (size: number) => ({
    searchbook: `GET /products/_search\n${body(size)}`,
    python: `display(JSON(es.search(index="products", size=${size}, query=${JSON.stringify(QUERY)}).body))`,
  });

  // Every measurement of a size is interleaved with the others, so load from elsewhere on the
  // machine falls on all of them alike.
  const rows: string[] = [];
  const noops: number[] = [];
  const pythonNoops: number[] = [];
  for (const size of SIZES) {
    const t = { raw: [] as number[], cell: [] as number[], noop: [] as number[], python: [] as number[] };
    let bytes = 0;
    let weight = { searchbook: 0, python: 0 };
    for (let i = 0; i <= runs; i++) {
      const first = i === 0;
      const raw = await rawRequest(size);
      const cell = await timer.run('searchbook', cells(size).searchbook, first);
      const noop = await timer.run('searchbook', '%set bench_noop = 1');
      const python = await timer.run('python', cells(size).python, first);
      const pythonNoop = await timer.run('python', 'pass');
      if (first) {
        // The first round warms connections and caches, and weighs the outputs.
        bytes = raw.bytes;
        weight = { searchbook: cell.weight ?? 0, python: python.weight ?? 0 };
        continue;
      }
      t.raw.push(raw.ms);
      t.cell.push(cell.ms);
      t.noop.push(noop.ms);
      t.python.push(python.ms);
      noops.push(noop.ms);
      pythonNoops.push(pythonNoop.ms);
    }
    const [raw, cell, noop, python] = [median(t.raw), median(t.cell), median(t.noop), median(t.python)];
    const own = cell - noop - raw;
    const f = (n: number) => n.toFixed(2).padStart(8);
    rows.push(
      `${String(size).padStart(7)}  ${f(raw)}  ${f(cell)}   ${f(own)}  ${f(python)}         ${(cell / python).toFixed(2).padStart(5)}  ${(own / raw).toFixed(2).padStart(7)}   ${(weight.searchbook / bytes).toFixed(3)} (${(weight.python / bytes).toFixed(3)}) of ${bytes} bytes`,
    );
  }
  await timer.close();
  await agent.close();
  sandbox.close();

  console.log(`medians of ${runs} interleaved runs (ms); no-request cells: searchbook ${median(noops).toFixed(2)}, ipykernel ${median(pythonNoops).toFixed(2)}`);
  console.log('   hits       raw  searchbook   own work  ipykernel+es-py   cell/ipy  own/raw   nb bytes/engine bytes (ipy)');
  for (const row of rows) console.log(row);
  console.log('own work = searchbook cell - no-request cell - raw request');
  console.log('goals: 1,000 hits cell/ipy <= 0.5 and own/raw <= 2; 5 hits own/raw <= 1; 10,000 hits cell/ipy <= 0.5; nb bytes <= 1.15x at 1,000 and 10,000');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
