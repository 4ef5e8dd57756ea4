/**
 * The kernel's part of an export page alone, from the search answer's bytes to the file's
 * bytes (pages shaped like the export benchmark's: Elasticsearch answers of small products),
 * CSV timed against JSONL on the same answers, so a change to the CSV path can be measured in
 * seconds without engines or a kernel.
 *   node dist/bench/csv-page.js [pages, 40]
 */
import type {
  ExportPage,
  ExportStream
} from '../kernel/src/driver-core/capabilities/export';
import type {
  FieldNode,
  FieldTree
} from '../kernel/src/driver-core/field-tree';
import { pageWriter } from '../kernel/src/export/formats';
import { pageOf } from '../kernel/src/engines/elasticsearch/export';
import {
  HitRanges,
  type RawHitsPage,
  readRawHits
} from '../kernel/src/engines/elasticsearch/raw-hits';

const PAGES = Number(process.argv[2] ?? 40);
const SIZE = 10_000;
const TAGS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const CITIES = ['Lyon', 'Oslo', 'Lima', 'Pune', 'Kyoto'];

/** A `_search` answer under a point in time, as Elasticsearch writes one. */
function page(from: number): Buffer {
  const hits: string[] = [];
  for (let i = from; i < from + SIZE; i++) {
    hits.push(
      JSON.stringify({
        _index: 'bench',
        _id: String(i),
        _score: null,
        _source: {
          n: i,
          name: `product number ${i}`,
          price: Math.round((i % 5000) * 0.37 * 100) / 100,
          tags: [TAGS[i % 5], TAGS[(i * 7) % 5]],
          address: { city: CITIES[i % 5], zip: 10000 + (i % 90000) }
        },
        sort: [i]
      })
    );
  }
  return Buffer.from(
    `{"pit_id":"p","took":3,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":${SIZE},"relation":"eq"},"max_score":null,"hits":[${hits.join(',')}]}}`
  );
}

const leaf = (type: string) => ({ kind: 'leaf' as const, type });
const tree: FieldTree = new Map<string, FieldNode>([
  ['n', leaf('long')],
  ['name', leaf('keyword')],
  ['price', leaf('float')],
  ['tags', leaf('keyword')],
  [
    'address',
    {
      kind: 'object' as const,
      type: 'object',
      children: new Map<string, FieldNode>([
        ['city', leaf('keyword')],
        ['zip', leaf('long')]
      ])
    }
  ]
]);

async function main(): Promise<void> {
  // The Elasticsearch driver's page, read as it reads one.
  const scratch = {
    ranges: new HitRanges(),
    output: (size: number) => Buffer.allocUnsafe(size)
  };
  const pageOfAnswer = (answer: Buffer) =>
    pageOf(readRawHits(answer, scratch) as RawHitsPage);
  const pages = [page(0), page(SIZE)];
  const stream = {
    total: undefined,
    leading: [
      {
        name: '_id',
        type: 'keyword',
        readOnly: true,
        json: false,
        origin: 'meta' as const
      },
      {
        name: '_index',
        type: 'keyword',
        readOnly: true,
        json: false,
        origin: 'meta' as const
      }
    ],
    tree,
    pages: () => {
      throw new Error('not read');
    },
    close: async () => undefined
  } satisfies ExportStream;
  for (const format of ['jsonl', 'csv', 'json'] as const) {
    const writer = pageWriter(format, stream, undefined);
    let bytes = 0;
    const started = process.cpuUsage();
    let firstMs = 0;
    for (let p = 0; p < PAGES; p++) {
      const out = writer.page(
        pageOfAnswer(pages[p % 2] as Buffer) as ExportPage
      );
      bytes += out.length;
      if (p === 0) {
        const first = process.cpuUsage(started);
        firstMs = (first.user + first.system) / 1000;
      }
    }
    const used = process.cpuUsage(started);
    const ms = (used.user + used.system) / 1000;
    // The first page also fixes a CSV file's columns; an export of 200,000 documents has 20 pages.
    console.log(
      `${format.padEnd(5)} ${((ms * 1000) / (PAGES * SIZE)).toFixed(2).padStart(6)} µs CPU a document, first page ${firstMs.toFixed(0)} ms, ${bytes} bytes; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`
    );
  }
}

void main();
