/**
 * Grid columns from Typesense collection schemas, against the sandbox over
 * HTTP: `id` leads, `object` fields flatten to their leaves, `object[]` gives a JSON column plus
 * one column per leaf (null where an element omits it), learned fields of an auto-schema
 * collection appear once a write taught them, and a key that cannot read the schema still
 * gets its search with columns from the documents.
 */
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import type { Connection } from '../../kernel/src/connections/open-connection';
import { connect, request, SECRETS } from './helpers';
import { columnSummary, hitsOf, rowById } from './grid-helpers';

const BOOK_COLUMNS = [
  'id:string',
  'title:string',
  'author:string',
  'genre:string',
  'year:int32',
  'ratings_count:int32',
  'rating:float',
  'in_print:bool',
  'meta.pages:int64',
  'meta.publisher:string',
  'variants:object[]',
  'variants.sku:string[]',
  'variants.format:string[]'
];

let sandbox: RunningSandbox;
let ts: Connection;
const send = async (
  method: 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  query = ''
) => {
  const response = await ts.driver.console.send(
    request(method, path, query, body),
    new AbortController().signal
  );
  expect(response.status).toBeLessThan(300);
  return response;
};

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: SECRETS.ES_PASSWORD,
    tsApiKey: SECRETS.TS_API_KEY,
    security: true,
    products: 5
  });
  ts = await connect(`typesense ${sandbox.tsUrl} key=\${env:TS_API_KEY}`);
});
afterAll(async () => {
  await ts?.driver.close();
  await sandbox?.close();
});

describe('books: a schema with object and object[] fields', () => {
  it('search: id leads and is read-only, meta flattens to its leaves, variants gives a JSON column and its leaves', async () => {
    const hits = await hitsOf(
      ts,
      request(
        'GET',
        '/collections/books/documents/search',
        'q=*&filter_by=id:=[0,2]'
      )
    );
    expect(columnSummary(hits.columns)).toEqual(BOOK_COLUMNS);
    const byName = new Map(hits.columns.map(c => [c.name, c]));
    expect(byName.get('id')).toMatchObject({
      readOnly: true,
      primaryKey: true,
      origin: 'meta'
    });
    expect(byName.has('meta')).toBe(false);
    expect(byName.get('meta.pages')).toMatchObject({
      readOnly: false,
      origin: 'mapping'
    });
    expect(byName.get('variants')).toMatchObject({
      json: true,
      readOnly: false
    });
    expect(byName.get('variants.sku')).toMatchObject({
      json: true,
      readOnly: true,
      arrayParent: 'variants'
    });
    expect(rowById(hits.rows, 'id', '2')).toMatchObject({
      'meta.pages': 353,
      'meta.publisher': 'Penguin',
      'variants.sku': ['B2-0', 'B2-1'],
      'variants.format': ['paperback', 'ebook']
    });
  });

  it('the export (JSONL) renders as a grid of the documents with the same columns', async () => {
    const hits = await hitsOf(
      ts,
      request('GET', '/collections/books/documents/export')
    );
    expect(columnSummary(hits.columns)).toEqual(BOOK_COLUMNS);
    expect(hits.rows.length).toBeGreaterThan(250);
    expect(rowById(hits.rows, 'id', '0')).toMatchObject({
      title: 'The Last Library 0',
      year: 1985,
      'meta.publisher': 'Orbit',
      'variants.sku': ['B0-0']
    });
  });

  it('an export that names its fields shows only those', async () => {
    const hits = await hitsOf(
      ts,
      request(
        'GET',
        '/collections/books/documents/export',
        'include_fields=title,year'
      )
    );
    expect(columnSummary(hits.columns)).toEqual([
      'id:string',
      'title:string',
      'year:int32'
    ]);
  });

  it('a search through a preset that leaves fields out shows no column for them, as a search naming its fields', async () => {
    const response = await ts.driver.console.send(
      request('PUT', '/presets/short', '', {
        value: { exclude_fields: 'meta,variants,rating' }
      }),
      new AbortController().signal
    );
    expect(response.status).toBe(200);
    const expected = BOOK_COLUMNS.filter(
      c => !/^(meta|variants|rating:)/.test(c)
    );
    const hits = await hitsOf(
      ts,
      request(
        'GET',
        '/collections/books/documents/search',
        'q=*&preset=short&per_page=5'
      )
    );
    expect(columnSummary(hits.columns)).toEqual(expected);
    const multi = await hitsOf(
      ts,
      request('POST', '/multi_search', '', {
        searches: [{ collection: 'books', q: '*', preset: 'short' }]
      })
    );
    expect(columnSummary(multi.columns)).toEqual(expected);
  });

  it('a multi_search of one search takes the schema too; several searches give one result each', async () => {
    const one = await hitsOf(
      ts,
      request('POST', '/multi_search', '', {
        searches: [{ collection: 'books', q: '*', per_page: 2 }]
      })
    );
    expect(columnSummary(one.columns)).toEqual(BOOK_COLUMNS);
    const two = request('POST', '/multi_search', '', {
      searches: [
        { collection: 'books', q: '*' },
        { collection: 'notes', q: '*' }
      ]
    });
    const presented = ts.driver.console.present(
      two,
      await ts.driver.console.send(two, new AbortController().signal)
    );
    expect(
      presented.kind === 'searches'
        ? presented.searches.map(s => [s.target, s.result.kind])
        : presented.kind
    ).toEqual([
      ['books', 'hits'],
      ['notes', 'hits']
    ]);
  });
});

