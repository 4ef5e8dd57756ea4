/** The official typesense JS client (v3) runs its common operations against the sandbox. */
import Typesense from 'typesense';
import type { CollectionCreateSchema } from 'typesense/lib/Typesense/Collections';
import { ADMIN_KEY, BOOKS_SCHEMA, book, start, type Running } from './helpers';

describe('Typesense sandbox: official typesense client', () => {
  let t: Running;
  let client: InstanceType<typeof Typesense.Client>;

  beforeAll(async () => {
    t = await start({ version: '29.0' });
    const port = t.server.port;
    client = new Typesense.Client({
      nodes: [{ host: '127.0.0.1', port, protocol: 'http' }],
      apiKey: ADMIN_KEY,
      numRetries: 0,
      connectionTimeoutSeconds: 5,
      logLevel: 'silent'
    });
  });
  afterAll(() => t.close());

  test('collections: create, retrieve, list', async () => {
    const created = await client
      .collections()
      .create(BOOKS_SCHEMA as CollectionCreateSchema);
    expect(created.name).toBe('books');
    const got = await client.collections('books').retrieve();
    expect(got.num_documents).toBe(0);
    const all = await client.collections().retrieve();
    expect(all.map(c => c.name)).toContain('books');
  });

  test('documents: create, upsert, update, retrieve, delete', async () => {
    const docs = client
      .collections<Record<string, unknown>>('books')
      .documents();
    const created = await docs.create({ ...book(1), id: 'b1' });
    expect(created.id).toBe('b1');
    await docs.upsert({ ...book(2), id: 'b1' });
    const updated = await client
      .collections('books')
      .documents('b1')
      .update({ year: 2001 });
    expect(updated).toMatchObject({
      id: 'b1',
      year: 2001,
      title: 'Book number 2'
    });
    const got = await client.collections('books').documents('b1').retrieve();
    expect(got).toMatchObject({ id: 'b1' });
    const deleted = await client.collections('books').documents('b1').delete();
    expect(deleted).toMatchObject({ id: 'b1' });
    await expect(
      client.collections('books').documents('b1').retrieve()
    ).rejects.toMatchObject({ httpStatus: 404 });
  });

  test('documents: import and export', async () => {
    const docs = Array.from({ length: 50 }, (_, i) => ({
      ...book(i),
      id: `i${i}`
    }));
    const results = await client
      .collections('books')
      .documents()
      .import(docs, { action: 'create' });
    expect(results).toHaveLength(50);
    expect(results.every(r => r.success)).toBe(true);
    const exported = await client
      .collections('books')
      .documents()
      .export({ filter_by: 'year:>=2000' });
    const lines = exported.split('\n');
    expect(lines.length).toBe(
      docs.filter(d => ((d as Record<string, unknown>).year as number) >= 2000)
        .length
    );
    expect(
      lines.every(l => (JSON.parse(l) as { year: number }).year >= 2000)
    ).toBe(true);
  });

  test('search and multiSearch', async () => {
    const res = await client.collections('books').documents().search({
      q: 'banks',
      query_by: 'author',
      per_page: 5,
      filter_by: 'in_print:true'
    });
    expect(res.found).toBeGreaterThan(0);
    expect(res.hits?.[0]?.document).toMatchObject({ author: 'Iain Banks' });
    const multi = await client.multiSearch.perform({
      searches: [
        { collection: 'books', q: '*', per_page: 2 },
        { collection: 'books', q: 'leckie', query_by: 'author' }
      ]
    });
    expect(multi.results).toHaveLength(2);
    expect((multi.results as { hits?: unknown[] }[])[0]?.hits).toHaveLength(2);
  });

  test('documents: delete by filter', async () => {
    const r = await client
      .collections('books')
      .documents()
      .delete({ filter_by: 'year:1990' });
    expect(r.num_deleted).toBeGreaterThan(0);
  });

  test('keys: create, retrieve, list, delete', async () => {
    const k = await client.keys().create({
      description: 'search',
      actions: ['documents:search'],
      collections: ['books']
    });
    expect(k.value).toBeDefined();
    const got = await client.keys(k.id).retrieve();
    expect(got.value_prefix).toBe(k.value?.slice(0, 4));
    const list = await client.keys().retrieve();
    expect(list.keys.some(x => x.id === k.id)).toBe(true);
    await client.keys(k.id).delete();
    await expect(client.keys(k.id).retrieve()).rejects.toMatchObject({
      httpStatus: 404
    });
  });

  test('errors map to the client error classes', async () => {
    await expect(client.collections('nope').retrieve()).rejects.toMatchObject({
      name: 'ObjectNotFound',
      httpStatus: 404
    });
    const bad = new Typesense.Client({
      nodes: [{ host: '127.0.0.1', port: t.server.port, protocol: 'http' }],
      apiKey: 'wrong',
      numRetries: 0,
      logLevel: 'silent'
    });
    await expect(bad.collections().retrieve()).rejects.toMatchObject({
      name: 'RequestUnauthorized',
      httpStatus: 401
    });
  });

  test('health and collection delete', async () => {
    expect(await client.health.retrieve()).toEqual({ ok: true });
    const dropped = await client.collections('books').delete();
    expect(dropped.name).toBe('books');
  });
});
