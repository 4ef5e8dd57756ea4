/** Synonyms in each version's shape (per collection up to 29, global sets in 30), and in search. */
import { start, type Running } from './helpers';

const SCHEMA = { name: 'clothes', fields: [{ name: 'title', type: 'string' }] };
const DOCS = [
  { id: '1', title: 'blue blazer' },
  { id: '2', title: 'navy coat' },
  { id: '3', title: 'sweater' },
  { id: '4', title: 'red pullover' }
];

async function seed(t: Running): Promise<void> {
  await t.call('POST', '/collections', { body: SCHEMA });
  t.sandbox.loadDocuments('clothes', DOCS);
}

async function ids(t: Running, q: string, extra = ''): Promise<string[]> {
  const r = await t.call(
    'GET',
    `/collections/clothes/documents/search?q=${encodeURIComponent(q)}&query_by=title${extra}`
  );
  return (r.json() as { hits: { document: { id: string } }[] }).hits
    .map(h => h.document.id)
    .sort();
}

describe.each(['26.0', '29.0'])(
  'Typesense sandbox %s: per-collection synonyms',
  version => {
    let t: Running;
    beforeAll(async () => {
      t = await start({ version });
      await seed(t);
    });
    afterAll(() => t.close());

    test('PUT echoes the body with its id; GET answers the stored view', async () => {
      const put = await t.call('PUT', '/collections/clothes/synonyms/knit', {
        body: { synonyms: ['sweater', 'pullover', 'jumper'] }
      });
      expect([put.status, put.text]).toEqual([
        200,
        '{"id":"knit","synonyms":["sweater","pullover","jumper"]}'
      ]);
      const got = await t.call('GET', '/collections/clothes/synonyms/knit');
      expect(got.text).toBe(
        '{"id":"knit","root":"","synonyms":["sweater","pullover","jumper"]}'
      );
      await t.call('PUT', '/collections/clothes/synonyms/jacket', {
        body: { root: 'blazer', synonyms: ['coat'] }
      });
      const list = await t.call('GET', '/collections/clothes/synonyms');
      expect(list.json()).toEqual({
        synonyms: [
          { id: 'knit', root: '', synonyms: ['sweater', 'pullover', 'jumper'] },
          { id: 'jacket', root: 'blazer', synonyms: ['coat'] }
        ]
      });
    });

    test('search: multi-way synonyms find every member; one-way only from the root', async () => {
      expect(await ids(t, 'jumper')).toEqual(['3', '4']);
      expect(await ids(t, 'blazer')).toEqual(['1', '2']);
      expect(await ids(t, 'coat')).toEqual(['2']);
      expect(await ids(t, 'jumper', '&enable_synonyms=false')).toEqual([]);
      // A definition for another locale than the field's does not apply.
      await t.call('PUT', '/collections/clothes/synonyms/fr', {
        body: { synonyms: ['lamp', 'sweater'], locale: 'fr' }
      });
      expect(await ids(t, 'lamp')).toEqual([]);
      await t.call('DELETE', '/collections/clothes/synonyms/fr');
    });

    test('a hit found through a synonym highlights the synonym it matched', async () => {
      const r = await t.call(
        'GET',
        '/collections/clothes/documents/search?q=jumper&query_by=title'
      );
      const hit = (
        r.json() as {
          hits: { document: { id: string }; highlights: unknown[] }[];
        }
      ).hits.find(h => h.document.id === '4');
      expect(hit?.highlights).toEqual([
        {
          field: 'title',
          matched_tokens: ['pullover'],
          snippet: 'red <mark>pullover</mark>'
        }
      ]);
    });

    test('refusals and DELETE', async () => {
      const bad = await t.call('PUT', '/collections/clothes/synonyms/x', {
        body: { synonyms: [] }
      });
      expect([bad.status, bad.json()]).toEqual([
        400,
        { message: 'Could not find a valid string array of `synonyms`' }
      ]);
      const root = await t.call('PUT', '/collections/clothes/synonyms/x', {
        body: { root: ['a'], synonyms: ['b'] }
      });
      expect(root.json()).toEqual({
        message: 'Key `root` should be a string.'
      });
      const none = await t.call('PUT', '/collections/clothes/synonyms/x', {
        body: { root: 'a' }
      });
      expect(none.json()).toEqual({
        message: 'Could not find an array of `synonyms`'
      });
      const missing = await t.call('GET', '/collections/clothes/synonyms/zz');
      expect([missing.status, missing.text]).toEqual([
        404,
        '{"message": "Not Found"}'
      ]);
      const del = await t.call('DELETE', '/collections/clothes/synonyms/knit');
      expect([del.status, del.text]).toEqual([200, '{"id":"knit"}']);
      const again = await t.call(
        'DELETE',
        '/collections/clothes/synonyms/knit'
      );
      expect([again.status, again.json()]).toEqual([
        404,
        { message: 'Could not find that `id`.' }
      ]);
      expect(await ids(t, 'jumper')).toEqual([]);
      const noColl = await t.call('GET', '/collections/ghost/synonyms');
      expect([noColl.status, noColl.json()]).toEqual([
        404,
        { message: version === '29.0' ? 'Collection not found' : 'Not Found' }
      ]);
    });

    test('the 30 synonym-set routes do not exist before 30', async () => {
      const r = await t.call('GET', '/synonym_sets');
      expect([r.status, r.text]).toEqual([404, '{ "message": "Not Found"}']);
    });
  }
);

