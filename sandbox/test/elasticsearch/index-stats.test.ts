/** `GET /{index}/_stats` of the 8.15 stand-in over real sockets: documents, a point in time's search context, metric names and refusals as ES 8.19 answers them. */
import { call, ndjson, start, type Running } from './helpers';

let es: Running;
beforeAll(async () => {
  es = await start({ version: '8.15.0', security: true });
  const lines = Array.from({ length: 5 }, (_, i) => [
    { index: { _index: 'items', _id: String(i) } },
    { n: i }
  ]).flat();
  expect(
    (await call(es, 'POST', '/_bulk?refresh=true', ndjson(lines))).body.errors
  ).toBe(false);
});
afterAll(async () => es.close());

const openContexts = async () => {
  const res = await call(es, 'GET', '/items/_stats/search');
  expect(res.status).toBe(200);
  expect(res.body.indices.items.search).toBeUndefined();
  expect(res.body.indices.items.total.search.open_contexts).toBe(
    res.body._all.total.search.open_contexts
  );
  return res.body._all.total.search.open_contexts as number;
};

describe('/{index}/_stats', () => {
  it('counts the documents, per index and under _all', async () => {
    const res = await call(es, 'GET', '/items/_stats');
    expect(res.body._shards).toEqual({ total: 1, successful: 1, failed: 0 });
    expect(res.body._all.primaries.docs.count).toBe(5);
    expect(res.body.indices.items).toMatchObject({
      uuid: expect.any(String),
      status: 'open',
      total: { docs: { count: 5 } }
    });
  });

  it('a point in time holds one open search context until it is closed', async () => {
    const before = await openContexts();
    const opened = await call(es, 'POST', '/items/_pit?keep_alive=1m');
    expect(await openContexts()).toBe(before + 1);
    expect(
      (await call(es, 'DELETE', '/_pit', { id: opened.body.id })).status
    ).toBe(200);
    expect(await openContexts()).toBe(before);
  });

  it('takes the metric names ES takes and refuses others with its reason; a missing index is a 404', async () => {
    expect((await call(es, 'GET', '/items/_stats/store')).status).toBe(200);
    const bogus = await call(es, 'GET', '/items/_stats/bogus');
    expect(bogus.status).toBe(400);
    expect(bogus.body.error.reason).toBe(
      'request [/items/_stats/bogus] contains unrecognized metric: [bogus]'
    );
    const missing = await call(es, 'GET', '/nope/_stats');
    expect(missing.status).toBe(404);
    expect(missing.body.error.type).toBe('index_not_found_exception');
  });

  it('needs credentials', async () => {
    expect(
      (await call(es, 'GET', '/items/_stats', undefined, { 'x-no-auth': '1' }))
        .status
    ).toBe(401);
  });
});
