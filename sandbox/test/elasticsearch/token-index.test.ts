/**
 * The text-field token index and the ranked cache follow every write the way search
 * visibility does: nothing before a refresh, everything after it; points in time keep
 * their old view; mapping changes and the index's start-over are seen.
 */
import { executeSearch } from '../../src/elasticsearch/search/execute';
import { stringifyJson } from '../../src/elasticsearch/long-json';
import { RankedCache } from '../../src/elasticsearch/search/ranked-cache';
import {
  MatchesBuilder,
  NO_MATCH
} from '../../src/elasticsearch/search/scorer';
import { FULL_SOURCE } from '../../src/elasticsearch/source-filter';
import { ClusterState } from '../../src/elasticsearch/state';
import { parseVersion } from '../../src/elasticsearch/version';
import { call, ndjson, start, type Running } from './helpers';

let es: Running;
beforeAll(async () => {
  es = await start();
});
afterAll(async () => es.close());

const ids = (res: { body: { hits: { hits: { _id: string }[] } } }): string[] =>
  res.body.hits.hits.map(h => h._id);
const find = (
  index: string,
  query: unknown,
  extra: object = {}
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the engine's JSON answer freely; every value it reads is asserted
): Promise<any> => call(es, 'POST', `/${index}/_search`, { query, ...extra });

it('index, update and delete reach match queries at refresh, not before', async () => {
  await call(es, 'PUT', '/vis-text', {
    settings: { refresh_interval: '-1' },
    mappings: { properties: { title: { type: 'text' } } }
  });
  await call(es, 'PUT', '/vis-text/_doc/1', { title: 'red widget' });
  expect(ids(await find('vis-text', { match: { title: 'red' } }))).toEqual([]);
  await call(es, 'POST', '/vis-text/_refresh');
  expect(ids(await find('vis-text', { match: { title: 'red' } }))).toEqual([
    '1'
  ]);

  await call(es, 'POST', '/vis-text/_update/1', {
    doc: { title: 'blue gadget' }
  });
  // Until the refresh, search sees the old version (and the ranked cache must not hide the change after).
  expect(ids(await find('vis-text', { match: { title: 'red' } }))).toEqual([
    '1'
  ]);
  expect(ids(await find('vis-text', { match: { title: 'blue' } }))).toEqual([]);
  await call(es, 'POST', '/vis-text/_refresh');
  expect(ids(await find('vis-text', { match: { title: 'red' } }))).toEqual([]);
  expect(ids(await find('vis-text', { match: { title: 'blue' } }))).toEqual([
    '1'
  ]);

  await call(es, 'DELETE', '/vis-text/_doc/1?refresh=false');
  expect(
    ids(await find('vis-text', { match_phrase: { title: 'blue gadget' } }))
  ).toEqual(['1']);
  await call(es, 'DELETE', '/vis-text/_doc/missing?refresh=true');
  expect(
    ids(await find('vis-text', { match_phrase: { title: 'blue gadget' } }))
  ).toEqual([]);
});

it('bulk index/update/delete with refresh=true and refresh=false', async () => {
  await call(es, 'PUT', '/bulk-text', { settings: { refresh_interval: '-1' } });
  await call(
    es,
    'POST',
    '/bulk-text/_bulk?refresh=true',
    ndjson([
      { index: { _id: 'a' } },
      { title: 'widget one' },
      { index: { _id: 'b' } },
      { title: 'widget widget two' },
      { index: { _id: 'c' } },
      { title: ['gadget', 'widget three'] }
    ])
  );
  const before = await find('bulk-text', { match: { title: 'widget' } });
  expect(ids(before)).toEqual(['b', 'a', 'c']);
  await call(
    es,
    'POST',
    '/bulk-text/_bulk',
    ndjson([
      { delete: { _id: 'b' } },
      { update: { _id: 'a' } },
      { doc: { title: 'gadget one' } },
      { index: { _id: 'd' } },
      { title: 'a widget' }
    ])
  );
  expect(ids(await find('bulk-text', { match: { title: 'widget' } }))).toEqual([
    'b',
    'a',
    'c'
  ]);
  await call(
    es,
    'POST',
    '/bulk-text/_bulk?refresh=true',
    ndjson([{ index: { _id: 'e' } }, { title: 'no match here' }])
  );
  const after = await find('bulk-text', { match: { title: 'widget' } });
  expect(ids(after).sort()).toEqual(['c', 'd']);
  expect(
    ids(
      await find('bulk-text', {
        match: { title: { query: 'gadget one', operator: 'and' } }
      })
    )
  ).toEqual(['a']);
  // The dynamic text field's keyword subfield and term-on-text read the same index.
  expect(
    ids(await find('bulk-text', { term: { title: 'gadget' } })).sort()
  ).toEqual(['a', 'c']);
  expect(
    (
      await call(es, 'POST', '/bulk-text/_count', {
        query: { match: { title: 'widget' } }
      })
    ).body.count
  ).toBe(2);
});

