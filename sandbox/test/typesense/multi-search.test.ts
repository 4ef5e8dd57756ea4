import { book, BOOKS_SCHEMA, start, type Running } from './helpers';

describe('Typesense sandbox: multi_search', () => {
  let t: Running;
  beforeAll(async () => {
    t = await start({ version: '29.0' });
    await t.call('POST', '/collections', { body: BOOKS_SCHEMA });
    t.sandbox.loadDocuments(
      'books',
      Array.from({ length: 600 }, (_, i) => book(i))
    );
  });
  afterAll(() => t.close());

  test('results in order; a failing search does not fail the others', async () => {
    const r = await t.call('POST', '/multi_search', {
      body: {
        searches: [
          { collection: 'books', q: '*', filter_by: 'year:>2015', per_page: 2 },
          { collection: 'books', q: '*', sort_by: 'author:asc' },
          { collection: 'nope', q: '*' },
          { collection: 'books', q: '*', per_page: 251 }
        ]
      }
    });
    expect(r.status).toBe(200);
    const { results } = r.json() as { results: Record<string, unknown>[] };
    expect(results).toHaveLength(4);
    expect(results[0]).toMatchObject({ found: 80, page: 1 });
    expect(results[1]).toEqual({
      code: 404,
      error: 'Could not find a field named `author` in the schema for sorting.'
    });
    expect(results[2]).toEqual({ code: 404, error: 'Collection not found' });
    expect(results[3]).toEqual({
      code: 422,
      error: 'Only upto 250 hits can be fetched per page.'
    });
  });

  test('common parameters from the query string, overridden per search', async () => {
    const r = await t.call(
      'POST',
      '/multi_search?collection=books&q=*&per_page=3',
      {
        body: { searches: [{}, { per_page: 5 }] }
      }
    );
    const { results } = r.json() as { results: { hits: unknown[] }[] };
    expect(results.map(x => x.hits.length)).toEqual([3, 5]);
  });

  test('50 searches pass; 51 answer 400', async () => {
    const ok = await t.call('POST', '/multi_search', {
      body: {
        searches: Array.from({ length: 50 }, (_, i) => ({
          collection: 'books',
          q: '*',
          per_page: 250,
          page: (i % 3) + 1
        }))
      }
    });
    expect(ok.status).toBe(200);
    const r = await t.call('POST', '/multi_search', {
      body: {
        searches: Array.from({ length: 51 }, () => ({
          collection: 'books',
          q: '*'
        }))
      }
    });
    expect([r.status, r.text]).toEqual([
      400,
      '{"message": "Number of multi searches exceeds `limit_multi_searches` parameter."}'
    ]);
  });

  test('limit_multi_searches can be raised per request', async () => {
    const r = await t.call('POST', '/multi_search?limit_multi_searches=60', {
      body: {
        searches: Array.from({ length: 51 }, () => ({
          collection: 'books',
          q: '*',
          per_page: 1
        }))
      }
    });
    expect(r.status).toBe(200);
  });

  test('a body without searches: 400 Missing `searches` array.', async () => {
    const r = await t.call('POST', '/multi_search', { body: { foo: 1 } });
    expect([r.status, r.json()]).toEqual([
      400,
      { message: 'Missing `searches` array.' }
    ]);
  });

  test('28+: union merges results', async () => {
    const r = await t.call('POST', '/multi_search', {
      body: {
        union: true,
        searches: [
          { collection: 'books', q: '*', filter_by: 'year:1990' },
          { collection: 'books', q: '*', filter_by: 'year:1991' }
        ]
      }
    });
    const body = r.json() as {
      found: number;
      hits: { search_index: number }[];
      union_request_params: unknown[];
    };
    expect(body.found).toBe(40);
    expect(body.hits).toHaveLength(10);
    expect(body.union_request_params).toHaveLength(2);
  });
});
