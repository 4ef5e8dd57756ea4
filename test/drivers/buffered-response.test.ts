/**
 * How a whole answer is read off the socket (drivers/buffered-response.ts): byte-exact however
 * the engine cuts it into chunks, headers as undici names them, and an interrupt honoured
 * whether the request is waiting for a socket, in flight, or not yet sent; an answer past the
 * cap rejects the moment it passes it.
 */
import { type Server, createServer } from 'node:http';
import { Agent } from 'undici';
import {
  CapPassedError,
  bufferedRequest
} from '../../kernel/src/driver-core/http/buffered-response';
import { Transport } from '../../kernel/src/driver-core/http/transport';
import { type SlowEngine, startSlowEngine } from '../support/slow-engine';
import {
  type Streamed,
  startHostileEngine,
  streamBody
} from '../support/hostile-engine';

describe('an answer sent in many small chunks', () => {
  let server: Server;
  let url: string;
  const text = JSON.stringify({
    hits: Array.from({ length: 200 }, (_, i) => ({
      city: i % 2 ? 'São Paulo' : 'Zürich →',
      n: i
    }))
  });

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      const bytes = Buffer.from(text, 'utf8');
      // Seven-byte pieces cut most multi-byte characters in two.
      const piece = (at: number): void => {
        if (at >= bytes.length) {
          return void res.end();
        }
        res.write(bytes.subarray(at, at + 7));
        setImmediate(() => piece(at + 7));
      };
      piece(0);
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>(r => server.close(() => r())));

  test('comes back byte for byte, its headers flattened, and parses to what was sent', async () => {
    const transport = new Transport({ baseUrl: url, label: 'chunky' });
    try {
      const raw = await transport.sendRaw(
        { method: 'GET', path: '/', query: '' },
        new AbortController().signal
      );
      expect(raw.status).toBe(200);
      expect(raw.bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
      expect(raw.headers['set-cookie']).toBe('a=1, b=2');
      const answer = await transport.send(
        { method: 'GET', path: '/', query: '' },
        new AbortController().signal
      );
      expect(answer.body).toMatchObject({
        kind: 'json',
        value: JSON.parse(text) as unknown
      });
    } finally {
      await transport.close();
    }
  });
});

describe('interrupts', () => {
  let engine: SlowEngine;
  let agent: Agent;

  beforeEach(async () => {
    engine = await startSlowEngine();
    agent = new Agent({ connections: 1 });
  });
  afterEach(async () => {
    await agent.destroy();
    await engine.close();
  });

  test('a request still waiting for the only socket rejects at once, and the one in flight is torn down at the server', async () => {
    const first = new AbortController();
    const second = new AbortController();
    const inFlight = bufferedRequest(
      agent,
      { origin: engine.url, method: 'GET', path: '/slow/_search' },
      first.signal
    );
    await engine.slowArrived;
    const queued = bufferedRequest(
      agent,
      { origin: engine.url, method: 'GET', path: '/' },
      second.signal
    );
    const startedAt = performance.now();
    second.abort();
    await expect(queued).rejects.toThrow();
    expect(performance.now() - startedAt).toBeLessThan(1000);
    first.abort();
    await expect(inFlight).rejects.toThrow();
    expect(await engine.slowAborted).toBeGreaterThan(startedAt);
  });

  test('a signal already aborted sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      bufferedRequest(
        agent,
        { origin: engine.url, method: 'GET', path: '/slow/_search' },
        controller.signal
      )
    ).rejects.toThrow();
    // The socket is free: a request after it is answered, and the slow path was never reached
    // (on the agent's only socket it would have come before the request after it).
    const after = await bufferedRequest(
      agent,
      { origin: engine.url, method: 'GET', path: '/' },
      new AbortController().signal
    );
    expect(JSON.parse(after.bytes.toString('utf8'))).toMatchObject({
      tagline: 'You Know, for Search'
    });
    expect(engine.requests).toEqual(['/']);
  });

  test('through the transport an interrupt reads as Interrupted, and the connection pool goes on', async () => {
    const transport = new Transport({ baseUrl: engine.url, label: 'slow' });
    try {
      const controller = new AbortController();
      const cell = transport.send(
        { method: 'GET', path: '/slow/_search', query: '' },
        controller.signal
      );
      await engine.slowArrived;
      controller.abort();
      await expect(cell).rejects.toMatchObject({
        code: 'SEARCHBOOK_ERR_INTERRUPTED',
        ename: 'Interrupted'
      });
      const next = await transport.send(
        { method: 'GET', path: '/', query: '' },
        new AbortController().signal
      );
      expect(next.status).toBe(200);
    } finally {
      await transport.close();
    }
  });
});

describe('an answer past the cap', () => {
  test('rejects as soon as the cap is passed, the server sees the socket closed early, and the pool goes on', async () => {
    let sent: Promise<Streamed> | undefined;
    const engine = await startHostileEngine({
      '/big': (_req, res) => {
        sent = streamBody(res, 20_000_000, Buffer.alloc(64 * 1024, 'a'));
      }
    });
    const agent = new Agent({ connections: 1 });
    try {
      const big = bufferedRequest(
        agent,
        { origin: engine.url, method: 'GET', path: '/big' },
        new AbortController().signal,
        { maxBytes: 100_000 }
      );
      await expect(big).rejects.toBeInstanceOf(CapPassedError);
      await expect(big).rejects.toMatchObject({
        maxBytes: 100_000,
        stage: 'read'
      });
      const streamed = await sent;
      expect(streamed?.closedEarly).toBe(true);
      expect(streamed?.written).toBeLessThan(20_000_000);
      const after = await bufferedRequest(
        agent,
        { origin: engine.url, method: 'GET', path: '/' },
        new AbortController().signal,
        { maxBytes: 100_000 }
      );
      expect(after.status).toBe(200);
    } finally {
      await agent.destroy();
      await engine.close();
    }
  });
});