it('a phrase counts within one value of a multi-valued field, never across two', async () => {
  await call(es, 'PUT', '/phrase-text', {
    mappings: { properties: { title: { type: 'text' } } }
  });
  await call(
    es,
    'POST',
    '/phrase-text/_bulk?refresh=true',
    ndjson([
      { index: { _id: 'split' } },
      { title: ['red', 'widget'] },
      { index: { _id: 'whole' } },
      { title: ['blue', 'red widget red widget red widget'] },
      { index: { _id: 'one' } },
      { title: 'red widget' }
    ])
  );
  const res = await find('phrase-text', {
    match_phrase: { title: 'red widget' }
  });
  // Three occurrences (in a 7-token field: values count together) outscore one in a 2-token field under BM25.
  expect(ids(res)).toEqual(['whole', 'one']);
  expect(res.body.hits.hits[0]._score).toBeGreaterThan(
    res.body.hits.hits[1]._score
  );
});

it('a point in time keeps scoring its own snapshot after updates and refreshes', async () => {
  await call(es, 'PUT', '/pit-text', { settings: { refresh_interval: '-1' } });
  await call(
    es,
    'POST',
    '/pit-text/_bulk?refresh=true',
    ndjson([
      { index: { _id: '1' } },
      { title: 'red red widget' },
      { index: { _id: '2' } },
      { title: 'red gadget' }
    ])
  );
  const pit = (await call(es, 'POST', '/pit-text/_pit?keep_alive=1m')).body
    .id as string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the engine's JSON answer freely; every value it reads is asserted
  const pitSearch = (query: unknown): Promise<any> =>
    call(es, 'POST', '/_search', { pit: { id: pit }, query });
  const first = await pitSearch({ match: { title: 'red' } });
  await call(
    es,
    'POST',
    '/pit-text/_bulk?refresh=true',
    ndjson([
      { index: { _id: '1' } },
      { title: 'blue' },
      { delete: { _id: '2' } },
      { index: { _id: '3' } },
      { title: 'red' }
    ])
  );
  const again = await pitSearch({ match: { title: 'red' } });
  expect(
    again.body.hits.hits.map((h: { _id: string; _score: number }) => [
      h._id,
      h._score
    ])
  ).toEqual(
    first.body.hits.hits.map((h: { _id: string; _score: number }) => [
      h._id,
      h._score
    ])
  );
  expect(ids(again)).toEqual(['1', '2']);
  expect(ids(await find('pit-text', { match: { title: 'red' } }))).toEqual([
    '3'
  ]);
  await call(es, 'DELETE', '/_pit', { id: pit });
});

it('pages with from/size and search_after are slices of the one ranking, and a refresh re-ranks', async () => {
  await call(es, 'PUT', '/pages-text', {
    settings: { refresh_interval: '-1' }
  });
  const lines: unknown[] = [];
  for (let i = 0; i < 60; i++) {
    lines.push(
      { index: { _id: String(i) } },
      { title: `item ${'word '.repeat(i % 7)}${i % 3 === 0 ? 'word' : ''}` }
    );
  }
  await call(es, 'POST', '/pages-text/_bulk?refresh=true', ndjson(lines));
  const q = { match: { title: 'word' } };
  const all = await find('pages-text', q, { size: 100 });
  const allIds = ids(all);
  expect(allIds.length).toBeGreaterThan(40);
  const paged: string[] = [];
  for (let from = 0; from < allIds.length; from += 7) {
    paged.push(...ids(await find('pages-text', q, { from, size: 7 })));
  }
  expect(paged).toEqual(allIds);
  const afterPaged: string[] = [];
  let after: unknown[] | undefined;
  for (let guard = 0; guard < 20; guard++) {
    const res = await find('pages-text', q, {
      size: 9,
      sort: [{ _score: 'desc' }, { _doc: 'asc' }],
      ...(after ? { search_after: after } : {})
    });
    const hits = res.body.hits.hits as { _id: string; sort: unknown[] }[];
    if (hits.length === 0) {
      break;
    }
    afterPaged.push(...hits.map(h => h._id));
    after = hits[hits.length - 1]?.sort;
  }
  expect(afterPaged).toEqual(allIds);

  await call(es, 'PUT', '/pages-text/_doc/top?refresh=true', {
    title: 'word word word word word word word word'
  });
  expect(ids(await find('pages-text', q, { size: 1 }))).toEqual(['top']);
});

