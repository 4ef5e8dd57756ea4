/**
 * Typesense sandbox throughput, so that benchmarks of the client measure the client:
 * loading, import over HTTP, search pages (plain, filtered, multi_search) and the streamed
 * export, each in documents per second (garbage collected between phases). Prints figures;
 * asserts nothing.
 *   node dist/bench/sandbox-typesense.js [documents=1000000] [version=29.0]
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { listen } from '@searchbook/sandbox/serve';
import { settleHeap } from './sandbox-settle';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';

const COUNT = Number(process.argv[2] ?? 1_000_000);
const VERSION = process.argv[3] ?? '29.0';
const KEY = 'bench-key';
const headers = { 'x-typesense-api-key': KEY };

function* smallDocs(
  count: number,
  from = 0
): Generator<Record<string, unknown>> {
  for (let i = from; i < from + count; i++) {
    yield { n: i, s: `item ${i % 1000} name ${i}`, b: i % 2 === 0 };
  }
}

function report(label: string, docs: number, ms: number, extra = ''): void {
  const rate = Math.round((docs / ms) * 1000);
  console.log(
    `${label.padEnd(44)} ${String(docs).padStart(9)} docs ${ms.toFixed(0).padStart(7)} ms ${String(rate).padStart(10)} docs/s ${extra}`
  );
}

async function main(): Promise<void> {
  const sandbox = createTypesenseSandbox({ version: VERSION, apiKey: KEY });
  const server = await listen(sandbox.handler, { port: 0 });
  const pool = new Pool(server.url, { connections: 4 });
  const get = async (path: string): Promise<string> => {
    const res = await pool.request({ method: 'GET', path, headers });
    const text = await res.body.text();
    if (res.statusCode !== 200) {
      throw new Error(`${path}: ${res.statusCode} ${text}`);
    }
    return text;
  };
  const post = async (path: string, body: string): Promise<string> => {
    const res = await pool.request({ method: 'POST', path, headers, body });
    const text = await res.body.text();
    if (res.statusCode >= 300) {
      throw new Error(`${path}: ${res.statusCode} ${text}`);
    }
    return text;
  };

  try {
    console.log(
      `Typesense sandbox ${VERSION}, ${COUNT} small documents, node ${process.version}`
    );
    const fields = [
      { name: 'n', type: 'int32' },
      { name: 's', type: 'string' },
      { name: 'b', type: 'bool' }
    ];
    sandbox.createCollection({ name: 'bench', fields });

    let t0 = performance.now();
    const loaded = sandbox.loadDocuments('bench', smallDocs(COUNT));
    report(
      'load in process (loadDocuments)',
      loaded.loaded,
      performance.now() - t0
    );
    console.log(
      `heap used after load ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`
    );

    await post('/collections', JSON.stringify({ name: 'imported', fields }));
    const importCount = Math.min(COUNT, 200_000);
    settleHeap();
    t0 = performance.now();
    for (let from = 0; from < importCount; from += 10_000) {
      const lines: string[] = [];
      for (const d of smallDocs(Math.min(10_000, importCount - from), from)) {
        lines.push(JSON.stringify(d));
      }
      await post('/collections/imported/documents/import', lines.join('\n'));
    }
    report(
      'import over HTTP (10,000-line bodies)',
      importCount,
      performance.now() - t0
    );

    const pages = 200;
    settleHeap();
    t0 = performance.now();
    let served = 0;
    for (let p = 1; p <= pages; p++) {
      const body = JSON.parse(
        await get(
          `/collections/bench/documents/search?q=*&per_page=250&page=${p}`
        )
      ) as { hits: unknown[] };
      served += body.hits.length;
    }
    const wildcardRate = served / (performance.now() - t0);
    report('search pages q=* (250 per page)', served, performance.now() - t0);

    settleHeap();
    t0 = performance.now();
    served = 0;
    const filter = encodeURIComponent('b:true && n:>=1000');
    for (let p = 1; p <= pages; p++) {
      const body = JSON.parse(
        await get(
          `/collections/bench/documents/search?q=*&per_page=250&page=${p}&filter_by=${filter}&sort_by=n:asc`
        )
      ) as { hits: unknown[] };
      served += body.hits.length;
    }
    report(
      'search pages filtered+sorted (first scans)',
      served,
      performance.now() - t0
    );

    settleHeap();
    t0 = performance.now();
    served = 0;
    const batches = 10;
    for (let b = 0; b < batches; b++) {
      const searches = Array.from({ length: 50 }, (_, i) => ({
        collection: 'bench',
        q: '*',
        per_page: 250,
        page: b * 50 + i + 1
      }));
      const body = JSON.parse(
        await post('/multi_search', JSON.stringify({ searches }))
      ) as { results: { hits: unknown[] }[] };
      for (const r of body.results) {
        served += r.hits.length;
      }
    }
    report(
      'multi_search (50 x 250 per request)',
      served,
      performance.now() - t0
    );

    settleHeap();
    t0 = performance.now();
    served = 0;
    const q = encodeURIComponent('name 12');
    for (let p = 1; p <= 20; p++) {
      const body = JSON.parse(
        await get(
          `/collections/bench/documents/search?q=${q}&query_by=s&per_page=250&page=${p}`
        )
      ) as {
        hits: unknown[];
      };
      served += body.hits.length;
    }
    const keywordMs = performance.now() - t0;
    report(
      'keyword search pages (token index)',
      served,
      keywordMs,
      `(${(served / keywordMs / wildcardRate).toFixed(2)} x q=* pages)`
    );

    settleHeap();
    t0 = performance.now();
    const res = await pool.request({
      method: 'GET',
      path: '/collections/bench/documents/export',
      headers
    });
    let lines = 0;
    let bytes = 0;
    let chunks = 0;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      chunks++;
      bytes += buf.length;
      for (let i = 0; i < buf.length; i++) {
        if (buf[i] === 10) {
          lines++;
        }
      }
    }
    const exported = bytes > 0 ? lines + 1 : 0;
    report(
      'export stream',
      exported,
      performance.now() - t0,
      `(${chunks} chunks, ${(bytes / 1e6).toFixed(1)} MB)`
    );
    console.log(
      `heap used ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`
    );
  } finally {
    await pool.close();
    await server.close();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
