/** Collection aliases: the /aliases endpoints and every collection path reached through an alias. */
import { start, type Running } from './helpers';

const SCHEMA = {
  name: 'products_v1',
  fields: [
    { name: 'title', type: 'string' },
    { name: 'price', type: 'int32' }
  ]
};

describe.each(['26.0', '29.0', '30.0'])(
  'Typesense sandbox %s: aliases',
  version => {
    let t: Running;
    const notFound =
      Number(version.split('.')[0]) >= 29
        ? 'Collection not found'
        : 'Not Found';
    beforeAll(async () => {
      t = await start({ version });
      await t.call('POST', '/collections', { body: SCHEMA });
      await t.call('POST', '/collections', {
        body: { ...SCHEMA, name: 'products_v2' }
      });
      t.sandbox.loadDocuments('products_v1', [
        { id: '1', title: 'old lamp', price: 5 }
      ]);
      t.sandbox.loadDocuments('products_v2', [
        { id: '1', title: 'new lamp', price: 7 },
        { id: '2', title: 'new desk', price: 70 }
      ]);
    });
    afterAll(() => t.close());

    test('PUT creates and echoes; GET one and all', async () => {
      const put = await t.call('PUT', '/aliases/products', {
        body: { collection_name: 'products_v1' }
      });
      expect([put.status, put.text]).toEqual([
        200,
        '{"collection_name":"products_v1","name":"products"}'
      ]);
      const one = await t.call('GET', '/aliases/products');
      expect([one.status, one.text]).toEqual([
        200,
        '{"collection_name":"products_v1","name":"products"}'
      ]);
      const all = await t.call('GET', '/aliases');
      expect(all.json()).toEqual({
        aliases: [{ collection_name: 'products_v1', name: 'products' }]
      });
    });

    test('searches, documents and the collection summary go through the alias', async () => {
      const s = await t.call(
        'GET',
        '/collections/products/documents/search?q=lamp&query_by=title'
      );
      expect(s.json()).toMatchObject({
        found: 1,
        request_params: { collection_name: 'products_v1' }
      });
      const doc = await t.call('GET', '/collections/products/documents/1');
      expect(doc.json()).toEqual({ id: '1', price: 5, title: 'old lamp' });
      const summary = await t.call('GET', '/collections/products');
      expect(summary.json()).toMatchObject({
        name: 'products_v1',
        num_documents: 1
      });
      const multi = await t.call('POST', '/multi_search', {
        body: { searches: [{ collection: 'products', q: '*' }] }
      });
      expect(
        (multi.json() as { results: { found: number }[] }).results[0]?.found
      ).toBe(1);
    });

    test('re-pointing the alias switches every reader at once (the schema-change pattern)', async () => {
      await t.call('PUT', '/aliases/products', {
        body: { collection_name: 'products_v2' }
      });
      const s = await t.call(
        'GET',
        '/collections/products/documents/search?q=*'
      );
      expect(s.json()).toMatchObject({
        found: 2,
        request_params: { collection_name: 'products_v2' }
      });
      const exported = await t.call(
        'GET',
        '/collections/products/documents/export'
      );
      expect(exported.text.split('\n')).toHaveLength(2);
    });

    test('refusals: missing collection_name, a name taken by a collection, unknown alias', async () => {
      const noTarget = await t.call('PUT', '/aliases/x', { body: {} });
      expect([noTarget.status, noTarget.text]).toEqual([
        400,
        '{"message": "Parameter `collection_name` is required."}'
      ]);
      const clash = await t.call('PUT', '/aliases/products_v1', {
        body: { collection_name: 'products_v2' }
      });
      expect([clash.status, clash.json()]).toEqual([
        500,
        {
          message:
            'Name `products_v1` conflicts with an existing collection name.'
        }
      ]);
      const unknown = await t.call('GET', '/aliases/ghost');
      expect([unknown.status, unknown.json()]).toEqual([
        404,
        { message: notFound }
      ]);
      const del = await t.call('DELETE', '/aliases/ghost');
      expect([del.status, del.json()]).toEqual([404, { message: notFound }]);
    });

    test('DELETE answers the alias and its target; the alias then stops resolving', async () => {
      const del = await t.call('DELETE', '/aliases/products');
      expect([del.status, del.text]).toEqual([
        200,
        '{"collection_name":"products_v2","name":"products"}'
      ]);
      const s = await t.call(
        'GET',
        '/collections/products/documents/search?q=*'
      );
      expect(s.status).toBe(404);
      expect((await t.call('GET', '/aliases')).json()).toEqual({ aliases: [] });
      const summary = await t.call('GET', '/collections/products');
      expect([summary.status, summary.json()]).toEqual([
        404,
        { message: notFound }
      ]);
    });
  }
);