describe('an alias', () => {
  it('opens like its collection, and follows the alias when it is pointed elsewhere', async () => {
    await ts.driver.console.send(
      request('PUT', '/aliases/library', '', { collection_name: 'books' }),
      new AbortController().signal
    );
    const viaAlias = await hitsOf(
      ts,
      request(
        'GET',
        '/collections/library/documents/search',
        'q=*&filter_by=id:=[0,2]'
      )
    );
    expect(columnSummary(viaAlias.columns)).toEqual(BOOK_COLUMNS);
    expect(rowById(viaAlias.rows, 'id', '2')).toMatchObject({
      'meta.publisher': 'Penguin'
    });
    await ts.driver.console.send(
      request('PUT', '/aliases/library', '', { collection_name: 'notes' }),
      new AbortController().signal
    );
    const moved = await hitsOf(
      ts,
      request('GET', '/collections/library/documents/export')
    );
    // notes learns its fields in name order, as the engine reads a document's keys.
    expect(columnSummary(moved.columns).slice(0, 3)).toEqual([
      'id:string',
      'done:bool',
      'labels:string[]'
    ]);
  });
});

describe('object[] elements that omit a leaf', () => {
  beforeAll(async () => {
    await send('POST', '/collections', {
      name: 'shelf',
      enable_nested_fields: true,
      fields: [
        { name: 'name', type: 'string' },
        { name: 'items', type: 'object[]', optional: true }
      ]
    });
    await send('POST', '/collections/shelf/documents', {
      id: 's1',
      name: 'A',
      items: [{ sku: 'a', qty: 1 }, { sku: 'b' }]
    });
    await send('POST', '/collections/shelf/documents', { id: 's2', name: 'B' });
  });

  it('hold null in the leaf column where an element omits the leaf', async () => {
    const hits = await hitsOf(
      ts,
      request('GET', '/collections/shelf/documents/search', 'q=*')
    );
    expect(columnSummary(hits.columns)).toEqual([
      'id:string',
      'name:string',
      'items:object[]',
      'items.sku:string[]',
      'items.qty:int64[]'
    ]);
    expect(rowById(hits.rows, 'id', 's1')).toMatchObject({
      'items.sku': ['a', 'b'],
      'items.qty': [1, null]
    });
    expect(rowById(hits.rows, 'id', 's2')).not.toHaveProperty('items.sku');
  });

  it('a collection dropped and created again with another schema shows the new one', async () => {
    await send('DELETE', '/collections/shelf');
    await send('POST', '/collections', {
      name: 'shelf',
      fields: [
        { name: 'label', type: 'string' },
        { name: 'count', type: 'int32' }
      ]
    });
    await send('POST', '/collections/shelf/documents', {
      id: 'x',
      label: 'L',
      count: 3
    });
    const hits = await hitsOf(
      ts,
      request('GET', '/collections/shelf/documents/search', 'q=*')
    );
    expect(columnSummary(hits.columns)).toEqual([
      'id:string',
      'label:string',
      'count:int32'
    ]);
  });
});

describe('an auto-schema (".*") collection', () => {
  it('shows learned fields from the schema, and a field a write teaches it after that write', async () => {
    const before = await hitsOf(
      ts,
      request('GET', '/collections/notes/documents/export')
    );
    // Learned in name order, as the engine reads a document's keys (sorted, as nlohmann::json keeps them).
    expect(columnSummary(before.columns)).toEqual([
      'id:string',
      'done:bool',
      'labels:string[]',
      'priority:int64',
      'source.book_id:string',
      'source.page:int64',
      'text:string',
      'weight:float'
    ]);
    await send('POST', '/collections/notes/documents', {
      id: 'n-new',
      text: 'fresh',
      mood: 'calm'
    });
    const after = await hitsOf(
      ts,
      request('GET', '/collections/notes/documents/export')
    );
    expect(after.columns.find(c => c.name === 'mood')).toMatchObject({
      type: 'string',
      origin: 'mapping'
    });
    expect(rowById(after.rows, 'id', 'n-new')).toMatchObject({
      text: 'fresh',
      mood: 'calm'
    });
  });
});

describe('a key that may search but not read the schema', () => {
  it('gets the search, with columns from the documents', async () => {
    // debug:list and collections:list are what %connect's probe reads (GET /debug, GET /collections).
    const created = await send('POST', '/keys', {
      description: 'search only',
      actions: ['debug:list', 'collections:list', 'documents:search'],
      collections: ['books']
    });
    const value =
      created.body.kind === 'json'
        ? (created.body.value as { value: string }).value
        : '';
    const limited = await connect(
      `typesense ${sandbox.tsUrl} key=\${env:LIMITED}`,
      { LIMITED: value }
    );
    try {
      expect(
        (
          await limited.driver.console.send(
            request('GET', '/collections/books'),
            new AbortController().signal
          )
        ).status
      ).toBe(401);
      const hits = await hitsOf(
        limited,
        request(
          'GET',
          '/collections/books/documents/search',
          'q=*&filter_by=id:=2'
        )
      );
      const names = hits.columns.map(c => c.name);
      expect(names[0]).toBe('id');
      expect(names).toEqual(
        expect.arrayContaining([
          'meta.pages',
          'meta.publisher',
          'variants',
          'year'
        ])
      );
      expect(names).not.toContain('variants.sku');
      expect(hits.columns.slice(1).every(c => c.origin === 'documents')).toBe(
        true
      );
      expect(rowById(hits.rows, 'id', '2').variants).toEqual([
        { format: 'paperback', sku: 'B2-0' },
        { format: 'ebook', sku: 'B2-1' }
      ]);
    } finally {
      await limited.driver.close();
    }
  });
});
