/**
 * A connection to several nodes of one cluster, over real sockets on 127.0.0.1: a node that
 * does not answer (nothing listening, or a connection dropped before any answer) is skipped for
 * the next one and tried again once its back-off has passed; a node that answers, even with an
 * error status, gives the answer; a request that may have reached a node that then dropped the
 * connection is not sent again elsewhere. The pool's clock is the test's, so the back-off
 * passes when the test says and no assertion waits on real time.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import {
  createServer as createNetServer,
  type Server as NetServer
} from 'node:net';
import { Transport } from '../../kernel/src/driver-core/http/transport';
import type { EngineResponse } from '../../kernel/src/driver-core/capabilities/console';
import { freePort } from '../support/free-port';

jest.setTimeout(30_000);

/** A node that answers every request with its own name (or the status the test sets). */
interface LiveNode {
  url: string;
  port: number;
  seen: string[];
  status: number;
  close(): Promise<void>;
}

async function liveNode(port = 0): Promise<LiveNode> {
  const node: LiveNode = {
    url: '',
    port,
    seen: [],
    status: 200,
    close: () => Promise.resolve()
  };
  const server: Server = createHttpServer((req, res) => {
    node.seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      res.statusCode = node.status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ node: node.port }));
    });
  });
  await new Promise<void>(r => server.listen(port, '127.0.0.1', r));
  const address = server.address();
  node.port = typeof address === 'object' && address ? address.port : 0;
  node.url = `http://127.0.0.1:${node.port}`;
  node.close = () =>
    new Promise(r => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return node;
}

