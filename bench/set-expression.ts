/**
 * What a `%set` expression costs on its worker thread against the same expression evaluated
 * in place (the library's own `search`), measured in the same run over answers of the sizes
 * %set keeps (up to 8 MB): the worker's start and the copy of the answer into it are the
 * price of an expression the kernel can stop. Run after the build:
 * `node dist/bench/set-expression.js`. Prints figures; asserts nothing.
 */
import { search, type JSONValue } from '@jmespath-community/jmespath';
import { performance } from 'node:perf_hooks';
import type { JsonValue } from '../contracts/json';
import { join } from 'node:path';
import {
  evaluateExpression,
  runExpressionsFrom
} from '../kernel/src/console/expression-worker';
import { REPO } from '../test/support/kernel-client';

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function time(run: () => unknown, rounds = 9): Promise<number> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** A search answer of about `bytes` of JSON. */
function answerOf(bytes: number): { value: JsonValue; size: number } {
  const hits: JsonValue[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const hit = {
      _index: 'products',
      _id: `p${i}`,
      _score: 1,
      _source: {
        title: `Product ${i}`,
        price: i * 1.5,
        tags: ['a', `t${i % 17}`],
        place: { city: i % 2 ? 'Rome' : 'Oslo' }
      }
    };
    size += JSON.stringify(hit).length + 1;
    hits.push(hit);
  }
  return { value: { took: 1, hits: { hits } }, size };
}

async function main(): Promise<void> {
  // As in the kernel: the worker runs the searchbook command.
  runExpressionsFrom(join(REPO, 'bin', 'searchbook.js'));
  const expressions = [
    'hits.hits[*]._id',
    "hits.hits[?_source.place.city == 'Rome']._source.price | sum(@)"
  ];
  for (const bytes of [10_000, 1_000_000, 8_000_000]) {
    const { value, size } = answerOf(bytes);
    for (const expression of expressions) {
      const inPlace = await time(() => search(value as JSONValue, expression));
      // A fresh answer each round: the first expression over an answer copies it to the worker.
      const onWorker = await time(() =>
        evaluateExpression({ value }, expression)
      );
      const held = { value };
      const again = await time(() => evaluateExpression(held, expression));
      process.stdout.write(
        `${(size / 1e6).toFixed(2)} MB answer, ${expression}: in place ${inPlace.toFixed(1)} ms; on the worker, first over the answer ${onWorker.toFixed(1)} ms (ratio ${(onWorker / inPlace).toFixed(1)}x, +${(onWorker - inPlace).toFixed(1)} ms), again over it ${again.toFixed(1)} ms (ratio ${(again / inPlace).toFixed(1)}x)\n`
      );
    }
  }
  const doubling = `@${' | [@, @]'.repeat(30)}`;
  const refused = await time(
    () => evaluateExpression({ value: { count: 1 } }, doubling),
    3
  );
  process.stdout.write(
    `thirty [@, @] steps over {"count": 1}: refused on a worker in ${refused.toFixed(1)} ms (in place the value is built at once, and writing it out never ends)\n`
  );
}

void main();
