/**
 * Console parser speed against plain JSON.parse of the same text, measured in the same run.
 * Run after the build: `node dist/bench/parse.js`. Prints figures; asserts nothing.
 */
import { CONSOLE_WORDING } from '../kernel/src/connections/console-wording';
import { performance } from 'node:perf_hooks';
import { parseCell } from '../kernel/src/console/parse';
import { VariableScope } from '../kernel/src/console/variables';

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function time(run: () => void, rounds = 15): number {
  run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function jsonBody(bytes: number): string {
  const docs: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const doc = JSON.stringify({
      id: i,
      title: `Product ${i} with a "quoted" name`,
      price: i * 1.5,
      tags: ['a', 'b', `t${i % 17}`],
      nested: { ok: i % 2 === 0, note: null }
    });
    size += doc.length + 6;
    docs.push(doc);
  }
  return `{"query": {"bool": {"should": [\n    ${docs.join(',\n    ')}\n]}}}`;
}

function ndjsonBody(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    out.push(
      i % 2 === 0
        ? JSON.stringify({ index: { _index: 'products', _id: String(i) } })
        : JSON.stringify({ title: `Doc ${i}`, n: i })
    );
  }
  return out.join('\n');
}

function report(
  label: string,
  body: string,
  cell: string,
  baseline: () => void
): void {
  const scope = new VariableScope(() => undefined);
  const check = parseCell(cell, scope, CONSOLE_WORDING);
  if (!check.ok) {
    throw new Error(`${label}: refused: ${check.refusal.message}`);
  }
  const parse = time(() => parseCell(cell, scope, CONSOLE_WORDING));
  const plain = time(baseline);
  const mb = (body.length / 1e6).toFixed(2);
  process.stdout.write(
    `${label}: ${mb} MB, parseCell ${parse.toFixed(1)} ms, JSON.parse ${plain.toFixed(1)} ms, ratio ${(parse / plain).toFixed(2)}x\n`
  );
}

const json = jsonBody(1_000_000);
report('1 MB JSON body', json, `POST /products/_search\n${json}`, () =>
  JSON.parse(json)
);

const ndjson = ndjsonBody(100_000);
report('100k-line NDJSON body', ndjson, `POST /_bulk\n${ndjson}`, () => {
  for (const line of ndjson.split('\n')) {
    JSON.parse(line);
  }
});

const templated = json.replace('"Product 0', '"${name} 0');
const scope = new VariableScope(() => undefined, [['name', 'Widget']]);
const plain = time(() => JSON.parse(json));
const slow = time(() =>
  parseCell(`POST /products/_search\n${templated}`, scope, CONSOLE_WORDING)
);
process.stdout.write(
  `1 MB JSON body with a \${} (positional parser): parseCell ${slow.toFixed(1)} ms, JSON.parse ${plain.toFixed(1)} ms, ratio ${(slow / plain).toFixed(2)}x\n`
);