/** A node that accepts connections, reads the request, and drops the connection unanswered. */
async function droppingNode(): Promise<{
  url: string;
  requests: () => number;
  close(): Promise<void>;
}> {
  let requests = 0;
  const server: NetServer = createNetServer(socket => {
    socket.once('data', () => {
      requests += 1;
      socket.resetAndDestroy();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise(r => server.close(() => r()))
  };
}

const never = new AbortController().signal;
const hostOf = (url: string) => url.replace('http://', '');

function bodyOf(answer: EngineResponse): unknown {
  return answer.body.kind === 'json' ? answer.body.value : undefined;
}

describe('a connection to several nodes', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map(o => o.close()));
  });
  function transport(nodes: string[], clock?: { now: number }): Transport {
    const t = new Transport({
      baseUrl: nodes[0] as string,
      nodes,
      label: 'cluster',
      ...(clock ? { now: () => clock.now } : {})
    });
    opened.push(t);
    return t;
  }

  it('sends to the next node when the first accepts no connection, says so, and skips the first until its back-off passes', async () => {
    const downPort = await freePort();
    const down = `http://127.0.0.1:${downPort}`;
    const b = await liveNode();
    opened.push(b);
    const clock = { now: 0 };
    const t = transport([down, b.url], clock);

    const first = await t.send(
      { method: 'GET', path: '/_search', query: '' },
      never
    );
    expect(bodyOf(first)).toEqual({ node: b.port });
    expect(first.answeredBy).toMatch(
      new RegExp(
        `^answered by ${hostOf(b.url)} \\(127\\.0\\.0\\.1:${downPort} did not answer: ECONNREFUSED`
      )
    );

    // The first node comes back, but is still in its back-off: the request goes to b at once.
    const a = await liveNode(downPort);
    opened.push(a);
    const second = await t.send(
      { method: 'GET', path: '/two', query: '' },
      never
    );
    expect(bodyOf(second)).toEqual({ node: b.port });
    expect(second.answeredBy).toMatch(
      `127.0.0.1:${downPort} skipped, it did not answer earlier: ECONNREFUSED`
    );
    expect(a.seen).toEqual([]);

    // Once the back-off has passed, it is tried first again, and being the first says nothing.
    clock.now += 1_001;
    const third = await t.send(
      { method: 'GET', path: '/three', query: '' },
      never
    );
    expect(bodyOf(third)).toEqual({ node: downPort });
    expect(third.answeredBy).toBeUndefined();
    expect(a.seen).toEqual(['GET /three']);
  });

  it('keeps the back-off bounded: a node down many times in a row is tried again within 30 s', async () => {
    const downPort = await freePort();
    const down = `http://127.0.0.1:${downPort}`;
    const b = await liveNode();
    opened.push(b);
    const clock = { now: 0 };
    const t = transport([down, b.url], clock);
    for (let i = 0; i < 12; i++) {
      // Each time the back-off has passed (it doubles up to the bound), the node is tried and fails.
      clock.now += 30_001;
      const answer = await t.send(
        { method: 'GET', path: '/', query: '' },
        never
      );
      expect(answer.answeredBy).toMatch(`${downPort} did not answer`);
    }
    const a = await liveNode(downPort);
    opened.push(a);
    clock.now += 29_000;
    expect(
      (await t.send({ method: 'GET', path: '/', query: '' }, never)).answeredBy
    ).toMatch('skipped');
    clock.now += 1_001;
    const back = await t.send({ method: 'GET', path: '/', query: '' }, never);
    expect(bodyOf(back)).toEqual({ node: downPort });
  });

  it('sends a POST to the next node when the first refused the connection (nothing reached it)', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const b = await liveNode();
    opened.push(b);
    const t = transport([down, b.url]);
    const answer = await t.send(
      {
        method: 'POST',
        path: '/products/_doc',
        query: '',
        body: { kind: 'json', value: { name: 'one' } }
      },
      never
    );
    expect(bodyOf(answer)).toEqual({ node: b.port });
    expect(b.seen).toEqual(['POST /products/_doc']);
  });

  it('does not send a POST again to another node when the first dropped the connection after it was written', async () => {
    const dropping = await droppingNode();
    const b = await liveNode();
    opened.push(dropping, b);
    const t = transport([dropping.url, b.url]);
    const sent = t.send(
      {
        method: 'POST',
        path: '/products/_doc',
        query: '',
        body: { kind: 'json', value: { name: 'one' } }
      },
      never
    );
    await expect(sent).rejects.toThrow(
      `POST was not sent to another node, since ${hostOf(dropping.url)} may have carried it out before the connection failed; run it again to send it to ${hostOf(b.url)}.`
    );
    expect(dropping.requests()).toBe(1);
    expect(b.seen).toEqual([]);
    // The node that dropped it is skipped for the next request.
    const next = await t.send(
      {
        method: 'POST',
        path: '/products/_doc',
        query: '',
        body: { kind: 'json', value: { name: 'one' } }
      },
      never
    );
    expect(bodyOf(next)).toEqual({ node: b.port });
    expect(dropping.requests()).toBe(1);
  });

  it('sends a GET again to the next node when the first dropped the connection unanswered', async () => {
    const dropping = await droppingNode();
    const b = await liveNode();
    opened.push(dropping, b);
    const t = transport([dropping.url, b.url]);
    const answer = await t.send(
      { method: 'GET', path: '/products/_search', query: '' },
      never
    );
    expect(bodyOf(answer)).toEqual({ node: b.port });
    expect(answer.answeredBy).toMatch(
      `answered by ${hostOf(b.url)} (${hostOf(dropping.url)} did not answer:`
    );
  });

  it('takes an error status from a live node as its answer and tries no other node', async () => {
    const a = await liveNode();
    const b = await liveNode();
    opened.push(a, b);
    a.status = 503;
    const t = transport([a.url, b.url]);
    const answer = await t.send(
      { method: 'GET', path: '/_search', query: '' },
      never
    );
    expect(answer.status).toBe(503);
    expect(bodyOf(answer)).toEqual({ node: a.port });
    expect(answer.answeredBy).toBeUndefined();
    expect(b.seen).toEqual([]);
    // Only a node that does not answer at all passes the request on.
    await a.close();
    const passed = await t.send(
      { method: 'GET', path: '/_search', query: '' },
      never
    );
    expect(bodyOf(passed)).toEqual({ node: b.port });
    expect(b.seen).toEqual(['GET /_search']);
  });

  it('names every node and why when none answers', async () => {
    const [p1, p2] = [await freePort(), await freePort()];
    const t = transport([`http://127.0.0.1:${p1}`, `http://127.0.0.1:${p2}`]);
    const failed = t.send({ method: 'GET', path: '/', query: '' }, never);
    await expect(failed).rejects.toThrow(
      new RegExp(
        `^Connection failed: no node of connection cluster answered:\\n- 127\\.0\\.0\\.1:${p1}: nothing accepts connections at http://127\\.0\\.0\\.1:${p1} \\(ECONNREFUSED[^\\n]*\\n- 127\\.0\\.0\\.1:${p2}: nothing accepts connections at http://127\\.0\\.0\\.1:${p2} \\(ECONNREFUSED`
      )
    );
  });

  it('streams an answer (an export page) from the next node when the first refused the connection', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const b = await liveNode();
    opened.push(b);
    const t = transport([down, b.url]);
    const streamed = await t.stream(
      {
        method: 'POST',
        path: '/_search',
        query: '',
        body: { kind: 'json', value: { pit: { id: 'x' } } }
      },
      never
    );
    const chunks: Buffer[] = [];
    for await (const chunk of streamed.body) {
      chunks.push(chunk);
    }
    expect(JSON.parse(Buffer.concat(chunks).toString())).toEqual({
      node: b.port
    });
    expect(streamed.answeredBy).toMatch(`answered by ${hostOf(b.url)}`);
  });
});
