import { BOOKS_SCHEMA, book, start, type Running } from './helpers';

describe('Typesense sandbox: documents', () => {
  let t: Running;
  beforeAll(async () => {
    t = await start({ version: '29.0' });
    await t.call('POST', '/collections', { body: BOOKS_SCHEMA });
    await t.call('POST', '/collections', {
      body: { name: 'notes', fields: [{ name: '.*', type: 'auto' }] }
    });
  });
  afterAll(() => t.close());

  test('create answers 201 with the stored document and a generated numeric string id', async () => {
    const r = await t.call('POST', '/collections/books/documents', {
      body: book(0)
    });
    expect(r.status).toBe(201);
    expect(r.json()).toEqual({ ...book(0), id: '0' });
    const r2 = await t.call('POST', '/collections/books/documents', {
      body: book(1)
    });
    expect((r2.json() as { id: string }).id).toBe('1');
  });

  test('duplicate create: 409 A document with id X already exists.', async () => {
    const r = await t.call('POST', '/collections/books/documents', {
      body: { ...book(2), id: '0' }
    });
    expect([r.status, r.text]).toEqual([
      409,
      '{"message": "A document with id 0 already exists."}'
    ]);
  });

  test('upsert replaces, update merges, emplace creates or merges', async () => {
    const up = await t.call(
      'POST',
      '/collections/books/documents?action=upsert',
      { body: { ...book(5), id: 'u1' } }
    );
    expect(up.status).toBe(201);
    const upd = await t.call(
      'POST',
      '/collections/books/documents?action=update',
      { body: { id: 'u1', year: 2001 } }
    );
    expect(upd.status).toBe(201);
    expect(upd.json()).toMatchObject({
      id: 'u1',
      year: 2001,
      title: 'Book number 5'
    });
    const em = await t.call(
      'POST',
      '/collections/books/documents?action=emplace',
      { body: { ...book(6), id: 'e1' } }
    );
    expect(em.status).toBe(201);
    const em2 = await t.call(
      'POST',
      '/collections/books/documents?action=emplace',
      { body: { id: 'e1', rating: 4.5 } }
    );
    expect(em2.json()).toMatchObject({
      id: 'e1',
      rating: 4.5,
      title: 'Book number 6'
    });
    const missing = await t.call(
      'POST',
      '/collections/books/documents?action=update',
      { body: { id: 'zzz', year: 1 } }
    );
    expect([missing.status, missing.json()]).toEqual([
      404,
      { message: 'Could not find a document with id: zzz' }
    ]);
  });

  test('GET by id, and the 404 text', async () => {
    const r = await t.call('GET', '/collections/books/documents/0');
    expect([r.status, (r.json() as { id: string }).id]).toEqual([200, '0']);
    const m = await t.call('GET', '/collections/books/documents/nope');
    expect([m.status, m.text]).toEqual([
      404,
      '{"message": "Could not find a document with id: nope"}'
    ]);
  });

  test('PATCH merges and answers the full document', async () => {
    const r = await t.call('PATCH', '/collections/books/documents/1', {
      body: { year: 2020 }
    });
    expect(r.status).toBe(200);
    expect(r.json()).toEqual({ ...book(1), id: '1', year: 2020 });
  });

  test('PATCH refuses an id rewrite', async () => {
    const r = await t.call('PATCH', '/collections/books/documents/1', {
      body: { id: '2', year: 2020 }
    });
    expect([r.status, r.json()]).toEqual([
      400,
      {
        message:
          'The `id` of the resource does not match the `id` in the JSON body.'
      }
    ]);
  });

  test('PATCH on a missing document: 404', async () => {
    const r = await t.call('PATCH', '/collections/books/documents/missing', {
      body: { year: 2020 }
    });
    expect([r.status, r.json()]).toEqual([
      404,
      { message: 'Could not find a document with id: missing' }
    ]);
  });

  test('int32 refuses "5" and 5.5 without an auto schema', async () => {
    const s = await t.call('POST', '/collections/books/documents', {
      body: book(7, { year: '5' })
    });
    expect([s.status, s.text]).toEqual([
      400,
      '{"message": "Field `year` must be an int32."}'
    ]);
    const f = await t.call('POST', '/collections/books/documents', {
      body: book(7, { year: 5.5 })
    });
    expect([f.status, f.json()]).toEqual([
      400,
      { message: 'Field `year` must be an int32.' }
    ]);
  });

  test('other type texts: string, float, bool, array, int32 overflow', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 5 }, 'Field `title` must be a string.'],
      [{ rating: 'x' }, 'Field `rating` must be a float.'],
      [{ in_print: 'yes' }, 'Field `in_print` must be a bool.'],
      [{ tags: [1, 2] }, 'Field `tags` must be an array of string.'],
      [{ year: 3000000000 }, 'Field `year` exceeds maximum value of int32.']
    ];
    for (const [extra, message] of cases) {
      const r = await t.call('POST', '/collections/books/documents', {
        body: book(8, extra)
      });
      expect([r.status, r.json()]).toEqual([400, { message }]);
    }
  });

  test('dirty_values=coerce_or_reject coerces on request', async () => {
    const r = await t.call(
      'POST',
      '/collections/books/documents?dirty_values=coerce_or_reject',
      { body: book(9, { year: '1999' }) }
    );
    expect([r.status, (r.json() as { year: unknown }).year]).toEqual([
      201, 1999
    ]);
  });

  test('auto schema coerces numeric strings into learned int64 fields', async () => {
    await t.call('POST', '/collections/notes/documents', { body: { n: 1 } });
    const r = await t.call('POST', '/collections/notes/documents', {
      body: { n: '42' }
    });
    expect([r.status, (r.json() as { n: unknown }).n]).toEqual([201, 42]);
  });

  test('required field missing', async () => {
    const { author: _a, ...rest } = book(10);
    const r = await t.call('POST', '/collections/books/documents', {
      body: rest
    });
    expect([r.status, r.json()]).toEqual([
      400,
      {
        message:
          'Field `author` has been declared in the schema, but is not found in the document.'
      }
    ]);
  });

  test('a non-string id is refused', async () => {
    const r = await t.call('POST', '/collections/books/documents', {
      body: book(11, { id: 7 })
    });
    expect([r.status, r.json()]).toEqual([
      400,
      { message: "Document's `id` field should be a string." }
    ]);
  });

  test('malformed JSON: 400 Bad JSON: ...', async () => {
    const r = await t.call('POST', '/collections/books/documents', {
      raw: '{nope'
    });
    expect(r.status).toBe(400);
    expect(
      (r.json() as { message: string }).message.startsWith('Bad JSON: ')
    ).toBe(true);
  });

  test('DELETE by id answers the deleted document', async () => {
    await t.call('POST', '/collections/books/documents', {
      body: book(12, { id: 'd1' })
    });
    const r = await t.call('DELETE', '/collections/books/documents/d1');
    expect([r.status, r.json()]).toEqual([200, { ...book(12), id: 'd1' }]);
    const again = await t.call('DELETE', '/collections/books/documents/d1');
    expect([again.status, again.json()]).toEqual([
      404,
      { message: 'Could not find a document with id: d1' }
    ]);
  });

  test('DELETE by filter_by answers num_deleted', async () => {
    for (let i = 100; i < 105; i++) {
      await t.call('POST', '/collections/books/documents', {
        body: book(i, { id: `f${i}`, year: 1800 })
      });
    }
    const r = await t.call(
      'DELETE',
      '/collections/books/documents?filter_by=year:1800'
    );
    expect([r.status, r.text]).toEqual([200, '{"num_deleted":5}']);
  });

  test('DELETE without filter_by: 400 Parameter `filter_by` must be provided.', async () => {
    const r = await t.call('DELETE', '/collections/books/documents');
    expect([r.status, r.json()]).toEqual([
      400,
      { message: 'Parameter `filter_by` must be provided.' }
    ]);
  });

  test('truncate=true empties the collection and keeps learned fields (28+)', async () => {
    const before = (await t.call('GET', '/collections/notes')).json() as {
      num_documents: number;
      fields: unknown[];
    };
    const r = await t.call(
      'DELETE',
      '/collections/notes/documents?truncate=true'
    );
    expect([r.status, r.json()]).toEqual([
      200,
      { num_deleted: before.num_documents }
    ]);
    const after = (await t.call('GET', '/collections/notes')).json() as {
      num_documents: number;
      fields: unknown[];
    };
    expect(after.num_documents).toBe(0);
    expect(after.fields).toEqual(before.fields);
  });

  test('29+: missing collection on document endpoints is "Collection not found"', async () => {
    const r = await t.call('GET', '/collections/nope/documents/1');
    expect([r.status, r.text]).toEqual([
      404,
      '{"message": "Collection not found"}'
    ]);
  });
});

describe('Typesense sandbox: document facts before 28/29', () => {
  let t: Running;
  beforeAll(async () => {
    t = await start({ version: '27.1' });
    await t.call('POST', '/collections', {
      body: { name: 'c', fields: [{ name: 'a', type: 'string' }] }
    });
  });
  afterAll(() => t.close());

  test('truncate=true is not known before 28: 400 Parameter `filter_by` must be provided.', async () => {
    const r = await t.call('DELETE', '/collections/c/documents?truncate=true');
    expect([r.status, r.text]).toEqual([
      400,
      '{"message": "Parameter `filter_by` must be provided."}'
    ]);
  });

  test('missing collection on document endpoints is "Not Found" before 29', async () => {
    const r = await t.call('GET', '/collections/nope/documents/1');
    expect([r.status, r.text]).toEqual([404, '{"message": "Not Found"}']);
  });
});
