/**
 * The engines the export benchmark reads, in a process of their own so that the engines'
 * work never shares an event loop with the exporters being timed. Prints one JSON line with
 * the URLs once loaded. Documents are small products: numbers, text, a keyword array, an object.
 *   node dist/bench/export-sandbox.js <docs> [--elasticsearch-only]
 */
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import type { JsonObject } from '@searchbook/sandbox/elasticsearch/json-value';
import { listen } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import { settleHeap } from './sandbox-settle';

const TOTAL = Number(process.argv[2] ?? 200_000);
const TS_TOTAL = Number(process.argv[3] ?? 30_000);
const TAGS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const CITIES = ['Lyon', 'Oslo', 'Lima', 'Pune', 'Kyoto'];

function* products(
  count: number
): Generator<{ id: string; source: JsonObject }> {
  for (let i = 0; i < count; i++) {
    yield {
      id: String(i),
      source: {
        n: i,
        name: `product number ${i}`,
        price: Math.round((i % 5000) * 0.37 * 100) / 100,
        tags: [TAGS[i % 5] as string, TAGS[(i * 7) % 5] as string],
        address: { city: CITIES[i % 5] as string, zip: 10000 + (i % 90000) }
      }
    };
  }
}

async function main(): Promise<void> {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: true,
    password: 'bench'
  });
  const mappings = {
    properties: {
      n: { type: 'long' },
      name: { type: 'keyword' },
      price: { type: 'float' },
      tags: { type: 'keyword' },
      address: {
        properties: { city: { type: 'keyword' }, zip: { type: 'long' } }
      }
    }
  };
  es.loadIndex('bench', mappings, products(TOTAL));
  const ts = createTypesenseSandbox({ version: '29.0', apiKey: 'bench' });
  ts.createCollection({
    name: 'bench',
    fields: [
      { name: 'n', type: 'int64' },
      { name: 'name', type: 'string' },
      { name: 'price', type: 'float' },
      { name: 'tags', type: 'string[]' }
    ]
  });
  const docs = (function* () {
    for (const p of products(TS_TOTAL)) {
      yield {
        id: p.id,
        n: p.source.n,
        name: p.source.name,
        price: p.source.price,
        tags: p.source.tags
      };
    }
  })();
  ts.loadDocuments('bench', docs);
  const [esServer, tsServer] = await Promise.all([
    listen(es.handler, { port: 0 }),
    listen(ts.handler, { port: 0 })
  ]);
  // SIGUSR2 from the benchmark: collect the engines' large heap between timed runs, so that no
  // contender pays for a full collection the previous one left due.
  process.on('SIGUSR2', () => {
    settleHeap();
    process.stdout.write('settled\n');
  });
  // Ended by the benchmark: exit as a process does, so that --cpu-prof writes its profile.
  process.on('SIGTERM', () => process.exit(0));
  process.stdout.write(
    `${JSON.stringify({ es: esServer.url, ts: tsServer.url })}\n`
  );
}

void main();
