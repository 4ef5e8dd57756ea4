import {
  type IncomingMessage,
  type Server,
  type ServerResponse,
  createServer
} from 'node:http';
import type { Socket } from 'node:net';

/**
 * An HTTP server on loopback that answers GET / as Elasticsearch 8 does (so `%connect`
 * succeeds) and every other path as the test's routes say: the engine misbehaving on purpose.
 */
export interface HostileEngine {
  url: string;
  /** Paths requested, in order (GET / included). */
  requests: string[];
  close(): Promise<void>;
}

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export async function startHostileEngine(
  routes: Record<string, Route>
): Promise<HostileEngine> {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    requests.push(req.url ?? '/');
    const route = routes[path];
    if (route) {
      return route(req, res);
    }
    res.setHeader('x-elastic-product', 'Elasticsearch');
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        name: 'hostile',
        cluster_name: 'test',
        version: { number: '8.15.0' },
        tagline: 'You Know, for Search'
      })
    );
  });
  server.on('connection', socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise(r => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => r());
      })
  };
}

/** What a streamed body came to: how much was written before the client hung up, if it did. */
export interface Streamed {
  written: number;
  offered: number;
  closedEarly: boolean;
}

/**
 * Writes `offered` bytes of `piece` repeated, honouring backpressure (so only what the client
 * reads leaves the server), and resolves when the body ended or the client closed the socket.
 */
export function streamBody(
  res: ServerResponse,
  offered: number,
  piece: Buffer
): Promise<Streamed> {
  return new Promise(resolve => {
    let written = 0;
    let done = false;
    const finish = (closedEarly: boolean) => {
      if (done) {
        return;
      }
      done = true;
      resolve({ written, offered, closedEarly });
    };
    res.on('close', () => finish(!res.writableFinished));
    const pump = (): void => {
      while (written < offered && !res.destroyed) {
        const chunk = piece.subarray(
          0,
          Math.min(piece.length, offered - written)
        );
        written += chunk.length;
        if (!res.write(chunk)) {
          return void res.once('drain', pump);
        }
      }
      if (!res.destroyed) {
        res.end(() => finish(false));
      }
    };
    pump();
  });
}

/** Writes `text` one byte every `everyMs`, resolving with how far it got when done or when the client hung up. */
export function trickleBody(
  res: ServerResponse,
  text: string,
  everyMs: number
): Promise<Streamed> {
  const bytes = Buffer.from(text, 'utf8');
  return new Promise(resolve => {
    let written = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedEarly: boolean) => {
      clearTimeout(timer);
      resolve({ written, offered: bytes.length, closedEarly });
    };
    res.on('close', () => {
      if (!res.writableFinished) {
        finish(true);
      }
    });
    const next = (): void => {
      if (res.destroyed) {
        return;
      }
      if (written >= bytes.length) {
        return void res.end(() => finish(false));
      }
      res.write(bytes.subarray(written, written + 1));
      written += 1;
      timer = setTimeout(next, everyMs);
    };
    next();
  });
}
