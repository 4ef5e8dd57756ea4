/** The query DSL, sorting, _source filtering and aggregations on the products sample. */
import {
  generateProducts,
  PRODUCTS_MAPPING
} from '../../src/data/generate-products';
import { call, ndjson, start, type Running } from './helpers';

let es: Running;
const ids = (res: { body: { hits: { hits: { _id: string }[] } } }): string[] =>
  res.body.hits.hits.map(h => h._id);

beforeAll(async () => {
  es = await start({ tls: true });
  es.sandbox.loadIndex('products', PRODUCTS_MAPPING, generateProducts(2000));
  await call(es, 'PUT', '/shop', {
    mappings: {
      properties: {
        title: {
          type: 'text',
          fields: { keyword: { type: 'keyword', ignore_above: 256 } }
        },
        price: { type: 'float' },
        stock: { type: 'long' },
        tags: { type: 'keyword' },
        variants: { type: 'nested' }
      }
    }
  });
  await call(
    es,
    'POST',
    '/shop/_bulk?refresh=true',
    ndjson([
      { index: { _id: 'a' } },
      {
        title: 'Red Widget',
        price: 5,
        stock: 1,
        tags: ['sale'],
        variants: [
          { color: 'red', size: 1 },
          { color: 'blue', size: 2 }
        ]
      },
      { index: { _id: 'b' } },
      {
        title: 'Blue Widget deluxe',
        price: 15,
        stock: 0,
        tags: ['new'],
        variants: [{ color: 'blue', size: 1 }]
      },
      { index: { _id: 'c' } },
      { title: 'Green Gadget', price: 25, tags: ['sale', 'new'] },
      { index: { _id: 'd' } },
      { title: 'widget widget', stock: 7 }
    ])
  );
});
afterAll(async () => es.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the engine's JSON answer freely; every value it reads is asserted
const search = (body: unknown): Promise<any> =>
  call(es, 'POST', '/shop/_search', body);

it('match scores by term frequency; default order is _score desc', async () => {
  const res = await search({ query: { match: { title: 'widget' } } });
  expect(ids(res)[0]).toBe('d');
  expect(ids(res).sort()).toEqual(['a', 'b', 'd']);
  expect(typeof res.body.hits.hits[0]._score).toBe('number');
});

it('match with operator and, match_phrase, match_phrase_prefix, multi_match', async () => {
  expect(
    ids(
      await search({
        query: { match: { title: { query: 'blue widget', operator: 'and' } } }
      })
    )
  ).toEqual(['b']);
  expect(
    ids(await search({ query: { match_phrase: { title: 'widget deluxe' } } }))
  ).toEqual(['b']);
  expect(
    ids(
      await search({ query: { match_phrase_prefix: { title: 'green gad' } } })
    )
  ).toEqual(['c']);
  expect(
    ids(
      await search({
        query: { multi_match: { query: 'sale', fields: ['title', 'tags'] } }
      })
    ).sort()
  ).toEqual(['a', 'c']);
});

it('term on keyword is exact (case_insensitive optional); on text it meets tokens', async () => {
  expect(
    ids(await search({ query: { term: { 'title.keyword': 'Red Widget' } } }))
  ).toEqual(['a']);
  expect(
    ids(await search({ query: { term: { 'title.keyword': 'red widget' } } }))
  ).toEqual([]);
  expect(
    ids(
      await search({
        query: {
          term: {
            'title.keyword': { value: 'red widget', case_insensitive: true }
          }
        }
      })
    )
  ).toEqual(['a']);
  expect(ids(await search({ query: { term: { title: 'Red' } } }))).toEqual([]);
  expect(
    ids(await search({ query: { terms: { tags: ['new'] } }, sort: ['_doc'] }))
  ).toEqual(['b', 'c']);
});

it('range, prefix, wildcard, regexp, exists', async () => {
  expect(
    ids(await search({ query: { range: { price: { gte: 10, lt: 25 } } } }))
  ).toEqual(['b']);
  expect(
    ids(await search({ query: { prefix: { 'title.keyword': 'Gr' } } }))
  ).toEqual(['c']);
  expect(
    ids(
      await search({
        query: {
          wildcard: {
            'title.keyword': { value: 'b*DELUXE', case_insensitive: true }
          }
        }
      })
    )
  ).toEqual(['b']);
  expect(
    ids(await search({ query: { regexp: { 'title.keyword': 'Gre+n.*' } } }))
  ).toEqual(['c']);
  expect(
    ids(await search({ query: { exists: { field: 'price' } }, sort: ['_doc'] }))
  ).toEqual(['a', 'b', 'c']);
});

it('bool with must, filter, should + minimum_should_match, must_not', async () => {
  const res = await search({
    query: {
      bool: {
        must: [{ match: { title: 'widget' } }],
        filter: [{ range: { stock: { gte: 0 } } }],
        must_not: [{ term: { tags: 'new' } }]
      }
    },
    sort: ['_doc']
  });
  expect(ids(res)).toEqual(['a', 'd']);
  const should = await search({
    query: {
      bool: {
        should: [
          { term: { tags: 'sale' } },
          { term: { tags: 'new' } },
          { range: { price: { gt: 20 } } }
        ],
        minimum_should_match: 2
      }
    }
  });
  expect(ids(should)).toEqual(['c']);
});

it('nested: one nested object must match the whole nested query', async () => {
  const q = (color: string, size: number): unknown => ({
    query: {
      nested: {
        path: 'variants',
        query: {
          bool: {
            must: [
              { term: { 'variants.color.keyword': color } },
              { term: { 'variants.size': size } }
            ]
          }
        }
      }
    }
  });
  expect(ids(await search(q('red', 1)))).toEqual(['a']);
  expect(ids(await search(q('red', 2)))).toEqual([]);
  expect(
    ids(await search({ query: { term: { 'variants.color.keyword': 'red' } } }))
  ).toEqual([]);
  const bad = await search({
    query: { nested: { path: 'nope', query: { match_all: {} } } }
  });
  expect(bad.status).toBe(400);
  // As a real 7.17.29 / 8.19.21 node words it (the query builder's error, wrapped by the shard).
  expect(bad.body.error.root_cause[0]).toMatchObject({
    type: 'query_shard_exception',
    reason:
      'failed to create query: [nested] failed to find nested object under path [nope]'
  });
  expect(
    ids(
      await search({
        query: {
          nested: {
            path: 'nope',
            ignore_unmapped: true,
            query: { match_all: {} }
          }
        }
      })
    )
  ).toEqual([]);
});

it('query_string: field:value, ranges, AND/OR/NOT, wildcards, all fields by default', async () => {
  const qs = async (query: string): Promise<string[]> =>
    ids(
      await search({ query: { query_string: { query } }, sort: ['_doc'] })
    ).sort();
  expect(await qs('title:gadget')).toEqual(['c']);
  expect(await qs('price:>10')).toEqual(['b', 'c']);
  expect(await qs('price:[5 TO 15]')).toEqual(['a', 'b']);
  expect(await qs('widget AND NOT deluxe')).toEqual(['a', 'd']);
  expect(await qs('title:gadget OR tags:sale')).toEqual(['a', 'c']);
  expect(await qs('wid*')).toEqual(['a', 'b', 'd']);
  expect(await qs('sale')).toEqual(['a', 'c']);
  expect(await qs('_exists_:stock -widget')).toEqual([]);
  const bad = await search({
    query: { query_string: { query: 'title:(unclosed' } }
  });
  expect(bad.status).toBe(400);
  expect(bad.body.error.root_cause[0].type).toBe('query_shard_exception');
});

it('sort on keyword and numbers with missing last, _source filtering, search_after', async () => {
  const res = await search({ sort: [{ price: 'desc' }], _source: ['title'] });
  expect(ids(res)).toEqual(['c', 'b', 'a', 'd']);
  expect(res.body.hits.hits[0]).toEqual({
    _index: 'shop',
    _id: 'c',
    _score: null,
    _source: { title: 'Green Gadget' },
    sort: [25]
  });
  expect(res.body.hits.hits[3].sort).toEqual([null]);
  const next = await search({
    sort: [{ 'title.keyword': 'asc' }],
    search_after: ['Green Gadget'],
    _source: false
  });
  expect(ids(next)).toEqual(['a', 'd']);
  expect(next.body.hits.hits[0]._source).toBeUndefined();
  const excl = await search({
    query: { ids: { values: ['a'] } },
    _source: { excludes: ['variants', 'tags'] }
  });
  expect(excl.body.hits.hits[0]._source).toEqual({
    title: 'Red Widget',
    price: 5,
    stock: 1
  });
});

it('aggregations: terms, range, histogram, avg/min/max/sum with sub-aggregations', async () => {
  const res = await search({
    size: 0,
    aggs: {
      tags: {
        terms: { field: 'tags' },
        aggs: { avg_price: { avg: { field: 'price' } } }
      },
      prices: {
        range: {
          field: 'price',
          ranges: [{ to: 10 }, { from: 10, to: 20 }, { from: 20 }]
        }
      },
      hist: { histogram: { field: 'price', interval: 10 } },
      lo: { min: { field: 'price' } },
      hi: { max: { field: 'price' } },
      total: { sum: { field: 'stock' } }
    }
  });
  const a = res.body.aggregations;
  expect(a.tags).toEqual({
    doc_count_error_upper_bound: 0,
    sum_other_doc_count: 0,
    buckets: [
      { key: 'new', doc_count: 2, avg_price: { value: 20 } },
      { key: 'sale', doc_count: 2, avg_price: { value: 15 } }
    ]
  });
  expect(a.prices.buckets).toEqual([
    { key: '*-10.0', to: 10, doc_count: 1 },
    { key: '10.0-20.0', from: 10, to: 20, doc_count: 1 },
    { key: '20.0-*', from: 20, doc_count: 1 }
  ]);
  expect(a.hist.buckets).toEqual([
    { key: 0, doc_count: 1 },
    { key: 10, doc_count: 1 },
    { key: 20, doc_count: 1 }
  ]);
  expect([a.lo.value, a.hi.value, a.total.value]).toEqual([5, 25, 8]);
  const text = await search({
    size: 0,
    aggs: { t: { terms: { field: 'title' } } }
  });
  expect(text.status).toBe(400);
});

it('products sample: 2,000 documents, objects, nested variants, and missing fields', async () => {
  const count = await call(es, 'GET', '/products/_count');
  expect(count.body.count).toBe(2000);
  const missingBrand = await call(es, 'POST', '/products/_count', {
    query: { bool: { must_not: [{ exists: { field: 'brand' } }] } }
  });
  expect(missingBrand.body.count).toBeGreaterThan(0);
  const byCountry = await call(es, 'POST', '/products/_search', {
    size: 0,
    aggs: { c: { terms: { field: 'address.country', size: 20 } } }
  });
  expect(
    byCountry.body.aggregations.c.buckets
      .map((b: { key: string }) => b.key)
      .sort()
  ).toEqual(['AU', 'BR', 'CA', 'CH', 'DE', 'FR', 'JP', 'US']);
  const red = await call(es, 'POST', '/products/_count', {
    query: {
      nested: { path: 'variants', query: { term: { 'variants.color': 'red' } } }
    }
  });
  expect(red.body.count).toBeGreaterThan(0);
});
