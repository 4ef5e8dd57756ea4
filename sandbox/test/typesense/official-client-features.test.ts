/**
 * The official typesense JS client (v3) drives aliases, synonyms, curation, presets, stopwords,
 * schema changes and operations against the sandbox: 29 for the per-collection forms, 30 for the sets.
 */
import Typesense from 'typesense';
import type { CollectionCreateSchema } from 'typesense/lib/Typesense/Collections';
import { ADMIN_KEY, start, type Running } from './helpers';

const SCHEMA = {
  name: 'items_v1',
  fields: [
    { name: 'title', type: 'string' },
    { name: 'price', type: 'int32' }
  ]
} as CollectionCreateSchema;
const DOCS = [
  { id: '1', title: 'wool sweater', price: 40 },
  { id: '2', title: 'cotton pullover', price: 30 },
  { id: '3', title: 'desk lamp', price: 20 }
];

function clientFor(t: Running): InstanceType<typeof Typesense.Client> {
  return new Typesense.Client({
    nodes: [{ host: '127.0.0.1', port: t.server.port, protocol: 'http' }],
    apiKey: ADMIN_KEY,
    numRetries: 0,
    connectionTimeoutSeconds: 5,
    logLevel: 'silent'
  });
}

const ids = (r: { hits?: { document: unknown }[] }): string[] =>
  (r.hits ?? []).map(h => (h.document as { id: string }).id);

describe('official typesense client against the 29.0 sandbox', () => {
  let t: Running;
  let client: InstanceType<typeof Typesense.Client>;
  beforeAll(async () => {
    // The client warns that per-collection synonyms and overrides are deprecated from 30; 29 is the version they belong to.
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    t = await start({ version: '29.0' });
    client = clientFor(t);
    await client.collections().create(SCHEMA);
    await client.collections('items_v1').documents().import(DOCS);
  });
  afterAll(() => t.close());

  test('aliases: upsert, retrieve, search through, delete', async () => {
    expect(
      await client.aliases().upsert('items', { collection_name: 'items_v1' })
    ).toEqual({ collection_name: 'items_v1', name: 'items' });
    expect((await client.aliases().retrieve()).aliases).toEqual([
      { collection_name: 'items_v1', name: 'items' }
    ]);
    expect(await client.aliases('items').retrieve()).toEqual({
      collection_name: 'items_v1',
      name: 'items'
    });
    const r = await client
      .collections('items')
      .documents()
      .search({ q: 'lamp', query_by: 'title' });
    expect(ids(r)).toEqual(['3']);
    expect(await client.aliases('items').delete()).toEqual({
      collection_name: 'items_v1',
      name: 'items'
    });
  });

  test('synonyms: upsert, retrieve, applied in search, delete', async () => {
    await client
      .collections('items_v1')
      .synonyms()
      .upsert('knit', { synonyms: ['sweater', 'pullover'] });
    expect(
      (await client.collections('items_v1').synonyms().retrieve()).synonyms
    ).toHaveLength(1);
    expect(
      await client.collections('items_v1').synonyms('knit').retrieve()
    ).toMatchObject({ id: 'knit', synonyms: ['sweater', 'pullover'] });
    const r = await client
      .collections('items_v1')
      .documents()
      .search({ q: 'pullover', query_by: 'title' });
    expect(ids(r).sort()).toEqual(['1', '2']);
    expect(
      await client.collections('items_v1').synonyms('knit').delete()
    ).toEqual({ id: 'knit' });
  });

  test('overrides: upsert, retrieve, applied in search, delete', async () => {
    await client
      .collections('items_v1')
      .overrides()
      .upsert('lamp-first', {
        rule: { query: 'sweater', match: 'exact' },
        includes: [{ id: '3', position: 1 }]
      });
    expect(
      (await client.collections('items_v1').overrides().retrieve()).overrides
    ).toHaveLength(1);
    const r = await client
      .collections('items_v1')
      .documents()
      .search({ q: 'sweater', query_by: 'title' });
    expect(ids(r)).toEqual(['3', '1']);
    expect(
      await client.collections('items_v1').overrides('lamp-first').delete()
    ).toEqual({ id: 'lamp-first' });
  });

  test('presets and stopwords: upsert, retrieve, used by search, delete', async () => {
    await client.presets().upsert('cheap_first', {
      value: { query_by: 'title', sort_by: 'price:asc' }
    });
    expect((await client.presets().retrieve()).presets).toHaveLength(1);
    await client.stopwords().upsert('common', { stopwords: ['desk', 'wool'] });
    const common = (await client.stopwords('common').retrieve()).stopwords;
    expect(common).toMatchObject({ id: 'common' });
    expect([...(common as { stopwords: string[] }).stopwords].sort()).toEqual([
      'desk',
      'wool'
    ]);
    const r = await client.collections('items_v1').documents().search({
      q: 'wool sweater',
      preset: 'cheap_first',
      stopwords: 'common'
    });
    expect(ids(r)).toEqual(['1']);
    await client.presets('cheap_first').delete();
    await client.stopwords('common').delete();
    expect((await client.stopwords().retrieve()).stopwords).toEqual([]);
  });

  test('schema change with collection update; vote and cache clear', async () => {
    const changed = await client
      .collections('items_v1')
      .update({ fields: [{ name: 'colour', type: 'string', optional: true }] });
    expect(changed.fields?.map(f => f.name)).toEqual(['colour']);
    expect(
      (await client.collections('items_v1').retrieve()).fields?.map(f => f.name)
    ).toEqual(['title', 'price', 'colour']);
    expect(await client.operations.perform('vote')).toEqual({ success: true });
    expect(await client.operations.perform('cache/clear')).toEqual({
      success: true
    });
  });
});

