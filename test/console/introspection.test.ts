import { CONSOLE_WORDING } from '../../kernel/src/connections/console-wording';
import {
  complete,
  type CompletionContext
} from '../../kernel/src/introspection/complete';
import { inspect } from '../../kernel/src/introspection/inspect';
import { isComplete } from '../../kernel/src/console/is-complete';
import { loadEndpoints as loadEs } from '../../kernel/src/engines/elasticsearch/endpoints';
import { loadEndpoints as loadTs } from '../../kernel/src/engines/typesense/endpoints';
import { scope } from './helpers';

function esContext(): CompletionContext {
  return {
    engine: 'elasticsearch',
    endpoints: loadEs,
    targetNames: async () => ['products', 'prod-archive', 'books', '.security'],
    fieldNames: async target =>
      target === 'products' ? ['title', 'title.keyword', 'price', 'tags'] : [],
    variableNames: () => ['index', 'size']
  };
}

function tsContext(): CompletionContext {
  return {
    engine: 'typesense',
    endpoints: loadTs,
    targetNames: async () => ['books', 'authors'],
    fieldNames: async target =>
      target === 'books' ? ['title', 'author', 'year'] : []
  };
}

async function at(text: string, ctx: CompletionContext) {
  const cursor = text.indexOf('|');
  return complete(text.replace('|', ''), cursor, ctx);
}

describe('endpoint catalogs', () => {
  test("Elasticsearch comes from Elastic's API specification, without private endpoints", async () => {
    const endpoints = await loadEs();
    expect(endpoints.length).toBeGreaterThan(300);
    const search = endpoints.find(e => e.path === '/{index}/_search');
    expect(search).toMatchObject({
      methods: ['GET', 'POST'],
      description: 'Run a search.'
    });
    expect(search?.docUrl).toMatch(/^https:\/\//);
    expect(endpoints.some(e => e.path.startsWith('/_internal'))).toBe(false);
    expect(endpoints.every(e => !e.description.includes('\n'))).toBe(true);
  });

  test('Typesense is written by hand', async () => {
    const paths = (await loadTs()).map(e => e.path);
    for (const p of [
      '/collections',
      '/collections/{collection}/documents/search',
      '/collections/{collection}/documents/import',
      '/multi_search',
      '/keys/{id}',
      '/aliases/{name}',
      '/health',
      '/metrics.json',
      '/stats.json',
      '/operations/db/compact'
    ]) {
      expect(paths).toContain(p);
    }
  });
});

describe('completion', () => {
  test('HTTP methods at a line start', async () => {
    const r = await at('# x\npo|', esContext());
    expect(r.matches).toEqual(['POST']);
    expect([r.cursorStart, r.cursorEnd]).toEqual([4, 6]);
  });

  test('magic names after %, with the % in the match as IPython does', async () => {
    const r = await at('%co|', esContext());
    expect(r.matches).toEqual(['%connect', '%connections']);
    expect(r.cursorStart).toBe(0);
  });

  test('index names in the path position', async () => {
    const r = await at('GET /prod|', esContext());
    expect(r.matches).toEqual(['/prod-archive', '/products']);
    expect([r.cursorStart, r.cursorEnd]).toEqual([4, 9]);
  });

  test('endpoint segments after an index', async () => {
    const r = await at('GET /products/_se|', esContext());
    expect(r.matches).toContain('/products/_search');
    expect(r.matches.every(m => m.startsWith('/products/_se'))).toBe(true);
  });

  test("API paths from the root, keeping the user's missing slash", async () => {
    const r = await at('GET _cat/ind|', esContext());
    expect(r.matches).toEqual(['_cat/indices']);
  });

  test('Typesense collections and their endpoints', async () => {
    expect((await at('GET /collections/bo|', tsContext())).matches).toEqual([
      '/collections/books'
    ]);
    expect(
      (await at('POST /collections/books/documents/im|', tsContext())).matches
    ).toEqual(['/collections/books/documents/import']);
  });

  test('field names inside a JSON body, for the index in the path', async () => {
    const cell =
      'GET /products/_search\n{\n  "query": { "match": { "ti|" } }\n}';
    const r = await at(cell, esContext());
    expect(r.matches).toEqual(['title', 'title.keyword']);
    expect(r.cursorStart).toBe(cell.indexOf('ti|'));
    const sort = await at(
      'GET /products/_search\n{"sort": [{"pr|',
      esContext()
    );
    expect(sort.matches).toEqual(['price']);
    const field = await at(
      'GET /products/_search\n{"aggs": {"t": {"terms": {"field": "ta|"}}}}',
      esContext()
    );
    expect(field.matches).toEqual(['tags']);
  });

  test('Typesense field lists in multi_search bodies', async () => {
    const r = await at(
      'POST /multi_search\n{"searches": [{"collection": "books", "q": "x", "query_by": "title,au|"}]}',
      tsContext()
    );
    expect(r.matches).toEqual(['author']);
  });

  test('variables after ${', async () => {
    expect((await at('GET /${in|', esContext())).matches).toEqual(['index}']);
  });

  test('nothing inside ordinary values', async () => {
    expect(
      (
        await at(
          'GET /products/_search\n{"query": {"match": {"title": "sho|"}}}',
          esContext()
        )
      ).matches
    ).toEqual([]);
  });
});

describe('inspection', () => {
  test('the request under the cursor', async () => {
    const text = await inspect('GET /products/_search\n{}', 3, esContext());
    expect(text).toContain('/{index}/_search');
    expect(text).toContain('Run a search.');
    expect(text).toMatch(/Documentation: https:\/\//);
  });

  test('method picks between endpoints of the same path', async () => {
    const text = await inspect('DELETE /products', 2, esContext());
    expect(text).toMatch(/^DELETE \/\{index\}/);
    expect(text).not.toContain('GET');
  });

  test('Typesense, and a magic', async () => {
    expect(
      await inspect('POST /collections/books/documents/import', 5, tsContext())
    ).toContain('JSONL');
    expect(await inspect('%set x = 1', 2, tsContext())).toContain(
      '%set name = <JSON value>'
    );
    expect(
      await inspect('GET /nothing/here/at/all/really', 5, tsContext())
    ).toBeUndefined();
  });
});

describe('is_complete', () => {
  test.each([
    ['GET /p/_search', 'complete', undefined],
    ['GET /p/_search\n{', 'incomplete', '  '],
    ['GET /p/_search\n{"query": {"bool": {', 'incomplete', '      '],
    ['GET /p/_search\n{"a": "}}}"', 'incomplete', '  '],
    ['POST /_scripts/s\n{"source": """\nif (x) {', 'incomplete', ''],
    ['GET /p/_search\n{"a": 1}', 'complete', undefined],
    ['%set q = {', 'incomplete', '  '],
    ['SELECT * FROM products', 'invalid', undefined],
    ['GET /p/_search\n{"a": ]', 'invalid', undefined],
    ['# only a comment', 'complete', undefined],
    ['GET /${unknown_here}', 'complete', undefined]
  ])('%j is %s', (text, status, indent) => {
    const r = isComplete(text, CONSOLE_WORDING);
    expect(r.status).toBe(status);
    expect(r.indent).toBe(indent);
  });

  test('with the kernel scope, unknown variables are invalid', () => {
    expect(
      isComplete('GET /${unknown_here}', CONSOLE_WORDING, scope()).status
    ).toBe('invalid');
  });
});
