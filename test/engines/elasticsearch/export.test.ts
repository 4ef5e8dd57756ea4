/**
 * Whole-index export from Elasticsearch over HTTP, what is Elasticsearch's own, against the
 * sandbox and the real nodes alike: pages at the index's max_result_window under a point in
 * time, sources kept as stored, sliced = unsliced, an engine's refusal before any file, and
 * what an interrupt, an engine failing mid-way and a full disk leave. What every engine's
 * export does is in test/engines/contract.
 */
import { randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateProducts } from '@searchbook/sandbox/data/generate-products';
import type { Connection } from '../../../kernel/src/connections/open-connection';
import {
  ExportRefused,
  nodeFiles
} from '../../../kernel/src/export/export-file';
import { connect, request, SECRETS } from '../../drivers/helpers';
import {
  type BreakingProxy,
  startBreakingProxy
} from '../../support/breaking-proxy';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../../support/elasticsearch-targets';
import { answerFor } from '../../support/real-node-differences';
import {
  authHeaders,
  fetchFromNode
} from '../../support/real-elasticsearch/launch';
import { loadProducts } from '../../support/real-elasticsearch/products';
import {
  fullDiskAfter,
  parseCsv,
  partialsOf,
  run,
  scratchDir,
  stoppedBy
} from '../../export/export-helpers';

const COUNT = 2_500;
const WINDOW = 700;
const expected = [...generateProducts(COUNT)];

// Real Elasticsearch 9.5.3 and OpenSearch 2.19.1 too (real-node-differences.ts says where they answer unlike 8.19).
const TARGETS = elasticsearchTargets(undefined, { newest: true });

