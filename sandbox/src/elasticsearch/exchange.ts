/**
 * One request/response pair, with the parsing every handler needs: path segments, query
 * parameters, the body (JSON or NDJSON) and JSON answers carrying the product header.
 */
import type http from 'node:http';
import { badJson, esError, truncatedJson } from './errors';
import { applyFilterPath } from './filter-path';
import { jsonBytes, parseJson, stringifyJson } from './long-json';
import type { Principal } from './principal';
import type { Json, JsonObject } from './json-value';

export class Exchange {
  readonly method: string;
  /** Path and query exactly as sent; security errors quote it. */
  readonly uri: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly started = Date.now();
  /** The major version the node answers as (error texts of the JSON parser differ). */
  major = 8;
  params: Record<string, string> = {};
  /** Set by authentication; null when security is off. */
  principal: Principal | null = null;
  private extraHeaders: Record<string, string | string[]> = {};

  constructor(
    readonly req: http.IncomingMessage,
    readonly res: http.ServerResponse,
    readonly body: Buffer,
    private readonly productHeader: boolean
  ) {
    this.method = (req.method ?? 'GET').toUpperCase();
    this.uri = req.url ?? '/';
    const q = this.uri.indexOf('?');
    this.path = q >= 0 ? this.uri.slice(0, q) : this.uri;
    this.query = new URLSearchParams(q >= 0 ? this.uri.slice(q + 1) : '');
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  }

  hasBody(): boolean {
    return this.body.length > 0 && this.body.toString('utf8').trim().length > 0;
  }

  /** The JSON body as an object; undefined when there is none. */
  json(): JsonObject | undefined {
    if (!this.hasBody()) {
      return undefined;
    }
    let parsed: unknown;
    const text = this.body.toString('utf8');
    try {
      parsed = parseJson(text);
    } catch (err) {
      throw truncatedJson(text, this.major) ?? badJson((err as Error).message);
    }
    if (
      parsed === null ||
      typeof parsed !== 'object' ||
      Array.isArray(parsed)
    ) {
      throw badJson('request body must be a JSON object');
    }
    return parsed as JsonObject;
  }

  flag(name: string, fallback = false): boolean {
    const v = this.query.get(name);
    if (v === null) {
      return fallback;
    }
    return v === '' || v === 'true';
  }

  int(name: string): number | undefined {
    const v = this.query.get(name);
    if (v === null || v === '') {
      return undefined;
    }
    const n = Number(v);
    if (!Number.isInteger(n)) {
      throw esError(
        400,
        {
          type: 'illegal_argument_exception',
          reason: `Failed to parse int parameter [${name}] with value [${v}]`,
          caused_by: {
            type: 'number_format_exception',
            reason: `For input string: "${v}"`
          }
        },
        {
          rootCauses: [
            {
              type: 'illegal_argument_exception',
              reason: `Failed to parse int parameter [${name}] with value [${v}]`
            }
          ]
        }
      );
    }
    return n;
  }

  addHeader(name: string, value: string | string[]): void {
    this.extraHeaders[name] = value;
  }

  send(
    status: number,
    body: unknown,
    headers: Record<string, string | string[]> = {}
  ): void {
    const filterPath = this.query.get('filter_path');
    // The filter walks plain values: known texts (stored sources) are read back first.
    if (filterPath !== null && typeof body === 'object' && body !== null) {
      body = applyFilterPath(
        parseJson(stringifyJson(body)) as Json,
        filterPath
      );
    }
    const text =
      typeof body === 'string'
        ? body
        : this.flag('pretty')
          ? stringifyJson(body, 2) + '\n'
          : jsonBytes(body);
    this.sendRaw(status, text, this.contentType(), headers);
  }

  /** For bodies already serialised (search pages are built as strings, not objects). */
  sendRaw(
    status: number,
    text: string | Buffer,
    contentType: string,
    headers: Record<string, string | string[]> = {}
  ): void {
    const res = this.res;
    res.statusCode = status;
    if (this.productHeader) {
      res.setHeader('X-elastic-product', 'Elasticsearch');
    }
    for (const [k, v] of Object.entries({ ...this.extraHeaders, ...headers })) {
      res.setHeader(k, v);
    }
    if (this.method === 'HEAD') {
      res.setHeader('content-length', '0');
      res.end();
      return;
    }
    res.setHeader('content-type', contentType);
    res.setHeader('content-length', String(Buffer.byteLength(text)));
    res.end(text);
  }

  /** Mirrors the compatibility media type that the 8.x clients ask for. */
  contentType(): string {
    const accept = this.header('accept') ?? '';
    const m =
      /application\/vnd\.elasticsearch\+json;\s*compatible-with=(\d+)/.exec(
        accept
      );
    return m
      ? `application/vnd.elasticsearch+json;compatible-with=${m[1]}`
      : 'application/json';
  }
}
