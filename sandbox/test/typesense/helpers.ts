/** Starts a Typesense sandbox on a real loopback socket and talks to it with undici. */
import { request } from 'undici';
import { listen, type ListeningServer } from '../../src/serve';
import {
  createTypesenseSandbox,
  type TypesenseSandbox,
  type TypesenseSandboxOptions
} from '../../src/typesense';

export const ADMIN_KEY = 'sandbox-admin-key';

export interface Running {
  sandbox: TypesenseSandbox;
  server: ListeningServer;
  url: string;
  call(
    method: string,
    path: string,
    opts?: { body?: unknown; key?: string | null; raw?: string }
  ): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  text: string;
  contentType: string;
  json(): unknown;
}

export async function start(
  opts: Partial<TypesenseSandboxOptions> = {}
): Promise<Running> {
  const sandbox = createTypesenseSandbox({
    version: '29.0',
    apiKey: ADMIN_KEY,
    ...opts
  });
  const server = await listen(sandbox.handler, { port: 0 });
  const call: Running['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = {};
    const key = o.key === undefined ? ADMIN_KEY : o.key;
    if (key !== null) {
      headers['X-TYPESENSE-API-KEY'] = key;
    }
    let body: string | undefined;
    if (o.raw !== undefined) {
      body = o.raw;
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const res = await request(server.url + path, {
      method: method as 'GET',
      headers,
      body
    });
    const text = await res.body.text();
    return {
      status: res.statusCode,
      text,
      contentType: String(res.headers['content-type'] ?? ''),
      json: () => JSON.parse(text) as unknown
    };
  };
  return {
    sandbox,
    server,
    url: server.url,
    call,
    close: () => server.close()
  };
}

export const BOOKS_SCHEMA = {
  name: 'books',
  enable_nested_fields: true,
  default_sorting_field: 'ratings_count',
  fields: [
    { name: 'title', type: 'string', sort: true },
    { name: 'author', type: 'string', facet: true },
    { name: 'genre', type: 'string', facet: true },
    { name: 'year', type: 'int32' },
    { name: 'ratings_count', type: 'int32' },
    { name: 'rating', type: 'float' },
    { name: 'in_print', type: 'bool' },
    { name: 'tags', type: 'string[]', optional: true },
    { name: 'meta', type: 'object', optional: true },
    { name: 'variants', type: 'object[]', optional: true }
  ]
};

export function book(
  i: number,
  extra: Record<string, unknown> = {}
): Record<string, unknown> {
  return {
    title: `Book number ${i}`,
    author: i % 2 === 0 ? 'Ann Leckie' : 'Iain Banks',
    genre: i % 3 === 0 ? 'fantasy' : 'science fiction',
    year: 1990 + (i % 30),
    ratings_count: i * 10,
    rating: (i % 50) / 10,
    in_print: i % 4 !== 0,
    meta: { pages: 100 + i, publisher: i % 2 === 0 ? 'Orbit' : 'Tor' },
    variants: [
      { sku: `SKU-${i}-P`, format: 'paperback' },
      { sku: `SKU-${i}-H`, format: 'hardcover' }
    ],
    ...extra
  };
}
