/** Version differences: the 7.17 stand-in. */
import { call, start, type Running } from './helpers';

let es: Running;
beforeAll(async () => {
  es = await start({ version: '7.17.0', security: true });
  await call(es, 'PUT', '/items/_doc/1?refresh=true', {
    name: 'Red Widget',
    price: 3
  });
});
afterAll(async () => es.close());

it('GET / reports 7.17.0 and sends X-elastic-product', async () => {
  const res = await call(es, 'GET', '/');
  expect(res.body.version.number).toBe('7.17.0');
  expect(res.body.version.minimum_wire_compatibility_version).toBe('6.8.0');
  expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
});

it('401: one WWW-Authenticate value, written as a string, old Basic form', async () => {
  const res = await call(es, 'GET', '/', undefined, { 'x-no-auth': '1' });
  expect(res.status).toBe(401);
  const value = 'Basic realm="security" charset="UTF-8"';
  expect(res.body.error.header).toEqual({ 'WWW-Authenticate': value });
  expect(res.body.error.root_cause[0].header).toEqual({
    'WWW-Authenticate': value
  });
  expect(res.headers['www-authenticate']).toBe(value);
});

it('documents carry _type "_doc"', async () => {
  const res = await call(es, 'GET', '/items/_doc/1');
  expect(Object.keys(res.body)).toEqual([
    '_index',
    '_type',
    '_id',
    '_version',
    '_seq_no',
    '_primary_term',
    'found',
    '_source'
  ]);
  const missing = await call(es, 'GET', '/items/_doc/2');
  expect(missing.body).toEqual({
    _index: 'items',
    _type: '_doc',
    _id: '2',
    found: false
  });
  expect((await call(es, 'PUT', '/items/_doc/3', { a: 1 })).body._type).toBe(
    '_doc'
  );
});

it('update of a missing document: "[_doc][id]: document missing"', async () => {
  const res = await call(es, 'POST', '/items/_update/9', { doc: { a: 1 } });
  expect(res.status).toBe(404);
  expect(res.body.error.reason).toBe('[_doc][9]: document missing');
});

it('sorting on a text field: the message without the 8.5 prefix', async () => {
  const res = await call(es, 'POST', '/items/_search', { sort: ['name'] });
  expect(res.status).toBe(400);
  expect(
    res.body.error.root_cause[0].reason.startsWith(
      'Text fields are not optimised'
    )
  ).toBe(true);
});

it('sorting on _id is allowed, with a deprecation Warning header', async () => {
  const res = await call(es, 'POST', '/items/_search', { sort: ['_id'] });
  expect(res.status).toBe(200);
  expect(String(res.headers['warning'])).toContain(
    'Loading the fielddata on the _id field is deprecated'
  );
  expect(res.body.hits.hits[0].sort).toEqual(['1']);
});

it('API keys have no "encoded" in 7.x; base64(id:api_key) authenticates', async () => {
  const created = await call(es, 'POST', '/_security/api_key', { name: 'k' });
  expect(Object.keys(created.body)).toEqual(['id', 'name', 'api_key']);
  const encoded = Buffer.from(
    `${created.body.id}:${created.body.api_key}`
  ).toString('base64');
  expect(
    (
      await call(es, 'GET', '/', undefined, {
        authorization: `ApiKey ${encoded}`
      })
    ).status
  ).toBe(200);
});

it('PIT works on 7.17 too', async () => {
  const pit = await call(es, 'POST', '/items/_pit?keep_alive=1m');
  expect(pit.status).toBe(200);
  const res = await call(es, 'POST', '/_search', {
    pit: { id: pit.body.id },
    sort: [{ _shard_doc: 'asc' }]
  });
  expect(res.body.hits.hits[0]._type).toBe('_doc');
  expect(res.body.pit_id).toBe(pit.body.id);
});

it('rest_total_hits_as_int gives a number', async () => {
  const res = await call(
    es,
    'GET',
    '/items/_search?rest_total_hits_as_int=true'
  );
  expect(typeof res.body.hits.total).toBe('number');
});

// A real 7.17.29 node answers "unknown query [foo]" (not the older "no [query] registered for [foo]"),
// pointing at the column of the query's body.
it('unknown queries: "unknown query [x]", with the position of its body', async () => {
  const res = await call(es, 'POST', '/items/_search', { query: { foo: {} } });
  expect(res.status).toBe(400);
  expect(res.body.error.root_cause[0]).toEqual({
    type: 'parsing_exception',
    reason: 'unknown query [foo]',
    line: 1,
    col: 17
  });
});

it('security off: no credentials needed', async () => {
  const open = await start({ version: '7.17.0', security: false });
  try {
    expect(
      (await call(open, 'GET', '/', undefined, { 'x-no-auth': '1' })).status
    ).toBe(200);
  } finally {
    await open.close();
  }
});