describe('Typesense sandbox 30.0: synonym sets', () => {
  let t: Running;
  beforeAll(async () => {
    t = await start({ version: '30.0' });
    await seed(t);
  });
  afterAll(() => t.close());

  test('PUT a set answers its view; list, get', async () => {
    const put = await t.call('PUT', '/synonym_sets/wardrobe', {
      body: {
        items: [
          { id: 'knit', synonyms: ['sweater', 'pullover', 'jumper'] },
          { id: 'jacket', root: 'blazer', synonyms: ['coat'] }
        ]
      }
    });
    expect([put.status, put.text]).toEqual([
      200,
      '{"items":[{"id":"knit","root":"","synonyms":["sweater","pullover","jumper"]},{"id":"jacket","root":"blazer","synonyms":["coat"]}],"name":"wardrobe"}'
    ]);
    expect((await t.call('GET', '/synonym_sets')).json()).toEqual([put.json()]);
    expect((await t.call('GET', '/synonym_sets/wardrobe')).json()).toEqual(
      put.json()
    );
  });

  test('a set applies once the collection names it (PATCH synonym_sets) or the search does', async () => {
    expect(await ids(t, 'jumper')).toEqual([]);
    expect(await ids(t, 'jumper', '&synonym_sets=wardrobe')).toEqual([
      '3',
      '4'
    ]);
    const unknown = await t.call('PATCH', '/collections/clothes', {
      body: { synonym_sets: ['ghost'] }
    });
    expect([unknown.status, unknown.json()]).toEqual([
      404,
      { message: 'Synonym set `ghost` not found.' }
    ]);
    const patch = await t.call('PATCH', '/collections/clothes', {
      body: { synonym_sets: ['wardrobe'] }
    });
    expect([patch.status, patch.text]).toEqual([
      200,
      '{"synonym_sets":["wardrobe"]}'
    ]);
    expect((await t.call('GET', '/collections/clothes')).json()).toMatchObject({
      synonym_sets: ['wardrobe'],
      curation_sets: []
    });
    expect(await ids(t, 'blazer')).toEqual(['1', '2']);
  });

  test('items: PUT echoes, GET, list, DELETE; changes apply to search at once', async () => {
    const put = await t.call('PUT', '/synonym_sets/wardrobe/items/knit', {
      body: { synonyms: ['sweater', 'cardigan'] }
    });
    expect([put.status, put.text]).toEqual([
      200,
      '{"id":"knit","synonyms":["sweater","cardigan"]}'
    ]);
    expect(
      (await t.call('GET', '/synonym_sets/wardrobe/items/knit')).text
    ).toBe('{"id":"knit","root":"","synonyms":["sweater","cardigan"]}');
    expect(
      (
        (
          await t.call('GET', '/synonym_sets/wardrobe/items')
        ).json() as unknown[]
      ).length
    ).toBe(2);
    expect(await ids(t, 'jumper')).toEqual([]);
    expect(await ids(t, 'cardigan')).toEqual(['3']);
    const del = await t.call('DELETE', '/synonym_sets/wardrobe/items/knit');
    expect([del.status, del.text]).toEqual([200, '{"id":"knit"}']);
    const miss = await t.call('GET', '/synonym_sets/wardrobe/items/knit');
    expect([miss.status, miss.json()]).toEqual([404, { message: 'Not Found' }]);
  });

  test('refusals; DELETE a set; per-collection routes are gone in 30', async () => {
    const noItems = await t.call('PUT', '/synonym_sets/x', { body: {} });
    expect([noItems.status, noItems.json()]).toEqual([
      400,
      { message: "Missing or invalid 'items' field" }
    ]);
    const noId = await t.call('PUT', '/synonym_sets/x', {
      body: { items: [{ synonyms: ['a'] }] }
    });
    expect(noId.json()).toEqual({ message: 'Missing `id` field.' });
    const unknown = await t.call('GET', '/synonym_sets/ghost');
    expect([unknown.status, unknown.json()]).toEqual([
      404,
      { message: 'Synonym index not found' }
    ]);
    const del = await t.call('DELETE', '/synonym_sets/wardrobe');
    expect([del.status, del.text]).toEqual([200, '{"name":"wardrobe"}']);
    expect(await ids(t, 'blazer')).toEqual(['1']);
    const old = await t.call('PUT', '/collections/clothes/synonyms/knit', {
      body: { synonyms: ['a', 'b'] }
    });
    expect([old.status, old.text]).toEqual([404, '{ "message": "Not Found"}']);
  });
});
