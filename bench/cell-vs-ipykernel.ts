/**
 * A searchbook cell against a Python notebook with the official client, in one run on one
 * sandbox (its own process, 25,000 products): the raw HTTP request (undici, body read), a searchbook cell, a searchbook cell that
 * sends nothing, and ipykernel running `display(JSON(es.search(...).body))` with
 * elasticsearch-py, each timed from execute_request to idle with every output received through
 * jupyter_client (bench/cell_timing.py), for 5, 1,000 and 10,000 hits of a `match` search.
 * Also weighs each answer in a notebook saved as JupyterLab saves it. Prints medians and the
 * ratios of searchbook's cell to the raw request and to ipykernel; asserts nothing.
 *
 * `--index issue` runs it on the small flat index of bench/issue-index.ts (2,000 documents of
 * about 250 bytes) instead of the sample products; `--each` prints every run's times, not only medians;
 * `--es-url` runs it on an Elasticsearch already running here instead of the sandbox (a real
 * node from `npm run real-es -- 8.19`; with `--index issue`, or started with `--products`).
 *
 *   npm run bench:cell [-- --runs 15] [--sizes 5,1000,10000] [--index issue] [--each] [--es-url http://127.0.0.1:PORT]
 */
import { Agent } from 'undici';
import {
  CellTimer,
  QUERY,
  argument,
  benchIndex,
  installKernelspec,
  median,
  searchBody,
  searchCell,
  benchEngine
} from './cell-harness';

const SIZES = (argument('sizes') ?? '5,1000,10000').split(',').map(Number);
const runs = Number(argument('runs')) || 15;
const each = process.argv.includes('--each');

async function main(): Promise<void> {
  const engine = await benchEngine();
  const agent = new Agent({ connections: 1 });
  const index = await benchIndex(engine.esUrl);
  const rawRequest = async (
    size: number
  ): Promise<{ ms: number; bytes: number }> => {
    const started = performance.now();
    const response = await agent.request({
      origin: engine.esUrl,
      method: 'POST',
      path: `/${index}/_search`,
      headers: { 'content-type': 'application/json' },
      body: searchBody(size)
    });
    const text = await response.body.text();
    return { ms: performance.now() - started, bytes: Buffer.byteLength(text) };
  };

  const timer = new CellTimer({
    ...process.env,
    JUPYTER_PATH: installKernelspec(),
    SEARCHBOOK_MAX_ROWS: '10000'
  });
  await timer.start('searchbook', 'searchbook', [
    `%connect elasticsearch ${engine.esUrl}`
  ]);
  await timer.start('python', 'python3', [
    'from elasticsearch import Elasticsearch\nfrom IPython.display import JSON, display',
    `es = Elasticsearch(${JSON.stringify(engine.esUrl)})`
  ]);
  const cells = (size: number) => ({
    searchbook: searchCell(size, index),
    python: `display(JSON(es.search(index="${index}", size=${size}, query=${JSON.stringify(QUERY)}).body))`
  });

  // Every measurement of a size is interleaved with the others, so load from elsewhere on the
  // machine falls on all of them alike.
  const rows: string[] = [];
  const noops: number[] = [];
  const pythonNoops: number[] = [];
  for (const size of SIZES) {
    const t = {
      raw: [] as number[],
      cell: [] as number[],
      noop: [] as number[],
      python: [] as number[]
    };
    let bytes = 0;
    let weight = { searchbook: 0, python: 0 };
    for (let i = 0; i <= runs; i++) {
      const first = i === 0;
      // Each kernel's cells run after the other kernel's, never straight after its own: a
      // no-request cell run while the kernel is still warm from the search would leave the
      // cost of waking an idle kernel in "own work".
      const raw = await rawRequest(size);
      const cell = await timer.run('searchbook', cells(size).searchbook, first);
      const python = await timer.run('python', cells(size).python, first);
      const noop = await timer.run('searchbook', '%set bench_noop = 1');
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
    const [raw, cell, noop, python] = [
      median(t.raw),
      median(t.cell),
      median(t.noop),
      median(t.python)
    ];
    if (each) {
      const list = (values: number[]) =>
        values.map(v => v.toFixed(1)).join(' ');
      console.log(
        `${size} hits, run by run (ms)\n  raw         ${list(t.raw)}\n  searchbook  ${list(t.cell)}\n  ipykernel   ${list(t.python)}`
      );
    }
    const own = cell - noop - raw;
    const f = (n: number) => n.toFixed(2).padStart(8);
    rows.push(
      `${String(size).padStart(7)}  ${f(raw)}  ${f(cell)}   ${f(own)}  ${f(python)}         ${(cell / python).toFixed(2).padStart(5)}  ${(own / raw).toFixed(2).padStart(7)}   ${(weight.searchbook / bytes).toFixed(3)} (${(weight.python / bytes).toFixed(3)}) of ${bytes} bytes`
    );
  }
  await timer.close();
  await agent.close();
  engine.close();

  console.log(
    `medians of ${runs} interleaved runs (ms); no-request cells: searchbook ${median(noops).toFixed(2)}, ipykernel ${median(pythonNoops).toFixed(2)}`
  );
  console.log(
    '   hits       raw  searchbook   own work  ipykernel+es-py   cell/ipy  own/raw   nb bytes/engine bytes (ipy)'
  );
  for (const row of rows) {
    console.log(row);
  }
  console.log('own work = searchbook cell - no-request cell - raw request');
  console.log(
    'goals: 1,000 hits cell/ipy <= 0.5 and own/raw <= 2; 5 hits own/raw <= 1; 10,000 hits cell/ipy <= 0.5; nb bytes <= 1.15x at 1,000 and 10,000'
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
