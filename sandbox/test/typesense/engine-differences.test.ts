/**
 * Typesense answers the sandbox reproduces from the engine's sources
 * (sandbox/src/typesense/FACTS.md), each checked over HTTP per version.
 */
import { book, BOOKS_SCHEMA, start, type Running } from './helpers';

const SMALL = {
  name: 'small',
  fields: [
    { name: 'title', type: 'string' },
    { name: 'brand', type: 'string', facet: true },
    { name: 'price', type: 'int32' }
  ]
};

describe.each(['26.0', '29.0', '30.0'])(
  'Typesense sandbox %s: answers as the engine does',
  version => {
    let t: Running;
    const major = Number(version.split('.')[0]);
    beforeAll(async () => {
      t = await start({ version });
      await t.call('POST', '/collections', { body: BOOKS_SCHEMA });
      t.sandbox.loadDocuments(
        'books',
        Array.from({ length: 30 }, (_, i) => ({ ...book(i), id: `b${i}` }))
      );
      await t.call('POST', '/collections', { body: SMALL });
      t.sandbox.loadDocuments('small', [
        { id: 's1', title: 'red shoe', brand: 'acme', price: 30 },
        { id: 's2', title: 'blue shoe', brand: 'acme', price: 10 },
        { id: 's3', title: 'red hat', brand: 'zenith', price: 20 },
        { id: 's4', title: 'green shoe', brand: 'zenith', price: 40 },
        { id: 's5', title: 'shoe horn', brand: 'other', price: 5 }
      ]);
    });
    afterAll(() => t.close());

    test('PATCH /collections/:c adds and drops fields and echoes the change, drops first', async () => {
      await t.call('POST', '/collections', {
        body: {
          name: 'alter_me',
          fields: [
            { name: 'a', type: 'string' },
            { name: 'b', type: 'int32' }
          ]
        }
      });
      const r = await t.call('PATCH', '/collections/alter_me', {
        body: {
          fields: [
            { name: 'c', type: 'string', facet: true },
            { name: 'b', drop: true }
          ]
        }
      });
      expect(r.status).toBe(200);
      // Up to 28 the fields come back as sent; from 29 an added one with the engine's defaults.
      expect(r.json()).toEqual({
        fields: [
          { drop: true, name: 'b' },
          major >= 29
            ? expect.objectContaining({
                facet: true,
                name: 'c',
                type: 'string',
                index: true,
                optional: false,
                sort: false
              })
            : { facet: true, name: 'c', type: 'string' }
        ]
      });
      const s = (await t.call('GET', '/collections/alter_me')).json() as {
        fields: { name: string; facet: boolean }[];
      };
      expect(s.fields.map(f => [f.name, f.facet])).toEqual([
        ['a', false],
        ['c', true]
      ]);
    });

    test('PATCH refusals carry the engine texts', async () => {
      const again = await t.call('PATCH', '/collections/alter_me', {
        body: { fields: [{ name: 'a', type: 'string' }] }
      });
      expect([again.status, again.json()]).toEqual([
        400,
        {
          message:
            'Field `a` is already part of the schema: To change this field, drop it first before adding it back to the schema.'
        }
      ]);
      const gone = await t.call('PATCH', '/collections/alter_me', {
        body: { fields: [{ name: 'zz', drop: true }] }
      });
      expect([gone.status, gone.json()]).toEqual([
        400,
        { message: 'Field `zz` is not part of collection schema.' }
      ]);
      const other = await t.call('PATCH', '/collections/alter_me', {
        body: { name: 'x' }
      });
      const only = [
        'Only `fields` can be updated at the moment.',
        'Only `fields` and `metadata` can be updated at the moment.'
      ];
      expect(other.json()).toEqual({
        message:
          major >= 30
            ? 'Only `fields`, `metadata` and `synonym_sets` can be updated at the moment.'
            : only[major >= 27 ? 1 : 0]
      });
      const missing = await t.call('PATCH', '/collections/nope', {
        body: { fields: [{ name: 'x', type: 'string' }] }
      });
      expect([missing.status, missing.json()]).toEqual([
        404,
        { message: major >= 29 ? 'Collection not found' : 'Not Found' }
      ]);
    });

    test('field objects carry truncate_len (100) from 30 only', async () => {
      const s = (await t.call('GET', '/collections/small')).json() as {
        fields: Record<string, unknown>[];
      };
      if (major >= 30) {
        expect(s.fields[0]).toMatchObject({ name: 'title', truncate_len: 100 });
      } else {
        expect(s.fields[0]).not.toHaveProperty('truncate_len');
      }
    });

    test('GET /collections?exclude_fields=fields leaves the fields out (27+; 26 ignores it)', async () => {
      const list = (
        await t.call('GET', '/collections?exclude_fields=fields')
      ).json() as Record<string, unknown>[];
      expect(list.length).toBeGreaterThan(1);
      for (const c of list) {
        expect(Object.prototype.hasOwnProperty.call(c, 'fields')).toBe(
          major < 27
        );
      }
      expect(list[0]).toHaveProperty('num_documents');
    });

    test('GET /collections pages with offset and limit', async () => {
      const all = (
        (await t.call('GET', '/collections')).json() as { name: string }[]
      ).map(c => c.name);
      const page = (
        (await t.call('GET', '/collections?offset=1&limit=1')).json() as {
          name: string;
        }[]
      ).map(c => c.name);
      expect(page).toEqual(all.slice(1, 2));
      const past = await t.call('GET', `/collections?offset=${all.length}`);
      expect([past.status, past.json()]).toEqual([
        400,
        { message: 'Invalid offset param.' }
      ]);
    });

    test('POST /collections?src_name= copies the source schema, not its documents', async () => {
      const r = await t.call('POST', '/collections?src_name=small', {
        body: { name: 'small_copy' }
      });
      expect(r.status).toBe(201);
      const body = r.json() as {
        name: string;
        num_documents: number;
        fields: { name: string }[];
      };
      expect([
        body.name,
        body.num_documents,
        body.fields.map(f => f.name)
      ]).toEqual(['small_copy', 0, ['title', 'brand', 'price']]);
      const missing = await t.call('POST', '/collections?src_name=nope', {
        body: { name: 'x2' }
      });
      expect([missing.status, missing.json()]).toEqual([
        400,
        { message: 'Collection with name `nope` not found.' }
      ]);
    });

    test('group_by answers grouped_hits with found (groups) and found_docs', async () => {
      const r = await t.call(
        'GET',
        '/collections/small/documents/search?q=*&group_by=brand&group_limit=1&sort_by=price:desc'
      );
      expect(r.status).toBe(200);
      const body = r.json() as Record<string, unknown> & {
        grouped_hits: {
          found: number;
          group_key: string[];
          hits: { document: { id: string } }[];
        }[];
      };
      expect(body).not.toHaveProperty('hits');
      expect([body.found, body.found_docs]).toEqual([3, 5]);
      expect(
        body.grouped_hits.map(g => [
          g.group_key,
          g.found,
          g.hits.map(h => h.document.id)
        ])
      ).toEqual([
        [['zenith'], 2, ['s4']],
        [['acme'], 2, ['s1']],
        [['other'], 1, ['s5']]
      ]);
      const notFacet = await t.call(
        'GET',
        '/collections/small/documents/search?q=*&group_by=title'
      );
      expect([notFacet.status, notFacet.text]).toEqual([
        400,
        '{"message":"Group by field `title` should be a facet field."}'
      ]);
    });

    test('DELETE a missing document with ignore_not_found=true: 200 {"id"}', async () => {
      const r = await t.call(
        'DELETE',
        '/collections/small/documents/zzz?ignore_not_found=true'
      );
      expect([r.status, r.text]).toEqual([200, '{"id":"zzz"}']);
      const plain = await t.call('DELETE', '/collections/small/documents/zzz');
      expect([plain.status, plain.json()]).toEqual([
        404,
        { message: 'Could not find a document with id: zzz' }
      ]);
    });

    test('blank lines in a JSONL import are skipped, not reported', async () => {
      const raw =
        '{"id":"i1","title":"a","brand":"b","price":1}\n\n   \n{"id":"i2","title":"c","brand":"d","price":2}\n';
      const r = await t.call(
        'POST',
        '/collections/small_copy/documents/import',
        { raw }
      );
      expect([r.status, r.text]).toEqual([
        200,
        '{"success":true}\n{"success":true}'
      ]);
    });

    if (major >= 28) {
      test('union multi_search merges by sort_by and writes full hits', async () => {
        const r = await t.call('POST', '/multi_search', {
          body: {
            union: true,
            searches: [
              {
                collection: 'small',
                q: 'shoe',
                query_by: 'title',
                sort_by: 'price:asc'
              },
              {
                collection: 'books',
                q: 'number',
                query_by: 'title',
                filter_by: 'ratings_count:<=20',
                sort_by: 'ratings_count:asc'
              }
            ]
          }
        });
        expect(r.status).toBe(200);
        const body = r.json() as {
          found: number;
          hits: Record<string, unknown>[];
        };
        expect(body.found).toBe(7);
        const order = body.hits.map(h => (h.document as { id: string }).id);
        // small by price (5, 10, 30, 40) and books by ratings_count (0, 10, 20), merged on the first search's sort key.
        expect(order).toEqual(['b0', 's5', 's2', 'b1', 'b2', 's1', 's4']);
        const first = body.hits.find(
          h => (h.document as { id: string }).id === 's5'
        ) as Record<string, unknown>;
        expect(first).toMatchObject({ collection: 'small', search_index: 0 });
        expect(first.text_match_info).toMatchObject({ tokens_matched: 1 });
        expect(first.highlights).toEqual([
          {
            field: 'title',
            matched_tokens: ['shoe'],
            snippet: '<mark>shoe</mark> horn'
          }
        ]);
      });

      test("union over a missing collection: the engine's code and error", async () => {
        const r = await t.call('POST', '/multi_search', {
          body: {
            union: true,
            searches: [
              { collection: 'small', q: '*' },
              { collection: 'ghost', q: '*' }
            ]
          }
        });
        expect([r.status, r.json()]).toEqual([
          200,
          { code: 404, error: '`ghost` collection not found.' }
        ]);
      });
    }
  }
);
