/**
 * What a `%%searchbook` cell in a Python notebook costs over the same cell in a searchbook
 * notebook: one sandbox (its own process, 25,000 products), a searchbook kernel, and an
 * ipykernel with `%load_ext searchbook` (whose magic runs the cell in a searchbook kernel of its
 * own and shows its outputs), each timed from execute_request to idle with every output
 * received through jupyter_client (bench/cell_timing.py), for the same 1,000-hit search. Runs
 * are interleaved. Prints medians and the ratio magic / searchbook cell; asserts nothing.
 *
 *   npm run bench:magic [-- --runs 15] [--size 1000]
 */
import { join } from 'node:path';
import {
  CellTimer,
  REPO,
  argument,
  benchEngine,
  installKernelspec,
  median,
  searchCell
} from './cell-harness';

const size = Number(argument('size')) || 1000;
const runs = Number(argument('runs')) || 15;

async function main(): Promise<void> {
  const engine = await benchEngine();
  const timer = new CellTimer({
    ...process.env,
    JUPYTER_PATH: installKernelspec(),
    // The Python kernel imports this checkout's IPython extension.
    PYTHONPATH: [join(REPO, 'python'), process.env.PYTHONPATH]
      .filter(Boolean)
      .join(':')
  });
  const connect = `%connect elasticsearch ${engine.esUrl}`;
  await timer.start('searchbook', 'searchbook', [connect]);
  await timer.start('python', 'python3', [
    '%load_ext searchbook',
    `%%searchbook\n${connect}`
  ]);
  const cell = searchCell(size);
  const times = { searchbook: [] as number[], magic: [] as number[] };
  for (let i = 0; i <= runs; i++) {
    const first = i === 0;
    const own = await timer.run('searchbook', cell);
    const magic = await timer.run('python', `%%searchbook\n${cell}`);
    if (first) {
      // The first round warms connections and caches.
      continue;
    }
    times.searchbook.push(own.ms);
    times.magic.push(magic.ms);
  }
  await timer.close();
  engine.close();
  const [own, magic] = [median(times.searchbook), median(times.magic)];
  console.log(`medians of ${runs} interleaved runs, ${size} hits (ms)`);
  console.log(`  searchbook cell            ${own.toFixed(2)}`);
  console.log(`  %%searchbook in ipykernel  ${magic.toFixed(2)}`);
  console.log(
    `  magic / cell               ${(magic / own).toFixed(2)} (overhead ${(magic - own).toFixed(2)} ms)`
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
