import { ADMIN_KEY, start, type Running } from './helpers';

const FORBIDDEN =
  '{"message": "Forbidden - a valid `x-typesense-api-key` header must be sent."}';

describe('Typesense sandbox: authentication and API keys', () => {
  let t: Running;
  beforeAll(async () => {
    t = await start();
    await t.call('POST', '/collections', {
      body: { name: 'books', fields: [{ name: 'title', type: 'string' }] }
    });
    await t.call('POST', '/collections', {
      body: { name: 'notes', fields: [{ name: '.*', type: 'auto' }] }
    });
  });
  afterAll(() => t.close());

  test('a missing key answers 401 with the exact body', async () => {
    const r = await t.call('GET', '/collections', { key: null });
    expect(r.status).toBe(401);
    expect(r.text).toBe(FORBIDDEN);
  });

  test('a wrong key answers the same 401', async () => {
    const r = await t.call('GET', '/collections', { key: 'wrong' });
    expect([r.status, r.text]).toEqual([401, FORBIDDEN]);
  });

  test('the key may come as a query parameter', async () => {
    const r = await t.call(
      'GET',
      `/collections?x-typesense-api-key=${ADMIN_KEY}`,
      { key: null }
    );
    expect(r.status).toBe(200);
  });

  test('/health needs no key', async () => {
    const r = await t.call('GET', '/health', { key: null });
    expect([r.status, r.text]).toEqual([200, '{"ok":true}']);
  });

  test('unknown routes answer 404 before authentication', async () => {
    const r = await t.call('GET', '/nope', { key: null });
    expect([r.status, r.text]).toEqual([404, '{ "message": "Not Found"}']);
  });

  test('POST /keys returns the full value once; GET shows value_prefix only', async () => {
    const created = await t.call('POST', '/keys', {
      body: {
        description: 'search books',
        actions: ['documents:search'],
        collections: ['books']
      }
    });
    expect(created.status).toBe(201);
    const k = created.json() as Record<string, unknown>;
    expect(Object.keys(k)).toEqual([
      'actions',
      'autodelete',
      'collections',
      'description',
      'expires_at',
      'id',
      'value'
    ]);
    expect(k).toMatchObject({
      actions: ['documents:search'],
      collections: ['books'],
      autodelete: false,
      expires_at: 64723363199
    });
    expect(typeof k.value).toBe('string');

    const one = await t.call('GET', `/keys/${String(k.id)}`);
    expect(one.status).toBe(200);
    expect(one.json()).toEqual({
      actions: ['documents:search'],
      autodelete: false,
      collections: ['books'],
      description: 'search books',
      expires_at: 64723363199,
      id: k.id,
      value_prefix: (k.value as string).slice(0, 4)
    });
    const list = (await t.call('GET', '/keys')).json() as {
      keys: Record<string, unknown>[];
    };
    expect(list.keys.some(x => x.id === k.id && !('value' in x))).toBe(true);
  });

  test('a search-only key searches its collection but gets 401 elsewhere', async () => {
    const k = (
      await t.call('POST', '/keys', {
        body: {
          description: 's',
          actions: ['documents:search'],
          collections: ['books']
        }
      })
    ).json() as { value: string };
    const ok = await t.call('GET', '/collections/books/documents/search?q=*', {
      key: k.value
    });
    expect(ok.status).toBe(200);
    const other = await t.call(
      'GET',
      '/collections/notes/documents/search?q=*',
      { key: k.value }
    );
    expect([other.status, other.text]).toEqual([401, FORBIDDEN]);
    const list = await t.call('GET', '/collections', { key: k.value });
    expect([list.status, list.text]).toEqual([401, FORBIDDEN]);
  });

  test('resource wildcards: documents:* reaches documents, not collections; collections:* lists', async () => {
    const docs = (
      await t.call('POST', '/keys', {
        body: { description: 'd', actions: ['documents:*'], collections: ['*'] }
      })
    ).json() as { value: string };
    expect(
      (
        await t.call('POST', '/collections/books/documents', {
          key: docs.value,
          body: { title: 'x' }
        })
      ).status
    ).toBe(201);
    expect(
      (await t.call('GET', '/collections', { key: docs.value })).status
    ).toBe(401);
    const colls = (
      await t.call('POST', '/keys', {
        body: {
          description: 'c',
          actions: ['collections:*'],
          collections: ['*']
        }
      })
    ).json() as { value: string };
    expect(
      (await t.call('GET', '/collections', { key: colls.value })).status
    ).toBe(200);
  });

  test('multi_search is authorised as a whole', async () => {
    const k = (
      await t.call('POST', '/keys', {
        body: {
          description: 's',
          actions: ['documents:search'],
          collections: ['books']
        }
      })
    ).json() as { value: string };
    const body = {
      searches: [
        { collection: 'books', q: '*' },
        { collection: 'notes', q: '*' }
      ]
    };
    const r = await t.call('POST', '/multi_search', { key: k.value, body });
    expect([r.status, r.text]).toEqual([401, FORBIDDEN]);
  });

  test('key validation texts and the 409 conflict', async () => {
    const missing = await t.call('POST', '/keys', {
      body: { actions: ['*'], collections: ['*'] }
    });
    expect([missing.status, missing.json()]).toEqual([
      400,
      { message: 'Could not find a `description` key.' }
    ]);
    const body = {
      description: 'fixed',
      actions: ['*'],
      collections: ['*'],
      value: 'fixed-value-1'
    };
    expect((await t.call('POST', '/keys', { body })).status).toBe(201);
    const dup = await t.call('POST', '/keys', { body });
    expect([dup.status, dup.json()]).toEqual([
      409,
      { message: 'API key generation conflict.' }
    ]);
  });

  test('DELETE /keys/:id answers {"id":N}; the key stops working; a second delete is 404 Not found.', async () => {
    const k = (
      await t.call('POST', '/keys', {
        body: { description: 'tmp', actions: ['*'], collections: ['*'] }
      })
    ).json() as { id: number; value: string };
    expect((await t.call('GET', '/collections', { key: k.value })).status).toBe(
      200
    );
    const del = await t.call('DELETE', `/keys/${k.id}`);
    expect([del.status, del.text]).toEqual([200, `{"id":${k.id}}`]);
    expect((await t.call('GET', '/collections', { key: k.value })).status).toBe(
      401
    );
    const again = await t.call('DELETE', `/keys/${k.id}`);
    expect([again.status, again.json()]).toEqual([
      404,
      { message: 'Not found.' }
    ]);
  });

  test('an expired key is refused', async () => {
    const k = (
      await t.call('POST', '/keys', {
        body: {
          description: 'old',
          actions: ['*'],
          collections: ['*'],
          expires_at: 1
        }
      })
    ).json() as { value: string };
    expect((await t.call('GET', '/collections', { key: k.value })).status).toBe(
      401
    );
  });
});
