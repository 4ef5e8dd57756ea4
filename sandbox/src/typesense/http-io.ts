import type http from 'node:http';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

/** What a route handler hands back; streaming replies write the body themselves. */
export type Reply =
  | { kind: 'body'; status: number; body: string; contentType?: string }
  | {
      kind: 'stream';
      status: number;
      contentType: string;
      write(res: http.ServerResponse): Promise<void>;
    };

export function json(status: number, body: string): Reply {
  return { kind: 'body', status, body, contentType: JSON_TYPE };
}

export function text(status: number, body: string): Reply {
  return { kind: 'body', status, body, contentType: TEXT_TYPE };
}

export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Writes one chunk and waits for the socket to drain when its buffer is full. */
export function writeChunk(
  res: http.ServerResponse,
  chunk: string
): Promise<void> {
  if (res.write(chunk)) {
    return Promise.resolve();
  }
  return new Promise(resolve => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