it('a mapping change is seen by the next search even without a refresh', async () => {
  await call(es, 'PUT', '/map-text', {
    settings: { refresh_interval: '-1' },
    mappings: { dynamic: false, properties: { title: { type: 'text' } } }
  });
  await call(es, 'PUT', '/map-text/_doc/1?refresh=true', {
    title: 'red',
    note: 'hidden words'
  });
  expect(ids(await find('map-text', { match: { note: 'hidden' } }))).toEqual(
    []
  );
  await call(es, 'PUT', '/map-text/_mapping', {
    properties: { note: { type: 'text' } }
  });
  // The sandbox reads _source, so the newly mapped field answers at once (from _source, unindexed until a refresh).
  expect(ids(await find('map-text', { match: { note: 'hidden' } }))).toEqual([
    '1'
  ]);
  await call(es, 'POST', '/map-text/_refresh');
  await call(es, 'PUT', '/map-text/_doc/2?refresh=true', {
    title: 'blue',
    note: 'more hidden'
  });
  expect(ids(await find('map-text', { match: { note: 'hidden' } }))).toEqual([
    '1',
    '2'
  ]);
});

it('after many deleted documents the index starts over, and older snapshots still answer', () => {
  const version = parseVersion('8.15.0');
  const state = new ClusterState(version);
  const index = state.createIndex(
    'churn',
    { properties: { title: { type: 'text' } } },
    { refresh_interval: '-1' }
  );
  for (let i = 0; i < 20_000; i++) {
    index.put(String(i), { title: `red ${i}` });
  }
  index.refresh();
  const old = index.searchable();
  // 16,000 dead entries against 4,000 live ones: past the start-over threshold.
  for (let i = 0; i < 16_000; i++) {
    index.remove(String(i));
  }
  index.put('19999', { title: 'blue' });
  index.refresh();
  const search = (docs: typeof old, text: string): string[] => {
    const req = {
      query: { match: { title: text } },
      postFilter: undefined,
      from: 0,
      size: 5,
      sort: [],
      trackTotalHits: true,
      totalAsInt: false,
      source: FULL_SOURCE,
      version: false,
      seqNoPrimaryTerm: false
    };
    const { body } = executeSearch([{ index, docs }], req, version, {
      tookFrom: Date.now(),
      cache: new RankedCache()
    });
    // As a client reads the answer.
    const hits = JSON.parse(stringifyJson(body['hits'])) as {
      hits: { _id: string }[];
    };
    return hits.hits.map(h => h._id);
  };
  expect(search(index.searchable(), '5')).toEqual([]);
  expect(search(index.searchable(), '16000')).toEqual(['16000']);
  expect(search(index.searchable(), 'red')).toEqual([
    '16000',
    '16001',
    '16002',
    '16003',
    '16004'
  ]);
  expect(search(index.searchable(), 'blue')).toEqual(['19999']);
  expect(search(old, '5')).toEqual(['5']);
  expect(search(old, '19999')).toEqual(['19999']);
  expect(search(old, 'blue')).toEqual([]);
  index.put('late', { title: 'red late' });
  index.refresh();
  expect(search(index.searchable(), 'late')).toEqual(['late']);
});

it('the ranked cache keeps at most its number of searches and of hits, least recently used out first', () => {
  const cache = new RankedCache(2, 10);
  const ranked = (length: number) => ({
    shard: null,
    pos: new Int32Array(length),
    score: new Float64Array(length),
    length,
    kinds: [],
    columns: [],
    types: null,
    bases: [0],
    maxScore: null
  });
  cache.set('a', ranked(4));
  cache.set('b', ranked(4));
  expect(cache.get('a')).toBeDefined();
  cache.set('c', ranked(4));
  expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual(
    [true, false, true]
  );
  cache.set('d', ranked(7));
  expect([cache.get('a'), cache.get('c'), cache.get('d')].map(Boolean)).toEqual(
    [false, false, true]
  );
  cache.set('huge', ranked(11));
  expect(cache.get('huge')).toBeUndefined();
});

it('match lists keep scores in 32 bits until one needs 64, and then lose none', () => {
  const out = new MatchesBuilder(1);
  out.push(0, 1.5);
  out.push(1, NO_MATCH);
  out.push(2, 0.1);
  out.push(3, Math.fround(0.1));
  const m = out.build();
  expect(Array.from(m.positions)).toEqual([0, 2, 3]);
  expect(Array.from(m.scores)).toEqual([1.5, 0.1, Math.fround(0.1)]);
  const narrow = new MatchesBuilder(2);
  narrow.push(5, Math.fround(2.2));
  expect(narrow.build().scores).toBeInstanceOf(Float32Array);
});
