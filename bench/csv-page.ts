/**
 * The CSV writer alone, on pages shaped like the export benchmark's (Elasticsearch JSONL
 * lines of small products), timed against the JSONL writer on the same pages, so a change to
 * the CSV path can be measured in seconds without engines or a kernel.
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

const PAGES = Number(process.argv[2] ?? 40);
const SIZE = 10_000;
const TAGS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const CITIES = ['Lyon', 'Oslo', 'Lima', 'Pune', 'Kyoto'];

function page(from: number): Buffer {
  const lines: string[] = [];
  for (let i = from; i < from + SIZE; i++) {
    lines.push(
      JSON.stringify({
        _index: 'bench',
        _id: String(i),
        _source: {
          n: i,
          name: `product number ${i}`,
          price: Math.round((i % 5000) * 0.37 * 100) / 100,
          tags: [TAGS[i % 5], TAGS[(i * 7) % 5]],
          address: { city: CITIES[i % 5], zip: 10000 + (i % 90000) }
        }
      })
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
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
  // The Elasticsearch driver's page, built as it builds one.
  const pageOfJsonl = (jsonl: Buffer, count: number) =>
    pageOf({
      jsonl,
      count,
      pitId: undefined,
      lastSort: undefined,
      shardFailures: []
    });
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
    for (let p = 0; p < PAGES; p++) {
      const out = writer.page(
        pageOfJsonl(pages[p % 2] as Buffer, SIZE) as ExportPage
      );
      bytes += out.length;
    }
    const used = process.cpuUsage(started);
    const ms = (used.user + used.system) / 1000;
    console.log(
      `${format.padEnd(5)} ${((ms * 1000) / (PAGES * SIZE)).toFixed(2).padStart(6)} µs CPU a document, ${bytes} bytes; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`
    );
  }
}

void main();
