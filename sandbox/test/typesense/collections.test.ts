import { BOOKS_SCHEMA, book, start, type Running } from './helpers';

describe('Typesense sandbox: collections', () => {
  let t: Running;
  beforeAll(async () => {
    t = await start({ version: '29.0' });
  });
  afterAll(() => t.close());

  test('create answers 201 with the summary, fields with defaults filled in', async () => {
    const r = await t.call('POST', '/collections', { body: BOOKS_SCHEMA });
    expect(r.status).toBe(201);
    expect(r.contentType).toBe('application/json; charset=utf-8');
    const s = r.json() as Record<string, unknown>;
    expect(Object.keys(s)).toEqual([
      'created_at',
      'default_sorting_field',
      'enable_nested_fields',
      'fields',
      'name',
      'num_documents',
      'symbols_to_index',
      'token_separators'
    ]);
    expect(s).toMatchObject({
      name: 'books',
      num_documents: 0,
      default_sorting_field: 'ratings_count',
      enable_nested_fields: true
    });
    const fields = s.fields as Record<string, unknown>[];
    expect(fields[0]).toEqual({
      facet: false,
      index: true,
      infix: false,
      locale: '',
      name: 'title',
      optional: false,
      sort: true,
      stem: false,
      stem_dictionary: '',
      store: true,
      type: 'string'
    });
    expect(fields.find(f => f.name === 'author')).toMatchObject({
      facet: true,
      sort: false
    });
    expect(fields.find(f => f.name === 'year')).toMatchObject({
      sort: true,
      type: 'int32'
    });
    expect(fields.find(f => f.name === 'in_print')).toMatchObject({
      sort: true,
      type: 'bool'
    });
  });

  test('duplicate name: 409 with the exact text', async () => {
    const r = await t.call('POST', '/collections', { body: BOOKS_SCHEMA });
    expect([r.status, r.text]).toEqual([
      409,
      '{"message": "A collection with name `books` already exists."}'
    ]);
  });

  test('object fields without enable_nested_fields are refused', async () => {
    const r = await t.call('POST', '/collections', {
      body: { name: 'x', fields: [{ name: 'o', type: 'object' }] }
    });
    expect(r.status).toBe(400);
    expect(r.json()).toEqual({
      message:
        'Type `object` or `object[]` can be used only when nested fields are enabled by setting` enable_nested_fields` to true.'
    });
  });

  test('an unknown type is refused', async () => {
    const r = await t.call('POST', '/collections', {
      body: { name: 'x', fields: [{ name: 'o', type: 'text' }] }
    });
    expect([r.status, r.json()]).toEqual([
      400,
      {
        message:
          'Field `o` has an invalid data type `text`, see docs for supported data types.'
      }
    ]);
  });

  test('nested leaves appear in fields as dotted names once a document carries them', async () => {
    await t.call('POST', '/collections/books/documents', { body: book(1) });
    const s = (await t.call('GET', '/collections/books')).json() as {
      fields: Record<string, unknown>[];
      num_documents: number;
    };
    expect(s.num_documents).toBe(1);
    const byName = new Map(s.fields.map(f => [f.name, f]));
    expect(byName.get('meta.pages')).toMatchObject({
      type: 'int64',
      optional: true,
      sort: true
    });
    expect(byName.get('meta.publisher')).toMatchObject({
      type: 'string',
      optional: true
    });
    expect(byName.get('variants.sku')).toMatchObject({
      type: 'string[]',
      optional: true,
      sort: false
    });
    expect(byName.get('variants.format')).toMatchObject({ type: 'string[]' });
  });

  test('auto schema learns fields in name order (the engine reads documents with sorted keys): string, int64 with sort, float, bool, arrays', async () => {
    await t.call('POST', '/collections', {
      body: { name: 'notes', fields: [{ name: '.*', type: 'auto' }] }
    });
    const r = await t.call('POST', '/collections/notes/documents', {
      body: { text: 'hello', n: 5, score: 1.5, done: true, tags: ['a', 'b'] }
    });
    expect(r.status).toBe(201);
    const s = (await t.call('GET', '/collections/notes')).json() as {
      fields: Record<string, unknown>[];
    };
    expect(s.fields.map(f => [f.name, f.type, f.optional, f.sort])).toEqual([
      ['.*', 'auto', true, false],
      ['done', 'bool', true, true],
      ['n', 'int64', true, true],
      ['score', 'float', true, true],
      ['tags', 'string[]', true, false],
      ['text', 'string', true, false]
    ]);
  });

  test('GET /collections lists newest first', async () => {
    const list = (await t.call('GET', '/collections')).json() as {
      name: string;
    }[];
    expect(list.map(c => c.name)).toEqual(['notes', 'books']);
  });

  test('missing collection: GET 404 Collection not found (29); DELETE 404 No collection with name `x` found.', async () => {
    const r = await t.call('GET', '/collections/nope');
    expect([r.status, r.text]).toEqual([
      404,
      '{"message": "Collection not found"}'
    ]);
    const d = await t.call('DELETE', '/collections/nope');
    expect([d.status, d.json()]).toEqual([
      404,
      { message: 'No collection with name `nope` found.' }
    ]);
  });

  test('DELETE answers the dropped summary', async () => {
    await t.call('POST', '/collections', {
      body: { name: 'tmp', fields: [{ name: 'a', type: 'string' }] }
    });
    const r = await t.call('DELETE', '/collections/tmp');
    expect(r.status).toBe(200);
    expect(r.json()).toMatchObject({ name: 'tmp', num_documents: 0 });
    expect((await t.call('GET', '/collections/tmp')).status).toBe(404);
  });
});

