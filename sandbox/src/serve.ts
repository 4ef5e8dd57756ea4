/**
 * Shared listening plumbing for the sandbox engines: one function that puts a request
 * handler on a real loopback socket, over HTTP or HTTPS, and closes it without waiting
 * for idle keep-alive clients.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ListenOptions {
  /** Defaults to 127.0.0.1: the sandboxes are never meant to be reachable from outside. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  tls?: { cert: string; key: string };
}

export interface ListeningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function listen(
  handler: http.RequestListener,
  opts: ListenOptions
): Promise<ListeningServer> {
  const host = opts.host ?? '127.0.0.1';
  const server: http.Server = opts.tls
    ? https.createServer({ cert: opts.tls.cert, key: opts.tls.key }, handler)
    : http.createServer(handler);
  // Large bulk bodies and long exports should not be cut by Node's default timeouts.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 5_000;

  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(opts.port, host, () => {
      server.off('error', onError);
      const port = (server.address() as AddressInfo).port;
      const scheme = opts.tls ? 'https' : 'http';
      const hostPart = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `${scheme}://${hostPart}:${port}`,
        port,
        close: () => closeServer(server)
      });
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close(err => (err ? reject(err) : resolve()));
    // Pooled clients keep sockets open; without this close() would wait for them.
    server.closeIdleConnections();
    server.closeAllConnections();
  });
}
