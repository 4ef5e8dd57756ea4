import { Agent, request } from 'undici';
import {
  createElasticsearchSandbox,
  type ElasticsearchSandbox
} from '../../src/elasticsearch';
import { listen, type ListeningServer } from '../../src/serve';
import { generateCertificates } from '../../src/tls';

export interface Running {
  url: string;
  sandbox: ElasticsearchSandbox;
  server: ListeningServer;
  dispatcher: Agent;
  close(): Promise<void>;
}

export const PASSWORD = 'changeme-sandbox';
export const BASIC =
  'Basic ' + Buffer.from(`elastic:${PASSWORD}`).toString('base64');

export async function start(
  opts: { version?: string; security?: boolean; tls?: boolean } = {}
): Promise<Running> {
  const sandbox = createElasticsearchSandbox({
    version: opts.version ?? '8.15.0',
    security: opts.security ?? true,
    password: PASSWORD
  });
  const certs = opts.tls ? await generateCertificates() : undefined;
  const server = await listen(sandbox.handler, {
    port: 0,
    ...(certs ? { tls: { cert: certs.cert, key: certs.key } } : {})
  });
  const dispatcher = new Agent(certs ? { connect: { ca: certs.ca } } : {});
  return {
    url: server.url,
    sandbox,
    server,
    dispatcher,
    close: async () => {
      await dispatcher.close();
      await server.close();
    }
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the engine's JSON answer freely; every value it reads is asserted
  body: any;
  text: string;
}

export async function call(
  es: Running,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<Reply> {
  const h: Record<string, string> =
    'authorization' in headers || headers['x-no-auth']
      ? { ...headers }
      : { authorization: BASIC, ...headers };
  delete h['x-no-auth'];
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    h['content-type'] ??=
      typeof body === 'string' ? 'application/x-ndjson' : 'application/json';
  }
  const res = await request(es.url + path, {
    method: method as 'GET',
    headers: h,
    body: payload,
    dispatcher: es.dispatcher
  });
  const text = await res.body.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: parsed, text };
}

export function ndjson(lines: unknown[]): string {
  return lines.map(l => JSON.stringify(l)).join('\n') + '\n';
}