describe('Typesense sandbox: summary shapes per version', () => {
  test.each([
    ['26.0', false, false, false],
    ['27.1', true, false, false],
    ['28.0', true, true, false],
    ['30.0', true, true, true]
  ])(
    '%s: store=%s stem_dictionary=%s synonym_sets=%s',
    async (version, store, stemDict, sets) => {
      const t = await start({ version });
      try {
        const s = (
          await t.call('POST', '/collections', {
            body: { name: 'c', fields: [{ name: 'a', type: 'string' }] }
          })
        ).json() as Record<string, unknown>;
        const f = (s.fields as Record<string, unknown>[])[0] as Record<
          string,
          unknown
        >;
        expect('store' in f).toBe(store);
        expect('stem_dictionary' in f).toBe(stemDict);
        expect('synonym_sets' in s).toBe(sets);
        expect('curation_sets' in s).toBe(sets);
        const debug = (await t.call('GET', '/debug')).json() as {
          version: string;
        };
        expect(debug.version).toBe(version);
      } finally {
        await t.close();
      }
    }
  );
});

describe('Typesense sandbox: vector fields and auto-embedding', () => {
  const SCHEMA = {
    name: 'vectors',
    fields: [
      { name: 'title', type: 'string' },
      { name: 'vec', type: 'float[]', num_dim: 3, vec_dist: 'ip' },
      {
        name: 'title_embedding',
        type: 'float[]',
        embed: {
          from: ['title'],
          model_config: {
            model_name: 'openai/text-embedding-3-small',
            api_key: 'sk-secret-value'
          }
        }
      }
    ]
  };

  test.each([
    ['27.0', false],
    ['28.0', true],
    ['30.0', true]
  ])(
    '%s: num_dim, vec_dist, embed (credentials hidden) kept and listed; hnsw_params=%s',
    async (version, hnsw) => {
      const t = await start({ version });
      try {
        const created = await t.call('POST', '/collections', { body: SCHEMA });
        expect(created.status).toBe(201);
        const listed = (await t.call('GET', '/collections/vectors')).json() as {
          fields: Record<string, unknown>[];
        };
        for (const summary of [created.json() as typeof listed, listed]) {
          const field = (name: string) =>
            summary.fields.find(f => f.name === name);
          expect(field('vec')).toMatchObject({
            num_dim: 3,
            vec_dist: 'ip',
            sort: false
          });
          expect(field('title_embedding')).toMatchObject({
            num_dim: 1536,
            vec_dist: 'cosine',
            embed: {
              from: ['title'],
              model_config: {
                model_name: 'openai/text-embedding-3-small',
                api_key: 'sk-se**********'
              }
            }
          });
          expect('num_dim' in (field('title') ?? {})).toBe(false);
          expect(field('vec')?.hnsw_params).toEqual(
            hnsw ? { M: 16, ef_construction: 200 } : undefined
          );
        }
        // A vector of the wrong length is refused; the embedded field is the engine's to fill.
        const wrong = await t.call('POST', '/collections/vectors/documents', {
          body: { id: '1', title: 'a', vec: [1, 2] }
        });
        expect([wrong.status, wrong.json()]).toEqual([
          400,
          { message: 'Field `vec` must have 3 dimensions.' }
        ]);
        const right = await t.call('POST', '/collections/vectors/documents', {
          body: { id: '1', title: 'a', vec: [1, 2, 3] }
        });
        expect(right.status).toBe(201);
      } finally {
        await t.close();
      }
    }
  );

  test('refuses what the engine refuses, in its words', async () => {
    const t = await start({ version: '29.0' });
    const refused = async (field: Record<string, unknown>) =>
      (
        await t.call('POST', '/collections', {
          body: { name: 'v', fields: [field] }
        })
      ).json();
    try {
      await expect(
        refused({ name: 'v', type: 'float', num_dim: 3 })
      ).resolves.toEqual({
        message: 'Property `num_dim` is only allowed on a float array field.'
      });
      await expect(
        refused({ name: 'v', type: 'float[]', num_dim: 0 })
      ).resolves.toEqual({
        message: 'Property `num_dim` must be a positive integer.'
      });
      await expect(
        refused({ name: 'v', type: 'float[]', num_dim: 3, vec_dist: 'l2' })
      ).resolves.toEqual({ message: 'Property `vec_dist` is invalid.' });
      await expect(
        refused({ name: 'v', type: 'float[]', embed: { from: ['t'] } })
      ).resolves.toEqual({
        message: 'Property `embed.model_config` not found.'
      });
    } finally {
      await t.close();
    }
  });
});
