import { start, type Running } from './helpers';

describe('Typesense sandbox: filter_by', () => {
  let t: Running;
  const ids = async (filter: string, coll = 'items'): Promise<string[]> => {
    const r = await t.call(
      'GET',
      `/collections/${coll}/documents/search?q=*&per_page=250&sort_by=n:asc&filter_by=${encodeURIComponent(filter)}`
    );
    if (r.status !== 200) {
      throw new Error(`${r.status} ${r.text}`);
    }
    return (r.json() as { hits: { document: { id: string } }[] }).hits.map(
      h => h.document.id
    );
  };
  const error = async (filter: string): Promise<[number, unknown]> => {
    const r = await t.call(
      'GET',
      `/collections/items/documents/search?q=*&filter_by=${encodeURIComponent(filter)}`
    );
    return [r.status, r.json()];
  };

  beforeAll(async () => {
    t = await start({ version: '29.0' });
    await t.call('POST', '/collections', {
      body: {
        name: 'items',
        enable_nested_fields: true,
        fields: [
          { name: 'n', type: 'int32' },
          { name: 'price', type: 'float' },
          { name: 'name', type: 'string' },
          { name: 'tags', type: 'string[]' },
          { name: 'ok', type: 'bool' },
          { name: 'meta', type: 'object' },
          { name: 'variants', type: 'object[]' }
        ]
      }
    });
    t.sandbox.loadDocuments('items', [
      {
        id: 'a',
        n: 1,
        price: 1.5,
        name: 'Red apple',
        tags: ['fruit', 'red'],
        ok: true,
        meta: { pages: 50 },
        variants: [{ sku: 'A1', format: 'box' }]
      },
      {
        id: 'b',
        n: 2,
        price: 2.5,
        name: 'Green apple pie',
        tags: ['baked'],
        ok: false,
        meta: { pages: 150 },
        variants: [{ sku: 'B1', format: 'tin' }]
      },
      {
        id: 'c',
        n: 3,
        price: 3.5,
        name: 'Johnny, Cash',
        tags: ['music'],
        ok: true,
        meta: { pages: 250 },
        variants: [
          { sku: 'C1', format: 'box' },
          { sku: 'C2', format: 'bag' }
        ]
      },
      {
        id: 'd',
        n: 4,
        price: 4.5,
        name: 'Joanna',
        tags: [],
        ok: false,
        meta: { pages: 350 },
        variants: []
      }
    ]);
  });
  afterAll(() => t.close());

  test('numeric comparators, ranges and lists', async () => {
    expect(await ids('n:>2')).toEqual(['c', 'd']);
    expect(await ids('n:>=2')).toEqual(['b', 'c', 'd']);
    expect(await ids('n:<2')).toEqual(['a']);
    expect(await ids('n:<=2')).toEqual(['a', 'b']);
    expect(await ids('n:=3')).toEqual(['c']);
    expect(await ids('n:!=3')).toEqual(['a', 'b', 'd']);
    expect(await ids('n:[2..3]')).toEqual(['b', 'c']);
    expect(await ids('n:2..3')).toEqual(['b', 'c']);
    expect(await ids('n:[1,4]')).toEqual(['a', 'd']);
    expect(await ids('n:=[1,4]')).toEqual(['a', 'd']);
    expect(await ids('n:!=[1,4]')).toEqual(['b', 'c']);
    expect(await ids('n:[1, >3]')).toEqual(['a', 'd']);
    expect(await ids('price:>2.9')).toEqual(['c', 'd']);
  });

  test('string token match, exact, not equal, not contains, lists, prefix', async () => {
    expect(await ids('name:apple')).toEqual(['a', 'b']);
    expect(await ids('name:APPLE')).toEqual(['a', 'b']);
    expect(await ids('name:=Red apple')).toEqual(['a']);
    expect(await ids('name:=apple')).toEqual([]);
    expect(await ids('name:!=Red apple')).toEqual(['b', 'c', 'd']);
    expect(await ids('name:!apple')).toEqual(['c', 'd']);
    expect(await ids('name:[pie, cash]')).toEqual(['b', 'c']);
    expect(await ids('name:=[`Red apple`, Joanna]')).toEqual(['a', 'd']);
    expect(await ids('name:`Jo`*')).toEqual(['c', 'd']);
    expect(await ids('name:Jo*')).toEqual(['c', 'd']);
    expect(await ids('tags:red')).toEqual(['a']);
  });

  test('backtick quoting keeps commas and spaces', async () => {
    expect(await ids('name:=`Johnny, Cash`')).toEqual(['c']);
    expect(await ids('name:=[`Johnny, Cash`]')).toEqual(['c']);
  });

  test('booleans', async () => {
    expect(await ids('ok:true')).toEqual(['a', 'c']);
    expect(await ids('ok:=false')).toEqual(['b', 'd']);
    expect(await ids('ok:!=true')).toEqual(['b', 'd']);
    expect(await error('ok:yes')).toEqual([
      400,
      { message: 'Value of filter field `ok` must be `true` or `false`.' }
    ]);
  });

  test('&& and || share one precedence, left to right', async () => {
    // (n:1 || n:2) && ok:true  → a only; a right-binding && would give a and b.
    expect(await ids('n:1 || n:2 && ok:true')).toEqual(['a']);
    expect(await ids('n:1 || (n:2 && ok:true)')).toEqual(['a']);
    expect(await ids('ok:true && n:3 || n:4')).toEqual(['c', 'd']);
    expect(await ids('(n:1 || n:2) && (n:2 || n:3)')).toEqual(['b']);
  });

  test('nested fields and object[] leaves', async () => {
    expect(await ids('meta.pages:>100')).toEqual(['b', 'c', 'd']);
    expect(await ids('variants.format:=box')).toEqual(['a', 'c']);
    expect(await ids('variants.sku:[C2, B1]')).toEqual(['b', 'c']);
  });

  test('id filter', async () => {
    expect(await ids('id:[a,c]')).toEqual(['a', 'c']);
    expect(await ids('id:!=a')).toEqual(['b', 'c', 'd']);
  });

  test('unknown field: 404', async () => {
    expect(await error('nope:1')).toEqual([
      404,
      { message: 'Could not find a filter field named `nope` in the schema.' }
    ]);
  });

  test('28+: validate_field_names=false ignores unknown fields', async () => {
    const r = await t.call(
      'GET',
      '/collections/items/documents/search?q=*&filter_by=nope:1&validate_field_names=false'
    );
    expect((r.json() as { found: number }).found).toBe(4);
  });

  test('numeric errors', async () => {
    expect(await error('n:abc')).toEqual([
      400,
      {
        message:
          'Error with filter field `n`: Numerical field has an invalid comparator.'
      }
    ]);
    expect(await error('n:>abc')).toEqual([
      400,
      { message: 'Error with filter field `n`: Not an int32.' }
    ]);
    expect(await error('n:>1.5')).toEqual([
      400,
      { message: 'Error with filter field `n`: Not an int32.' }
    ]);
    expect(await error('n:>3000000000')).toEqual([
      400,
      {
        message:
          'Error with filter field `n`: `3000000000` exceeds the range of an int32.'
      }
    ]);
    expect(await error('price:>x')).toEqual([
      400,
      { message: 'Error with filter field `price`: Not a float.' }
    ]);
  });

  test('parse errors', async () => {
    expect(await error('n 3')).toEqual([
      400,
      { message: 'Could not parse the filter query.' }
    ]);
    expect(await error('(n:3')).toEqual([
      400,
      { message: 'Could not parse the filter query: unbalanced parentheses.' }
    ]);
    expect(await error('n:3)')).toEqual([
      400,
      { message: 'Could not parse the filter query: unbalanced parentheses.' }
    ]);
    expect(await error('n:3 &&')).toEqual([
      400,
      { message: 'Could not parse the filter query.' }
    ]);
    expect(await error('()')).toEqual([
      400,
      { message: 'Filter query cannot be empty.' }
    ]);
  });
});
