import { BOOKS_SCHEMA, book, start, type Running } from './helpers';

type SearchBody = {
  found: number;
  out_of: number;
  page?: number;
  offset?: number;
  hits: {
    document: Record<string, unknown>;
    highlight: Record<string, unknown>;
    highlights: unknown[];
    text_match: number;
  }[];
  facet_counts: {
    field_name: string;
    counts: { count: number; value: string }[];
  }[];
  request_params: Record<string, unknown>;
};

describe('Typesense sandbox: search', () => {
  let t: Running;
  const search = async (
    qs: string
  ): Promise<{ status: number; body: SearchBody; text: string }> => {
    const r = await t.call('GET', `/collections/books/documents/search?${qs}`);
    return { status: r.status, body: r.json() as SearchBody, text: r.text };
  };

  beforeAll(async () => {
    t = await start({ version: '29.0' });
    await t.call('POST', '/collections', { body: BOOKS_SCHEMA });
    t.sandbox.loadDocuments(
      'books',
      Array.from({ length: 300 }, (_, i) => book(i))
    );
    await t.call('POST', '/collections', {
      body: {
        name: 'plain',
        fields: [
          { name: 'n', type: 'int32' },
          { name: 's', type: 'string' }
        ]
      }
    });
    t.sandbox.loadDocuments('plain', [
      { n: 1, s: 'a' },
      { n: 2, s: 'b' },
      { n: 3, s: 'c' }
    ]);
  });
  afterAll(() => t.close());

  test('response shape: keys in order, defaults per_page 10 and page 1', async () => {
    const { status, body } = await search('q=*');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual([
      'facet_counts',
      'found',
      'hits',
      'out_of',
      'page',
      'request_params',
      'search_cutoff',
      'search_time_ms'
    ]);
    expect(body.found).toBe(300);
    expect(body.out_of).toBe(300);
    expect(body.page).toBe(1);
    expect(body.hits).toHaveLength(10);
    expect(body.request_params).toEqual({
      collection_name: 'books',
      first_q: '*',
      per_page: 10,
      q: '*'
    });
    expect(Object.keys(body.hits[0] ?? {})).toEqual([
      'document',
      'highlight',
      'highlights',
      'text_match',
      'text_match_info'
    ]);
  });

  test('q=* orders by default_sorting_field descending', async () => {
    const { body } = await search('q=*&per_page=3');
    expect(body.hits.map(h => h.document.ratings_count)).toEqual([
      2990, 2980, 2970
    ]);
  });

  test('q=* without default_sorting_field is newest first', async () => {
    const r = await t.call('GET', '/collections/plain/documents/search?q=*');
    expect((r.json() as SearchBody).hits.map(h => h.document.id)).toEqual([
      '2',
      '1',
      '0'
    ]);
  });

  test('page 0 is page 1; offset without page answers "offset"', async () => {
    const p0 = await search('q=*&page=0&per_page=2');
    expect(p0.body.page).toBe(1);
    const off = await search('q=*&offset=5&limit=2');
    expect(off.body.offset).toBe(5);
    expect(off.body.page).toBeUndefined();
    expect(off.body.hits.map(h => h.document.ratings_count)).toEqual([
      2940, 2930
    ]);
  });

  test('limit is an alias of per_page', async () => {
    expect((await search('q=*&limit=7')).body.hits).toHaveLength(7);
  });

  test('per_page above 250: 422', async () => {
    const r = await search('q=*&per_page=251');
    expect([r.status, r.text]).toEqual([
      422,
      '{"message":"Only upto 250 hits can be fetched per page."}'
    ]);
    const l = await search('q=*&limit=300');
    expect(l.status).toBe(422);
  });

  test('non-numeric integer parameter: 400', async () => {
    const r = await search('q=*&per_page=ten');
    expect([r.status, r.text]).toEqual([
      400,
      '{"message":"Parameter `per_page` must be an unsigned integer."}'
    ]);
  });

  test('missing q: 400', async () => {
    const r = await search('query_by=title');
    expect([r.status, r.text]).toEqual([
      400,
      '{"message":"Parameter `q` is required."}'
    ]);
  });

  test('keyword q without query_by: 400', async () => {
    const r = await search('q=banks');
    expect([r.status, r.text]).toEqual([
      400,
      '{"message":"No search fields specified for the query."}'
    ]);
  });

  test('text search: all tokens, last as prefix (only the prefix marked, as the real server marks it), highlights and text_match', async () => {
    const { body } = await search(
      'q=iain%20ban&query_by=author,title&per_page=2'
    );
    expect(body.found).toBe(150);
    const hit = body.hits[0];
    expect(hit?.document.author).toBe('Iain Banks');
    expect(hit?.highlight).toEqual({
      author: {
        matched_tokens: ['Iain', 'Ban'],
        snippet: '<mark>Iain</mark> <mark>Ban</mark>ks'
      }
    });
    expect(hit?.highlights).toEqual([
      {
        field: 'author',
        matched_tokens: ['Iain', 'Ban'],
        snippet: '<mark>Iain</mark> <mark>Ban</mark>ks'
      }
    ]);
    expect(typeof hit?.text_match).toBe('number');
    expect(hit?.text_match).toBeGreaterThan(100);
  });

  test('sort_by field:asc', async () => {
    const { body } = await search(
      'q=*&sort_by=year:asc,ratings_count:asc&per_page=3'
    );
    expect(
      body.hits.map(h => [h.document.year, h.document.ratings_count])
    ).toEqual([
      [1990, 0],
      [1990, 300],
      [1990, 600]
    ]);
  });

  test('sort on a string with sort:true works; on one without: 404', async () => {
    expect((await search('q=*&sort_by=title:asc')).status).toBe(200);
    const r = await search('q=*&sort_by=author:asc');
    expect([r.status, r.text]).toEqual([
      404,
      '{"message":"Could not find a field named `author` in the schema for sorting."}'
    ]);
  });

  test('id is never sortable; unknown field: 404', async () => {
    expect((await search('q=*&sort_by=id:asc')).status).toBe(404);
    const r = await search('q=*&sort_by=nope:desc');
    expect(r.body).toEqual({
      message: 'Could not find a field named `nope` in the schema for sorting.'
    });
  });

  test('more than 3 sort fields: 400', async () => {
    const r = await search(
      'q=*&sort_by=year:asc,rating:asc,ratings_count:asc,in_print:asc'
    );
    expect([r.status, r.text]).toEqual([
      400,
      '{"message":"Only upto 3 sort fields are allowed."}'
    ]);
  });

  test('malformed sort_by: 400', async () => {
    const r = await search('q=*&sort_by=year:up');
    expect([r.status, r.body]).toEqual([
      400,
      { message: 'Parameter `sort_by` is malformed.' }
    ]);
  });

  test('include_fields and exclude_fields', async () => {
    const inc = await search('q=*&per_page=1&include_fields=title,meta.pages');
    expect(inc.body.hits[0]?.document).toEqual({
      title: 'Book number 299',
      meta: { pages: 399 }
    });
    const exc = await search('q=*&per_page=1&exclude_fields=variants,meta');
    expect(Object.keys(exc.body.hits[0]?.document ?? {})).not.toContain(
      'variants'
    );
    expect(Object.keys(exc.body.hits[0]?.document ?? {})).toContain('title');
  });

  test('facet_by counts over the whole match', async () => {
    const { body } = await search('q=*&facet_by=genre&per_page=0');
    expect(body.facet_counts[0]?.field_name).toBe('genre');
    expect(body.facet_counts[0]?.counts).toEqual([
      { count: 200, highlighted: 'science fiction', value: 'science fiction' },
      { count: 100, highlighted: 'fantasy', value: 'fantasy' }
    ]);
  });

  test('facet on a non-facet field: 404', async () => {
    const r = await search('q=*&facet_by=title');
    expect([r.status, r.body]).toEqual([
      404,
      { message: 'Could not find a facet field named `title` in the schema.' }
    ]);
  });

  test('query string over 4000 characters: 400', async () => {
    const r = await search(`q=*&filter_by=${'a'.repeat(4001)}`);
    expect([r.status, r.body]).toEqual([
      400,
      {
        message:
          'Query string exceeds max allowed length of 4000. Use the /multi_search end-point for larger payloads.'
      }
    ]);
  });

  test('29+: missing collection is "Collection not found"', async () => {
    const r = await t.call('GET', '/collections/nope/documents/search?q=*');
    expect([r.status, r.text]).toEqual([
      404,
      '{"message":"Collection not found"}'
    ]);
  });

  test('paging reaches the last page through the cached ordering', async () => {
    const last = await search(
      'q=*&filter_by=in_print:true&per_page=250&page=1'
    );
    expect(last.body.found).toBe(225);
    const p2 = await search('q=*&filter_by=in_print:true&per_page=200&page=2');
    expect(p2.body.hits).toHaveLength(25);
  });
});

describe('Typesense sandbox: search facts before 29', () => {
  test('26-28: missing collection is "Not found."', async () => {
    const t = await start({ version: '28.0' });
    try {
      const r = await t.call('GET', '/collections/nope/documents/search?q=*');
      expect([r.status, r.text]).toEqual([404, '{"message":"Not found."}']);
    } finally {
      await t.close();
    }
  });

  test('27+: max-per-page is a server setting; 26 keeps 250', async () => {
    const t27 = await start({ version: '27.0', maxPerPage: 100 });
    const t26 = await start({ version: '26.0', maxPerPage: 100 });
    try {
      for (const t of [t27, t26]) {
        await t.call('POST', '/collections', {
          body: { name: 'c', fields: [{ name: 'a', type: 'string' }] }
        });
      }
      const r27 = await t27.call(
        'GET',
        '/collections/c/documents/search?q=*&per_page=101'
      );
      expect([r27.status, r27.json()]).toEqual([
        422,
        { message: 'Only upto 100 hits can be fetched per page.' }
      ]);
      expect(
        (
          await t26.call(
            'GET',
            '/collections/c/documents/search?q=*&per_page=101'
          )
        ).status
      ).toBe(200);
    } finally {
      await t27.close();
      await t26.close();
    }
  });
});
