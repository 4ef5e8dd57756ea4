/**
 * Benchmark of the Elasticsearch stand-in over a real socket: bulk-load 1,000,000 small
 * documents, then read pages (from/size within the window; match_all, then text queries that
 * match (nearly) every document, each against the match_all rate), a filtered sorted page, and a
 * full point-in-time export with search_after. Garbage is collected between phases. Prints
 * documents per second; asserts nothing.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/sandbox-elasticsearch.js [docs]
 */
import { Agent, request } from 'undici';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen } from '@searchbook/sandbox/serve';
import { settleHeap } from './sandbox-settle';

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const BATCH = 10_000;
const PAGE = 10_000;

function rate(docs: number, ms: number): string {
  return `${docs.toLocaleString('en-US')} docs in ${ms.toFixed(0)} ms = ${Math.round((docs / ms) * 1000).toLocaleString('en-US')} docs/s`;
}

/** What this bench reads of the sandbox's answers (bulk, search, point in time). */
interface SandboxAnswer {
  errors: boolean;
  id: string;
  pit_id: string;
  hits: { hits: { sort: unknown[] }[] };
}

async function main(): Promise<void> {
  const sandbox = createElasticsearchSandbox({
    version: '8.15.0',
    security: true,
    password: 'bench'
  });
  const server = await listen(sandbox.handler, { port: 0 });
  const dispatcher = new Agent({ connections: 4 });
  const headers = {
    authorization: 'Basic ' + Buffer.from('elastic:bench').toString('base64'),
    'content-type': 'application/json'
  };
  const send = async (
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: string
  ): Promise<SandboxAnswer> => {
    const res = await request(server.url + path, {
      method,
      headers,
      dispatcher,
      ...(body !== undefined ? { body } : {})
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) {
      throw new Error(
        `${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`
      );
    }
    return JSON.parse(text) as SandboxAnswer;
  };

  await send(
    'PUT',
    '/bench',
    JSON.stringify({
      settings: { refresh_interval: '-1' },
      mappings: {
        properties: {
          n: { type: 'long' },
          title: { type: 'text' },
          tag: { type: 'keyword' }
        }
      }
    })
  );
  const tags = ['alpha', 'beta', 'gamma', 'delta'];
  let t0 = performance.now();
  for (let start = 0; start < TOTAL; start += BATCH) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(start + BATCH, TOTAL); i++) {
      lines.push(
        `{"index":{"_id":"${i}"}}`,
        `{"n":${i},"title":"document number ${i}","tag":"${tags[i % 4]}"}`
      );
    }
    const res = await send('POST', '/bench/_bulk', lines.join('\n') + '\n');
    if (res.errors) {
      throw new Error('bulk reported errors');
    }
  }
  const refreshStarted = performance.now();
  await send('POST', '/bench/_refresh');
  const loadMs = performance.now() - t0;
  console.log(
    `bulk load (HTTP, ${BATCH}/request):      ${rate(TOTAL, loadMs)}`
  );
  console.log(
    `  of which the refresh (token index):  ${(performance.now() - refreshStarted).toFixed(0)} ms`
  );
  console.log(
    `heap used after load:                ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MB`
  );

  settleHeap();
  t0 = performance.now();
  let read = 0;
  for (let from = 0; from + 1000 <= 10_000; from += 1000) {
    const res = await send(
      'POST',
      '/bench/_search',
      JSON.stringify({ from, size: 1000 })
    );
    read += res.hits.hits.length;
  }
  const matchAllMs = performance.now() - t0;
  console.log(`pages from/size 1,000 (match_all):   ${rate(read, matchAllMs)}`);

  // Every document holds "document": each page scores the whole index, as ES would.
  settleHeap();
  t0 = performance.now();
  let matched = 0;
  for (let from = 0; from + 1000 <= 5_000; from += 1000) {
    const res = await send(
      'POST',
      '/bench/_search',
      JSON.stringify({
        from,
        size: 1000,
        query: { match: { title: 'document' } }
      })
    );
    matched += res.hits.hits.length;
  }
  const matchMs = performance.now() - t0;
  console.log(
    `pages from/size 1,000 (match title): ${rate(matched, matchMs)} (${(matched / matchMs / (read / matchAllMs)).toFixed(3)} x match_all pages)`
  );

  // Other text queries over the whole index, 5 pages each: two terms, a phrase, query_string.
  const textQueries: [string, unknown][] = [
    [
      'match "document number", 2 terms',
      { match: { title: 'document number' } }
    ],
    [
      'match_phrase "document number"',
      { match_phrase: { title: 'document number' } }
    ],
    [
      'query_string "title:document AND n:>10"',
      { query_string: { query: 'title:document AND n:>10' } }
    ]
  ];
  for (const [label, query] of textQueries) {
    settleHeap();
    t0 = performance.now();
    let served = 0;
    for (let from = 0; from + 1000 <= 5_000; from += 1000) {
      const res = await send(
        'POST',
        '/bench/_search',
        JSON.stringify({ from, size: 1000, query })
      );
      served += res.hits.hits.length;
    }
    const ms = performance.now() - t0;
    console.log(
      `pages 1,000 (${label}): ${rate(served, ms)} (${(served / ms / (read / matchAllMs)).toFixed(3)} x match_all pages)`
    );
  }

  settleHeap();
  t0 = performance.now();
  const filtered = await send(
    'POST',
    '/bench/_search',
    JSON.stringify({
      size: 1000,
      query: { term: { tag: 'beta' } },
      sort: [{ n: 'desc' }]
    })
  );
  console.log(
    `filtered + sorted page over ${TOTAL.toLocaleString('en-US')}: ${filtered.hits.hits.length} hits in ${(performance.now() - t0).toFixed(0)} ms`
  );

  settleHeap();
  t0 = performance.now();
  const pit = await send('POST', '/bench/_pit?keep_alive=1m');
  let pitId = pit.id as string;
  let after: unknown[] | undefined;
  let exported = 0;
  for (let guard = 0; guard < TOTAL / PAGE + 2; guard++) {
    const res = await send(
      'POST',
      '/_search',
      JSON.stringify({
        size: PAGE,
        track_total_hits: false,
        pit: { id: pitId, keep_alive: '1m' },
        sort: [{ _shard_doc: 'asc' }],
        ...(after ? { search_after: after } : {})
      })
    );
    pitId = res.pit_id;
    const hits = res.hits.hits as { sort: unknown[] }[];
    if (hits.length === 0) {
      break;
    }
    exported += hits.length;
    after = hits[hits.length - 1]?.sort;
  }
  console.log(
    `PIT export (${PAGE}/page, _shard_doc):  ${rate(exported, performance.now() - t0)}`
  );

  settleHeap();
  t0 = performance.now();
  exported = 0;
  after = undefined;
  for (let guard = 0; guard < 30; guard++) {
    const res = await send(
      'POST',
      '/_search',
      JSON.stringify({
        size: PAGE,
        track_total_hits: false,
        pit: { id: pitId },
        query: { term: { tag: 'gamma' } },
        sort: [{ _shard_doc: 'asc' }],
        ...(after ? { search_after: after } : {})
      })
    );
    const hits = res.hits.hits as { sort: unknown[] }[];
    if (hits.length === 0) {
      break;
    }
    exported += hits.length;
    after = hits[hits.length - 1]?.sort;
  }
  console.log(
    `PIT filtered export (first 30 pages): ${rate(exported, performance.now() - t0)}`
  );

  await dispatcher.close();
  await server.close();
}

main().catch(err => {
  console.error(err);
  process.exitCode = 1;
});
