/** Presets and stopword sets: their endpoints and how searches use them. */
import { start, type Running } from './helpers';

const SCHEMA = {
  name: 'notes',
  fields: [
    { name: 'text', type: 'string' },
    { name: 'rank', type: 'int32' }
  ]
};
const DOCS = [
  { id: '1', text: 'the cat sat', rank: 3 },
  { id: '2', text: 'a cat and the dog', rank: 1 },
  { id: '3', text: 'the end', rank: 2 }
];

describe.each(['26.0', '30.0'])(
  'Typesense sandbox %s: presets and stopwords',
  version => {
    let t: Running;
    beforeAll(async () => {
      t = await start({ version });
      await t.call('POST', '/collections', { body: SCHEMA });
      t.sandbox.loadDocuments('notes', DOCS);
    });
    afterAll(() => t.close());

    test('presets: PUT echoes with the name; GET one and all; missing is 404 Not found.', async () => {
      const put = await t.call('PUT', '/presets/by_rank', {
        body: { value: { query_by: 'text', sort_by: 'rank:asc', per_page: 2 } }
      });
      expect([put.status, put.text]).toEqual([
        200,
        '{"name":"by_rank","value":{"per_page":2,"query_by":"text","sort_by":"rank:asc"}}'
      ]);
      expect((await t.call('GET', '/presets/by_rank')).json()).toEqual(
        put.json()
      );
      expect((await t.call('GET', '/presets')).json()).toEqual({
        presets: [put.json()]
      });
      const missing = await t.call('GET', '/presets/ghost');
      expect([missing.status, missing.text]).toEqual([
        404,
        '{"message": "Not found."}'
      ]);
      const noValue = await t.call('PUT', '/presets/x', { body: {} });
      expect([noValue.status, noValue.json()]).toEqual([
        400,
        { message: 'Parameter `value` is required.' }
      ]);
    });

    test("a search with preset= takes its parameters; the request's own win", async () => {
      const r = await t.call(
        'GET',
        '/collections/notes/documents/search?q=cat&preset=by_rank'
      );
      const body = r.json() as {
        hits: { document: { id: string } }[];
        request_params: { per_page: number };
      };
      expect(body.hits.map(h => h.document.id)).toEqual(['2', '1']);
      expect(body.request_params.per_page).toBe(2);
      const own = await t.call(
        'GET',
        '/collections/notes/documents/search?q=cat&preset=by_rank&sort_by=rank:desc'
      );
      expect(
        (own.json() as { hits: { document: { id: string } }[] }).hits.map(
          h => h.document.id
        )
      ).toEqual(['1', '2']);
      const multi = await t.call('POST', '/multi_search', {
        body: {
          searches: [{ collection: 'notes', q: 'the', preset: 'by_rank' }]
        }
      });
      expect(
        (multi.json() as { results: { found: number; hits: unknown[] }[] })
          .results[0]
      ).toMatchObject({ found: 3 });
    });

    test('a multi_search preset holding searches stands for the whole body', async () => {
      await t.call('PUT', '/presets/pair', {
        body: {
          value: {
            searches: [
              { collection: 'notes', q: '*' },
              { collection: 'notes', q: 'dog', query_by: 'text' }
            ]
          }
        }
      });
      const r = await t.call('POST', '/multi_search?preset=pair', { body: {} });
      expect(
        (r.json() as { results: { found: number }[] }).results.map(x => x.found)
      ).toEqual([3, 1]);
    });

    test('DELETE a preset answers it', async () => {
      const del = await t.call('DELETE', '/presets/pair');
      expect(del.status).toBe(200);
      expect(del.json()).toMatchObject({ name: 'pair' });
      expect((await t.call('DELETE', '/presets/pair')).status).toBe(404);
    });

    test('stopwords: PUT echoes with the id; GET wraps the set; list', async () => {
      const put = await t.call('PUT', '/stopwords/english', {
        body: { stopwords: ['the', 'a', 'And'], locale: 'en' }
      });
      expect([put.status, put.text]).toEqual([
        200,
        '{"id":"english","locale":"en","stopwords":["the","a","And"]}'
      ]);
      // The engine keeps a hash set: the tokens come back lower-cased, once each, in its order.
      const got = (await t.call('GET', '/stopwords/english')).json() as {
        stopwords: { id: string; locale: string; stopwords: string[] };
      };
      expect(got.stopwords).toMatchObject({ id: 'english', locale: 'en' });
      expect([...got.stopwords.stopwords].sort()).toEqual(['a', 'and', 'the']);
      expect((await t.call('GET', '/stopwords')).json()).toEqual({
        stopwords: [got.stopwords]
      });
    });

    test('a search with stopwords= drops those words from the query', async () => {
      const idsFor = async (qs: string): Promise<string[]> =>
        (
          (
            await t.call(
              'GET',
              `/collections/notes/documents/search?query_by=text&${qs}`
            )
          ).json() as { hits: { document: { id: string } }[] }
        ).hits.map(h => h.document.id);
      // Without the set, nothing holds both words and dropping from the right leaves "a".
      expect(await idsFor('q=a%20sat')).toEqual(['2']);
      expect(await idsFor('q=a%20sat&stopwords=english')).toEqual(['1']);
      const unknown = await t.call(
        'GET',
        '/collections/notes/documents/search?q=cat&query_by=text&stopwords=ghost'
      );
      expect([unknown.status, unknown.text]).toEqual([
        404,
        '{"message":"Could not find the stopword set named `ghost`."}'
      ]);
    });

    test('stopword refusals and DELETE', async () => {
      const none = await t.call('PUT', '/stopwords/x', { body: {} });
      expect([none.status, none.json()]).toEqual([
        400,
        { message: 'Parameter `stopwords` is required' }
      ]);
      const empty = await t.call('PUT', '/stopwords/x', {
        body: { stopwords: [] }
      });
      expect(empty.json()).toEqual({
        message: 'Parameter `stopwords` is empty'
      });
      const notStrings = await t.call('PUT', '/stopwords/x', {
        body: { stopwords: [1] }
      });
      expect(notStrings.json()).toEqual({
        message: 'Parameter `stopwords` is required as string array value'
      });
      const del = await t.call('DELETE', '/stopwords/english');
      expect([del.status, del.text]).toEqual([200, '{"id":"english"}']);
      const again = await t.call('GET', '/stopwords/english');
      expect([again.status, again.json()]).toEqual([
        404,
        { message: 'Stopword `english` not found.' }
      ]);
    });
  }
);
