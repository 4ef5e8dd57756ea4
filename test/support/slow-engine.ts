import { type IncomingMessage, type Server, createServer } from 'node:http';

/**
 * An HTTP server on loopback that answers GET / as Elasticsearch 8 does and holds
 * `/slow/...` requests open for a long time, recording whether the client hung up.
 */
export interface SlowEngine {
  url: string;
  /** Every request's path, in the order they arrived. */
  requests: string[];
  /** Resolves when a /slow request has arrived. */
  slowArrived: Promise<void>;
  /** Resolves when the client closed a /slow request before it was answered. */
  slowAborted: Promise<number>;
  /** Resolves when the next /slow request (after this call) has arrived. */
  slowArrivals(): Promise<void>;
  close(): Promise<void>;
}

export async function startSlowEngine(holdMs = 30_000): Promise<SlowEngine> {
  let arrived!: () => void;
  let aborted!: (at: number) => void;
  const slowArrived = new Promise<void>(r => (arrived = r));
  const slowAborted = new Promise<number>(r => (aborted = r));
  const timers = new Set<NodeJS.Timeout>();
  let waiting: (() => void)[] = [];
  const requests: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    requests.push(req.url ?? '');
    res.setHeader('x-elastic-product', 'Elasticsearch');
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/slow')) {
      arrived();
      for (const resolve of waiting) {
        resolve();
      }
      waiting = [];
      res.on('close', () => {
        if (!res.writableEnded) {
          aborted(performance.now());
        }
      });
      const timer = setTimeout(() => res.end('{"hits":{"hits":[]}}'), holdMs);
      timers.add(timer);
      return;
    }
    res.end(
      JSON.stringify({
        name: 'slow',
        cluster_name: 'test',
        version: { number: '8.15.0' },
        tagline: 'You Know, for Search'
      })
    );
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    slowArrived,
    slowAborted,
    slowArrivals: () => new Promise<void>(resolve => waiting.push(resolve)),
    close: () =>
      new Promise(r => {
        for (const t of timers) {
          clearTimeout(t);
        }
        server.closeAllConnections();
        server.close(() => r());
      })
  };
}
