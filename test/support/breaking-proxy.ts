import { EventEmitter, once } from 'node:events';
import {
  type IncomingMessage,
  type Server,
  type ServerResponse,
  createServer,
  request as httpRequest
} from 'node:http';

/**
 * A loopback HTTP proxy in front of a sandbox engine that records what passes and can break
 * an answer mid-way (the socket destroyed after some bytes of a body), or delay answers, so
 * tests see what a client does when an engine fails or is slow in the middle of a long read.
 */
export interface ProxyRule {
  /** Which request to act on: method and path (query included) as sent. */
  matches(method: string, url: string, index: number): boolean;
  /** Destroy the socket after this many bytes of the answer's body. */
  breakAfterBytes?: number;
  /** Hold the answer back this long. */
  delayMs?: number;
  /** Hold the answer back until this settles (the test says when). */
  holdUntil?: Promise<void>;
}

export interface SeenRequest {
  method: string;
  url: string;
  body: string;
}

export interface BreakingProxy {
  url: string;
  seen: SeenRequest[];
  rules: ProxyRule[];
  /** The index in `seen` of the next request `matches` picks, once it arrives. */
  nextRequest(matches: ProxyRule['matches']): Promise<number>;
  /** Settles once the client gave up request `index` (closed its connection) before the whole answer reached it; fails after `timeoutMs`. */
  abandoned(index: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startBreakingProxy(
  target: string
): Promise<BreakingProxy> {
  const upstream = new URL(target);
  const seen: SeenRequest[] = [];
  const rules: ProxyRule[] = [];
  // 'request' and 'abandoned', with the request's index in `seen`.
  const events = new EventEmitter();
  const gaveUp = new Set<number>();
  const server: Server = createServer(
    (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const index = seen.length;
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          body: body.toString('utf8')
        });
        res.on('close', () => {
          if (!res.writableFinished) {
            gaveUp.add(index);
            events.emit('abandoned', index);
          }
        });
        events.emit('request', index);
        const rule = rules.find(r =>
          r.matches(req.method ?? '', req.url ?? '', index)
        );
        const forward = () => {
          const out = httpRequest(
            {
              host: upstream.hostname,
              port: upstream.port,
              method: req.method,
              path: req.url,
              headers: req.headers
            },
            answer => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              let sent = 0;
              answer.on('data', (chunk: Buffer) => {
                if (
                  rule?.breakAfterBytes !== undefined &&
                  sent + chunk.length > rule.breakAfterBytes
                ) {
                  res.write(
                    chunk.subarray(0, Math.max(0, rule.breakAfterBytes - sent))
                  );
                  res.socket?.destroy();
                  answer.destroy();
                  return;
                }
                sent += chunk.length;
                res.write(chunk);
              });
              answer.on('end', () => res.end());
            }
          );
          out.on('error', () => res.socket?.destroy());
          out.end(body);
        };
        if (rule?.holdUntil) {
          void rule.holdUntil.then(forward);
        } else if (rule?.delayMs) {
          setTimeout(forward, rule.delayMs);
        } else {
          forward();
        }
      });
    }
  );
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    rules,
    nextRequest: matches =>
      new Promise(resolve => {
        const onRequest = (index: number) => {
          const request = seen[index];
          if (request && matches(request.method, request.url, index)) {
            events.off('request', onRequest);
            resolve(index);
          }
        };
        events.on('request', onRequest);
      }),
    abandoned: async (index, timeoutMs = 10_000) => {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        while (!gaveUp.has(index)) {
          await once(events, 'abandoned', { signal });
        }
      } catch {
        const request = seen[index];
        throw new Error(
          `the client still waits on ${request?.method} ${request?.url} after ${timeoutMs} ms`
        );
      }
    },
    close: () =>
      new Promise(r => {
        server.closeAllConnections();
        server.close(() => r());
      })
  };
}