describeEachTarget(TARGETS, 'whole-index export', target => {
  // An index of this run's own, with a small window: a real node is shared by the run's suites.
  const INDEX = `export-products-${randomUUID().slice(0, 8)}`;
  const expectedLines = expected.map(d =>
    JSON.stringify({ _index: INDEX, _id: d.id, _source: d.source })
  );
  let engine: RunningEsTarget;
  let proxy: BreakingProxy;
  let es: Connection;
  const dir = scratchDir();

  beforeAll(async () => {
    engine = await target.start({ security: target.canSecure });
    const loaded = await loadProducts(
      {
        url: engine.url,
        ...(target.canSecure ? { password: SECRETS.ES_PASSWORD } : {})
      },
      COUNT,
      {
        index: INDEX,
        settings: {
          number_of_shards: 1,
          number_of_replicas: 0,
          max_result_window: WINDOW
        }
      }
    );
    expect(loaded).toBe(COUNT);
    proxy = await startBreakingProxy(engine.url);
    es = await connect(
      `elasticsearch ${proxy.url} ${target.canSecure ? 'user=elastic password=${env:ES_PASSWORD}' : 'auth=none'}`
    );
  }, REAL_START_TIMEOUT_MS);
  afterAll(async () => {
    if (es) {
      await es.driver.console.send(
        request('DELETE', `/${INDEX}`),
        new AbortController().signal
      );
    }
    await es?.driver.close();
    await proxy?.close();
    await engine?.close();
  });
  beforeEach(() => {
    proxy.rules.length = 0;
    proxy.seen.length = 0;
  });

  const lines = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(l => l !== '');
  const searches = () =>
    proxy.seen
      .filter(r => r.url === '/_search')
      .map(r => JSON.parse(r.body) as Record<string, unknown>);

  it('JSONL holds every document once as {"_index","_id","_source"}, byte for byte, read in pages of max_result_window under a point in time', async () => {
    const file = join(dir, 'all.jsonl');
    const progress: number[] = [];
    const summary = await run(
      es.driver,
      { target: INDEX, file },
      { onProgress: p => progress.push(p.documents) }
    );
    expect(lines(file).sort()).toEqual([...expectedLines].sort());
    const bytes = expectedLines.reduce(
      (n, l) => n + Buffer.byteLength(l) + 1,
      0
    );
    expect(statSync(file).size).toBe(bytes);
    expect(summary).toMatchObject({ documents: COUNT, total: COUNT, bytes });
    expect(partialsOf(dir, 'all.jsonl')).toEqual([]);
    // Not capped at the window: four pages of 700 and an end, each after the previous one's last sort values.
    const pages = searches();
    expect(pages.map(p => p.size)).toEqual(pages.map(() => WINDOW));
    expect(pages[0]).toMatchObject({
      pit: { keep_alive: '5m' },
      sort: answerFor(target, 'opensearch-point-in-time-api', {
        asEight: [{ _shard_doc: 'asc' }],
        otherwise: [{ _index: 'asc' }, { _id: 'asc' }]
      })
    });
    expect(pages[0]?.search_after).toBeUndefined();
    expect(pages.slice(1).every(p => Array.isArray(p.search_after))).toBe(true);
    expect(progress.at(-1)).toBe(COUNT);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // The point in time is released.
    const closePath = answerFor(target, 'opensearch-point-in-time-api', {
      asEight: '/_pit',
      otherwise: '/_search/point_in_time'
    });
    expect(
      proxy.seen.some(r => r.method === 'DELETE' && r.url === closePath)
    ).toBe(true);
  });

  it('asks for the next page before this one is read and written, so the engine searches meanwhile', async () => {
    // In the order they happen in the kernel: a search's headers going out on the socket, a page written.
    const events: string[] = [];
    const sent = (message: unknown) => {
      if (
        (message as { request: { path: string } }).request.path === '/_search'
      ) {
        events.push('search');
      }
    };
    subscribe('undici:client:sendHeaders', sent);
    try {
      await run(
        es.driver,
        { target: INDEX, file: join(dir, 'ahead.jsonl') },
        {
          files: {
            create: async path => {
              const real = await nodeFiles.create(path);
              return {
                ...real,
                write: data => {
                  events.push('write');
                  return real.write(data);
                }
              };
            }
          }
        }
      );
    } finally {
      unsubscribe('undici:client:sendHeaders', sent);
    }
    // Pages of 700, 700, 700 and 400: the search after each is out before the page is written.
    expect(events).toEqual([
      'search',
      ...['search', 'write'],
      ...['search', 'write'],
      ...['search', 'write'],
      ...['search', 'write']
    ]);
  });

  it('JSONL keeps each source as the engine holds it: a long past 2^53 digit for digit, escapes and brackets inside strings; a pretty-printed source on one line', async () => {
    const node = {
      url: engine.url,
      ...(target.canSecure ? { password: SECRETS.ES_PASSWORD } : {})
    };
    const raw = `${INDEX}-raw`;
    const put = async (id: string, text: string) => {
      const answer = await fetchFromNode(
        node,
        `/${raw}/_doc/${id}?refresh=true`,
        {
          method: 'PUT',
          headers: { ...authHeaders(node), 'content-type': 'application/json' },
          body: text
        }
      );
      expect(answer.status).toBe(201);
    };
    const exact =
      '{"big":9007199254740993,"note":"a {brace} [x] \\"quoted\\" back\\\\slash é","list":[{"a":"}"},[]]}';
    await put('exact', exact);
    await put('spread', '{\n  "name": "spread",\n  "n": [1, 2]\n}');
    try {
      const file = join(dir, 'raw.jsonl');
      await run(es.driver, { target: raw, file });
      const byId = new Map(
        lines(file).map(l => [(JSON.parse(l) as { _id: string })._id, l])
      );
      expect(byId.size).toBe(2);
      expect(byId.get('exact')).toBe(
        `{"_index":"${raw}","_id":"exact","_source":${exact}}`
      );
      expect(JSON.parse(byId.get('spread') as string)).toEqual({
        _index: raw,
        _id: 'spread',
        _source: { name: 'spread', n: [1, 2] }
      });
    } finally {
      await es.driver.console.send(
        request('DELETE', `/${raw}`),
        new AbortController().signal
      );
    }
  });

  it('slices=3 reads three sliced cursors and writes the same documents as one cursor', async () => {
    const file = join(dir, 'sliced.jsonl');
    await run(es.driver, { target: INDEX, file, slices: 3 });
    expect(lines(file).sort()).toEqual([...expectedLines].sort());
    const slices = searches().map(
      p => (p.slice as { id: number; max: number } | undefined)?.id
    );
    expect(new Set(slices)).toEqual(new Set([0, 1, 2]));
  });

  it('without slices=, a target of several shards is read by one sliced cursor a shard, the same documents', async () => {
    const node = {
      url: engine.url,
      ...(target.canSecure ? { password: SECRETS.ES_PASSWORD } : {})
    };
    const sharded = `${INDEX}-sharded`;
    await loadProducts(node, 300, {
      index: sharded,
      settings: { number_of_shards: 3, number_of_replicas: 0 }
    });
    try {
      // As many cursors as the engine says the index has primary shards (the sandbox keeps one).
      const settings = (await (
        await fetchFromNode(node, `/${sharded}/_settings?flat_settings=true`, {
          headers: authHeaders(node)
        })
      ).json()) as Record<string, { settings: Record<string, string> }>;
      const shards = Number(
        settings[sharded]?.settings['index.number_of_shards']
      );
      const file = join(dir, 'sharded.jsonl');
      await run(es.driver, { target: sharded, file });
      expect(lines(file).sort()).toEqual(
        expected
          .slice(0, 300)
          .map(d =>
            JSON.stringify({ _index: sharded, _id: d.id, _source: d.source })
          )
          .sort()
      );
      const slices = new Set(
        searches().map(
          p => (p.slice as { id: number; max: number } | undefined)?.id
        )
      );
      expect(slices).toEqual(
        shards > 1
          ? new Set(Array.from({ length: shards }, (_, i) => i))
          : new Set([undefined])
      );
      if (target.engine === 'real') {
        expect(shards).toBe(3);
      }
    } finally {
      await es.driver.console.send(
        request('DELETE', `/${sharded}`),
        new AbortController().signal
      );
    }
  });

  it('CSV follows the grid columns with a header line; arrays and objects as JSON, RFC 4180 quoting', async () => {
    const file = join(dir, 'all.csv');
    await run(es.driver, { target: INDEX, file, format: 'csv' });
    const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
    // Mapping properties come sorted by name, from the sandbox as from Elasticsearch.
    expect(header?.slice(0, 3)).toEqual(['_id', '_index', 'address.city']);
    expect(header).toEqual(
      expect.arrayContaining([
        'address.city',
        'variants',
        'variants.sku',
        'tags',
        'price'
      ])
    );
    expect(rows).toHaveLength(COUNT);
    const col = (name: string) => (header as string[]).indexOf(name);
    const byId = new Map(rows.map(r => [r[col('_id')], r]));
    for (const doc of expected) {
      const row = byId.get(doc.id) as string[];
      expect(row[col('name')]).toBe(doc.source.name);
      expect(row[col('tags')]).toBe(
        doc.source.tags === undefined ? '' : JSON.stringify(doc.source.tags)
      );
      expect(row[col('variants')]).toBe(
        doc.source.variants === undefined
          ? ''
          : JSON.stringify(doc.source.variants)
      );
      expect(row[col('price')]).toBe(
        doc.source.price === undefined ? '' : String(doc.source.price)
      );
    }
  });

  it('a missing index or a query the engine refuses fails before any file is opened, with the engine reason', async () => {
    const product = answerFor(target, 'opensearch-names-itself', {
      asEight: 'Elasticsearch',
      otherwise: 'OpenSearch'
    });
    const missing = join(dir, 'missing.jsonl');
    await expect(
      run(es.driver, { target: 'no-such-index', file: missing })
    ).rejects.toThrow(
      new RegExp(
        `${product} answered 404: index_not_found_exception: no such index \\[no-such-index\\]`
      )
    );
    const bad = join(dir, 'bad.jsonl');
    await expect(
      run(es.driver, { target: INDEX, file: bad, body: { no_such_query: {} } })
    ).rejects.toThrow(`${product} answered 400`);
    for (const file of [missing, bad]) {
      expect(existsSync(file)).toBe(false);
    }
    expect([
      ...partialsOf(dir, 'missing.jsonl'),
      ...partialsOf(dir, 'bad.jsonl')
    ]).toEqual([]);
    // No point in time is opened: /_pit on Elasticsearch, /_search/point_in_time on OpenSearch.
    expect(proxy.seen.some(r => /_pit|point_in_time/.test(r.url))).toBe(false);
  });

  it('an existing file is not replaced without overwrite, and is with it', async () => {
    const file = join(dir, 'kept.jsonl');
    writeFileSync(file, 'mine\n');
    await expect(
      run(es.driver, { target: INDEX, file })
    ).rejects.toBeInstanceOf(ExportRefused);
    expect(readFileSync(file, 'utf8')).toBe('mine\n');
    expect(proxy.seen).toHaveLength(0);
    await run(es.driver, { target: INDEX, file, overwrite: true });
    expect(lines(file)).toHaveLength(COUNT);
    proxy.seen.length = 0;
    await expect(
      run(es.driver, {
        target: INDEX,
        file: join(dir, 'no-such-folder', 'x.jsonl')
      })
    ).rejects.toThrow(/no-such-folder does not exist, so nothing was exported/);
    expect(proxy.seen).toHaveLength(0);
  });

  it('an interrupt stops the export, says how far it got and leaves only the .partial file', async () => {
    const file = join(dir, 'interrupted.jsonl');
    proxy.rules.push({
      matches: (_m, url) => url === '/_search',
      delayMs: 100
    });
    const controller = new AbortController();
    const stopped = await stoppedBy(
      run(
        es.driver,
        { target: INDEX, file },
        {
          signal: controller.signal,
          onProgress: p => p.documents >= WINDOW && controller.abort()
        }
      )
    );
    expect(stopped.stop).toBe('interrupted');
    expect(stopped.progress).toMatchObject({ documents: WINDOW, total: COUNT });
    expect(existsSync(file)).toBe(false);
    expect(partialsOf(dir, 'interrupted.jsonl')).toEqual([stopped.partial]);
    expect(lines(stopped.partial)).toHaveLength(WINDOW);
    const closePath = answerFor(target, 'opensearch-point-in-time-api', {
      asEight: '/_pit',
      otherwise: '/_search/point_in_time'
    });
    expect(
      proxy.seen.some(r => r.method === 'DELETE' && r.url === closePath)
    ).toBe(true);
  });

  it('the engine failing mid-way stops the export with the pages written so far in .partial', async () => {
    const file = join(dir, 'broken.jsonl');
    proxy.rules.push({
      matches: (_m, url) => url === '/_search' && searches().length === 3,
      breakAfterBytes: 5_000
    });
    const stopped = await stoppedBy(run(es.driver, { target: INDEX, file }));
    expect(stopped.stop).toBe('engine');
    expect(stopped.ename).toBe('Connection failed');
    expect(stopped.progress.documents).toBe(2 * WINDOW);
    expect(existsSync(file)).toBe(false);
    expect(partialsOf(dir, 'broken.jsonl')).toEqual([stopped.partial]);
    expect(lines(stopped.partial)).toHaveLength(2 * WINDOW);
  });

  it('a full disk stops the export, removes the .partial file and says why', async () => {
    const file = join(dir, 'full.jsonl');
    const stopped = await stoppedBy(
      run(es.driver, { target: INDEX, file }, { files: fullDiskAfter(300_000) })
    );
    expect(stopped.stop).toBe('write');
    expect(stopped.reason).toMatch(/ENOSPC/);
    expect(stopped.progress.documents).toBeLessThan(COUNT);
    expect(existsSync(file)).toBe(false);
    expect(partialsOf(dir, 'full.jsonl')).toEqual([]);
  });
});
