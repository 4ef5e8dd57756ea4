/**
 * A keep-alive connection the server closed while it sat idle: the next request written to it
 * fails before any answer comes. Over ZeroMQ against a loopback server that answers one
 * request per connection and drops the connection when a second one arrives on it (what a
 * server's idle timeout does to a request sent at that moment): a GET is sent again on a fresh
 * connection and succeeds, cell after cell; a POST, which may not be safe to repeat, is not.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { KernelClient } from '../support/kernel-client';

jest.setTimeout(30_000);

let kernel: KernelClient;
let server: Server;
let url = '';
/** Every request as it arrived, and whether it was answered or its connection dropped. */
const seen: { line: string; answered: boolean }[] = [];

beforeAll(async () => {
  const served = new WeakMap<Socket, number>();
  server = createServer((req, res) => {
    const count = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, count);
    const line = `${req.method} ${req.url}`;
    if (count > 1) {
      seen.push({ line, answered: false });
      req.socket.destroy();
      return;
    }
    seen.push({ line, answered: true });
    res.setHeader('x-elastic-product', 'Elasticsearch');
    res.setHeader('content-type', 'application/json');
    const body =
      req.url === '/'
        ? {
            name: 'n',
            cluster_name: 'c',
            version: { number: '8.15.0' },
            tagline: 'You Know, for Search'
          }
        : { took: 1, hits: { total: { value: 0, relation: 'eq' }, hits: [] } };
    res.end(JSON.stringify(body));
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  kernel = await KernelClient.start();
  expect(
    (
      await kernel.execute(
        `%connect elasticsearch ${url} auth=none name=closing`
      )
    ).reply.content.status
  ).toBe('ok');
});
afterAll(async () => {
  server.closeAllConnections();
  await Promise.all([kernel?.close(), new Promise(r => server.close(r))]);
});

it('two GET cells in a row both succeed, each sent again once on a fresh connection', async () => {
  for (const cell of ['GET /books/_search', 'GET /books/_search?q=x']) {
    const before = seen.length;
    const { reply } = await kernel.execute(cell);
    expect(reply.content.status).toBe('ok');
    // The kernel also reads the index's mapping for the grid's columns; only the cell's own request counts here.
    expect(seen.slice(before).filter(r => r.line === cell)).toEqual([
      { line: cell, answered: false },
      { line: cell, answered: true }
    ]);
  }
});

it('a POST is not sent twice: its cell says the connection closed', async () => {
  const before = seen.length;
  const { reply } = await kernel.execute(
    'POST /books/_search\n{"query": {"match_all": {}}}'
  );
  expect(reply.content).toMatchObject({
    status: 'error',
    ename: 'Connection failed'
  });
  expect(seen.slice(before).filter(r => r.line.startsWith('POST'))).toEqual([
    { line: 'POST /books/_search', answered: false }
  ]);
});
