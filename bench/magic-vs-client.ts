/**
 * searchbook's magics as an analyst uses them in a Python notebook, against the official client
 * in the same ipykernel and the same run: 50 searches of 1,000 hits each, each answer made a
 * pandas DataFrame, as one cell. Three cells, interleaved round after round, each timed from
 * execute_request to idle with every output received (bench/cell_timing.py):
 *
 *   client     elasticsearch-py `es.search(...)` + `pandas.json_normalize(hits)`
 *   quiet      `a = %searchbook -q GET ...` + `a.to_pandas()`
 *   displayed  `a = %searchbook GET ...` + `a.to_pandas()` (50 grids shown)
 *
 * Prints medians, the ratios quiet / client and displayed / client, and what each cell adds to
 * a saved notebook; then the CPU time per search of the Python kernel and the processes it
 * started (the searchbook kernel), which a loaded machine sways less than the time, and the
 * load average the run saw. Asserts nothing. The sandbox by default (its own process, 25,000 products);
 * `--es-url URL [--es-password PW]` runs it on a node already running here with the sample
 * index (`npm run real-es -- 8.19 --products 25000`), as the elastic user when given a password.
 *
 *   npm run bench:magic-client [-- --runs 5] [--searches 50] [--es-url http://127.0.0.1:PORT --es-password PW]
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  CellTimer,
  REPO,
  argument,
  installKernelspec,
  median,
  startSandboxProcess
} from './cell-harness';

const runs = Number(argument('runs')) || 5;
const searches = Number(argument('searches')) || 50;

async function engine(): Promise<{ esUrl: string; close: () => void }> {
  const given = argument('es-url');
  return given === undefined
    ? startSandboxProcess()
    : { esUrl: new URL(given).origin, close: () => undefined };
}

function loop(body: string): string {
  return `for i in range(${searches}):\n${body
    .split('\n')
    .map(line => `    ${line}`)
    .join('\n')}`;
}

async function main(): Promise<void> {
  const { esUrl, close } = await engine();
  const password = argument('es-password');
  const timer = new CellTimer({
    ...process.env,
    JUPYTER_PATH: installKernelspec(),
    PYTHONPATH: [join(REPO, 'python'), process.env.PYTHONPATH]
      .filter(Boolean)
      .join(':'),
    ...(password ? { ES_PASSWORD: password } : {})
  });
  const auth = password
    ? ' auth=basic user=elastic password=${env:ES_PASSWORD}'
    : '';
  const search = 'GET /products/_search?size=1000&q=price:>=${i}';
  await timer.start('python', 'python3', [
    'import os, warnings\nimport pandas as pd\nfrom elasticsearch import Elasticsearch',
    `es = Elasticsearch(${JSON.stringify(esUrl)}${password ? ', basic_auth=("elastic", os.environ["ES_PASSWORD"])' : ''})`,
    '%load_ext searchbook',
    `%%searchbook -q\n%connect elasticsearch ${esUrl}${auth}`
  ]);
  const cells = {
    client: loop(
      'df = pd.json_normalize(es.search(index="products", size=1000, q=f"price:>={i}").body["hits"]["hits"])'
    ),
    quiet: loop(`a = %searchbook -q ${search}\ndf = a.to_pandas()`),
    displayed: loop(`a = %searchbook ${search}\ndf = a.to_pandas()`)
  };
  const times: Record<keyof typeof cells, number[]> = {
    client: [],
    quiet: [],
    displayed: []
  };
  const cpu: Record<keyof typeof cells, number[]> = {
    client: [],
    quiet: [],
    displayed: []
  };
  const weights: Partial<Record<keyof typeof cells, number | null>> = {};
  for (let round = 0; round <= runs; round++) {
    for (const name of Object.keys(cells) as (keyof typeof cells)[]) {
      const { ms, weight, cpuMs } = await timer.run(
        'python',
        cells[name],
        round === 0
      );
      // The first round warms connections, caches and imports; it weighs the outputs.
      if (round === 0) {
        weights[name] = weight;
      } else {
        times[name].push(ms);
        if (cpuMs !== null) {
          cpu[name].push(cpuMs / searches);
        }
      }
    }
  }
  await timer.close();
  close();
  const [client, quiet, displayed] = [
    median(times.client),
    median(times.quiet),
    median(times.displayed)
  ];
  const kb = (bytes: number | null | undefined) =>
    `${((bytes ?? 0) / 1024).toFixed(1)} KB`;
  console.log(
    `${esUrl}: medians of ${runs} interleaved runs of ${searches} searches of 1,000 hits to DataFrames (ms)`
  );
  console.log(
    `  elasticsearch-py + json_normalize   ${client.toFixed(0)}   saved ${kb(weights.client)}`
  );
  console.log(
    `  %searchbook -q + to_pandas()         ${quiet.toFixed(0)}   saved ${kb(weights.quiet)}   ${(quiet / client).toFixed(2)}x`
  );
  console.log(
    `  %searchbook (shown) + to_pandas()    ${displayed.toFixed(0)}   saved ${kb(weights.displayed)}   ${(displayed / client).toFixed(2)}x`
  );
  const [cpuClient, cpuQuiet, cpuShown] = [
    median(cpu.client),
    median(cpu.quiet),
    median(cpu.displayed)
  ];
  console.log(
    `  CPU per search, the Python kernel and what it started (ms): client ${cpuClient.toFixed(1)}, quiet ${cpuQuiet.toFixed(1)} (${ratioOf(cpuQuiet, cpuClient)}), shown ${cpuShown.toFixed(1)} (${ratioOf(cpuShown, cpuClient)})`
  );
  console.log(
    `  load average ${loadavg()
      .map(l => l.toFixed(2))
      .join(' ')} (1, 5, 15 min) at the end of the run`
  );
}

/** The ratio of two medians, or "-" when either is missing. */
function ratioOf(value: number, base: number): string {
  return Number.isFinite(value) && Number.isFinite(base) && base > 0
    ? `${(value / base).toFixed(2)}x`
    : '-';
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