describe('official typesense client against the 30.0 sandbox', () => {
  let t: Running;
  let client: InstanceType<typeof Typesense.Client>;
  beforeAll(async () => {
    t = await start({ version: '30.0' });
    client = clientFor(t);
    await client.collections().create(SCHEMA);
    await client.collections('items_v1').documents().import(DOCS);
  });
  afterAll(() => t.close());

  test('synonym sets: upsert, items, attach to the collection, search, delete', async () => {
    await client
      .synonymSets('clothes')
      .upsert({ items: [{ id: 'knit', synonyms: ['sweater', 'pullover'] }] });
    expect((await client.synonymSets().retrieve()).map(s => s.name)).toEqual([
      'clothes'
    ]);
    expect(await client.synonymSets('clothes').items().retrieve()).toHaveLength(
      1
    );
    await client.collections('items_v1').update({ synonym_sets: ['clothes'] });
    const r = await client
      .collections('items_v1')
      .documents()
      .search({ q: 'pullover', query_by: 'title' });
    expect(ids(r).sort()).toEqual(['1', '2']);
    expect(await client.synonymSets('clothes').delete()).toEqual({
      name: 'clothes'
    });
  });

  test('curation sets: upsert, items, attach, search, delete', async () => {
    await client.curationSets('promos').upsert({
      items: [
        {
          id: 'lamp',
          rule: { query: 'sweater', match: 'exact' },
          includes: [{ id: '3', position: 1 }]
        }
      ]
    });
    expect((await client.curationSets().retrieve()).map(s => s.name)).toEqual([
      'promos'
    ]);
    expect(await client.curationSets('promos').items().retrieve()).toHaveLength(
      1
    );
    await client.collections('items_v1').update({ curation_sets: ['promos'] });
    const r = await client
      .collections('items_v1')
      .documents()
      .search({ q: 'sweater', query_by: 'title' });
    expect(ids(r)).toEqual(['3', '1']);
    expect(await client.curationSets('promos').delete()).toEqual({
      name: 'promos'
    });
  });

  test('schema changes in progress: none', async () => {
    expect(await client.operations.getSchemaChanges()).toEqual([]);
  });
});
