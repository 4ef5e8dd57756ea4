/** `GET /_nodes/stats` of the 8.15 stand-in over real sockets: the shape ES answers, counters that move, metric filtering and refusals. */
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the engine's JSON answer freely; every value it reads is asserted
const onlyNode = (body: { nodes: Record<string, Record<string, any>> }) => {
  const nodes = Object.values(body.nodes);
  expect(nodes).toHaveLength(1);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the engine's JSON answer freely; every value it reads is asserted
  return nodes[0] as Record<string, any>;
};

describe('_nodes/stats', () => {
  it('answers one node with heap, file system and search/indexing counters that count requests', async () => {
    const before = await call(es, 'GET', '/_nodes/stats/jvm,fs,indices');
    expect(before.status).toBe(200);
    expect(before.body._nodes).toEqual({ total: 1, successful: 1, failed: 0 });
    const node = onlyNode(before.body);
    expect(node.name).toEqual(expect.any(String));
    expect(node.jvm.mem.heap_used_in_bytes).toBeLessThanOrEqual(
      node.jvm.mem.heap_max_in_bytes
    );
    expect(node.fs.total.available_in_bytes).toBeLessThan(
      node.fs.total.total_in_bytes
    );
    expect(node.indices.indexing.index_total).toBeGreaterThanOrEqual(5);
    await call(es, 'POST', '/items/_search', { query: { match_all: {} } });
    await call(es, 'POST', '/items/_search', { query: { match_all: {} } });
    const after = onlyNode(
      (await call(es, 'GET', '/_nodes/stats/indices')).body
    );
    expect(
      after.indices.search.query_total - node.indices.search.query_total
    ).toBe(2);
    expect(after.jvm).toBeUndefined();
  });

  it('refuses an unknown metric with ES’s reason', async () => {
    const res = await call(es, 'GET', '/_nodes/stats/bogus');
    expect(res.status).toBe(400);
    expect(res.body.error.reason).toBe(
      'request [/_nodes/stats/bogus] contains unrecognized metric: [bogus]'
    );
  });

  it('needs credentials like every cluster API', async () => {
    expect(
      (await call(es, 'GET', '/_nodes/stats', undefined, { 'x-no-auth': '1' }))
        .status
    ).toBe(401);
  });
});
