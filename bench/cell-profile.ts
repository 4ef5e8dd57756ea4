/**
 * Where a searchbook cell's time goes inside the kernel: runs the bench:cell search as cells
 * in a kernel started under `node --cpu-prof` (its kernelspec says so), against the sandbox in its own process, then
 * sums the profile's samples taken while those cells ran, in milliseconds per cell: by the
 * nearest frame of searchbook's code or of a package, and by leaf function.
 *
 *   npm run bench:cell-profile [-- --size 1000] [--cells 200] [--top 25] [--node-flags "--max-semi-space-size=64"] [--index issue] [--es-url URL]
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CellTimer,
  argument,
  benchIndex,
  installKernelspec,
  median,
  searchCell,
  benchEngine
} from './cell-harness';
import { summarise, table } from './cpu-profile-summary';

const size = Number(argument('size') ?? 1000);
const cells = Number(argument('cells') ?? 200);
const top = Number(argument('top') ?? 25);
const nodeFlags = (argument('node-flags') ?? '').split(' ').filter(Boolean);

/** CLOCK_MONOTONIC in microseconds, the clock of V8's profile samples. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function main(): Promise<void> {
  const engine = await benchEngine();
  const index = await benchIndex(engine.esUrl);
  const profiles = mkdtempSync(join(tmpdir(), 'searchbook-cpu-prof-'));
  const timer = new CellTimer({
    ...process.env,
    JUPYTER_PATH: installKernelspec([
      ...nodeFlags,
      '--cpu-prof',
      `--cpu-prof-dir=${profiles}`,
      '--cpu-prof-interval=100'
    ]),
    SEARCHBOOK_MAX_ROWS: '10000'
  });
  await timer.start('searchbook', 'searchbook', [
    `%connect elasticsearch ${engine.esUrl}`
  ]);
  // Warm: mappings cached, code optimised.
  for (let i = 0; i < 30; i++) {
    await timer.run('searchbook', searchCell(size, index));
  }
  const times: number[] = [];
  const from = nowUs();
  for (let i = 0; i < cells; i++) {
    times.push((await timer.run('searchbook', searchCell(size, index))).ms);
  }
  const to = nowUs();
  await timer.close();
  engine.close();

  const [file] = readdirSync(profiles).filter(f => f.endsWith('.cpuprofile'));
  if (!file) {
    throw new Error(`no profile was written in ${profiles}`);
  }
  const summary = summarise(join(profiles, file), from, to);
  const sampled = [...summary.byPlace.values()].reduce((a, b) => a + b, 0);
  console.log(
    `${cells} cells of ${size} hits: median ${median(times).toFixed(2)} ms from execute_request to idle; ${(summary.windowUs / 1000 / cells).toFixed(2)} ms a cell of wall time, ${(sampled / 1000 / cells).toFixed(2)} ms sampled`
  );
  console.log('\nms per cell, by nearest frame of searchbook or a package:');
  for (const line of table(summary.byPlace, cells, top)) {
    console.log(line);
  }
  console.log(
    '\nms per cell, by searchbook function with what it called (synchronous calls only: an await ends a stack):'
  );
  for (const line of table(summary.inclusive, cells, top)) {
    console.log(line);
  }
  console.log('\nms per cell, by leaf function:');
  for (const line of table(summary.byLeaf, cells, top)) {
    console.log(line);
  }
  console.log(`\nprofile: ${join(profiles, file)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
