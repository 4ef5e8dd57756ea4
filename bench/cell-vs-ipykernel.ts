/**
 * A searchbook cell against a Python notebook with the official client, in one run on one
 * sandbox: the raw HTTP request (undici, body read), a searchbook cell, a searchbook cell that
 * sends nothing, and ipykernel running `display(JSON(es.search(...).body))` with
 * elasticsearch-py, each timed from execute_request to idle with every output received through
 * jupyter_client (bench/cell_timing.py), for 5, 1,000 and 10,000 hits of a `match` search.
 * Also weighs each answer in a notebook saved as JupyterLab saves it. Prints medians and the
 * ratios issue 15 sets goals for; asserts nothing.
 *
 *   npm run bench:cell [-- --runs 15] [--sizes 5,1000,10000]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { startSandbox } from '../examples/sandbox/sandbox';

const REPO = join(__dirname, '..', '..');
const PYTHON = join(REPO, '.venv', 'bin', 'python');
const sizesArg = process.argv.indexOf('--sizes');
const SIZES = sizesArg > 0 ? String(process.argv[sizesArg + 1]).split(',').map(Number) : [5, 1_000, 10_000];
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 15;
const QUERY = { match: { description: 'durable lightweight stylish powerful quiet handy' } };

type Timings = Record<string, { ms: number[]; weight: number }>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Runs cells in one kernel through jupyter_client; resolves with each cell's times and weight. */
function timeCells(kernel: string, env: NodeJS.ProcessEnv, setup: string[], cells: Record<string, string>): Promise<Timings> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [join(REPO, 'bench', 'cell_timing.py')], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Timings) : reject(new Error(`${kernel}: cell_timing.py exited with ${code}`))));
    child.stdin.end(JSON.stringify({ kernel, setup, cells, runs }));
  });
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ esPort: 0, tsPort: 0, tls: false, esVersion: '8.15.0', tsVersion: '29.0', esPassword: 'bench-es', tsApiKey: 'bench-ts', security: false });
  const agent = new Agent({ connections: 1 });
  const body = (size: number) => JSON.stringify({ size, query: QUERY });
  const raw = new Map<number, { ms: number; bytes: number }>();
  for (const size of SIZES) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i <= runs; i++) {
      const started = performance.now();
      const response = await agent.request({ origin: sandbox.esUrl, method: 'POST', path: '/products/_search', headers: { 'content-type': 'application/json' }, body: body(size) });
      const text = await response.body.text();
      if (i > 0) times.push(performance.now() - started);
      bytes = Buffer.byteLength(text);
    }
    raw.set(size, { ms: median(times), bytes });
  }
  await agent.close();

  const prefix = mkdtempSync(join(tmpdir(), 'searchbook-bench-'));
  spawnSync(process.execPath, [join(REPO, 'bin', 'searchbook.js'), 'install', '--prefix', prefix], { stdio: 'inherit' });
  const env = { ...process.env, JUPYTER_PATH: join(prefix, 'share', 'jupyter'), SEARCHBOOK_MAX_ROWS: '10000' };
  const searchbookCells: Record<string, string> = { noop: '%set bench_noop = 1' };
  const pythonCells: Record<string, string> = { noop: 'pass' };
  for (const size of SIZES) {
    searchbookCells[`hits-${size}`] = `GET /products/_search\n${body(size)}`;
    pythonCells[`hits-${size}`] = `display(JSON(es.search(index="products", size=${size}, query=${JSON.stringify(QUERY)}).body))`;
  }
  const searchbook = await timeCells('searchbook', env, [`%connect elasticsearch ${sandbox.esUrl}`], searchbookCells);
  const python = await timeCells('python3', env, ['from elasticsearch import Elasticsearch\nfrom IPython.display import JSON, display', `es = Elasticsearch(${JSON.stringify(sandbox.esUrl)})`], pythonCells);
  await sandbox.close();

  const noop = median(searchbook.noop?.ms ?? []);
  const f = (n: number) => n.toFixed(2).padStart(8);
  console.log(`medians of ${runs} runs (ms); searchbook no-request cell ${noop.toFixed(2)} ms, ipykernel no-request cell ${median(python.noop?.ms ?? []).toFixed(2)} ms`);
  console.log('   hits       raw  searchbook   own work  ipykernel+es-py   cell/ipy  own/raw   nb bytes/engine bytes (ipy)');
  for (const size of SIZES) {
    const r = raw.get(size) as { ms: number; bytes: number };
    const cell = searchbook[`hits-${size}`] as { ms: number[]; weight: number };
    const py = python[`hits-${size}`] as { ms: number[]; weight: number };
    const cellMs = median(cell.ms);
    const own = cellMs - noop - r.ms;
    const pyMs = median(py.ms);
    console.log(
      `${String(size).padStart(7)}  ${f(r.ms)}  ${f(cellMs)}   ${f(own)}  ${f(pyMs)}         ${(cellMs / pyMs).toFixed(2).padStart(5)}  ${(own / r.ms).toFixed(2).padStart(7)}   ${(cell.weight / r.bytes).toFixed(3)} (${(py.weight / r.bytes).toFixed(3)}) of ${r.bytes} bytes`,
    );
  }
  console.log('goals: 1,000 hits cell/ipy <= 0.5 and own/raw <= 2; 5 hits own/raw <= 1; 10,000 hits cell/ipy <= 0.5; nb bytes <= 1.15x at 1,000 and 10,000');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
