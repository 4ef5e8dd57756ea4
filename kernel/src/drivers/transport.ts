import { Agent, type Dispatcher, errors as undiciErrors } from 'undici';
import type { ConsoleRequest, JsonValue, RequestBody } from '../console/cell';
import { exactJson } from '../json/exact-integers';
import { bufferedRequest } from './buffered-response';
import { connectionFailureMessage } from './connection-failure';
import { EngineError, type EngineResponse } from './driver';

/**
 * What an HTTPS connection checks: `none` trusts any certificate, `chain` that a trusted CA
 * signed it (any host name), `identity` also that it names the host connected to.
 */
export type TlsVerification = 'none' | 'chain' | 'identity';

export interface TransportOptions {
  /** `http://host:port` or `https://host:port`, no path. */
  baseUrl: string;
  /** Headers on every request (auth); their values are secrets and never appear in errors. */
  headers?: Record<string, string>;
  /** For https:// base URLs. `ca` (PEM) replaces the system roots when given. */
  tls?: { verification: TlsVerification; ca?: string };
  /** The sentence that fixes a certificate from an unknown CA under this engine's SSL modes. */
  untrustedCertificateAdvice?: string;
  timeoutMs?: number;
  /** Which connection this is, for messages. */
  label: string;
}

/** One keep-alive connection pool per searchbook connection. */
export class Transport {
  private readonly agent: Agent;

  constructor(private readonly options: TransportOptions) {
    const tls = options.tls;
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      connections: 8,
      connect: tls
        ? {
            rejectUnauthorized: tls.verification !== 'none',
            ...(tls.ca ? { ca: tls.ca } : {}),
            // Verify CA checks the chain but not the name on it.
            ...(tls.verification === 'chain' ? { checkServerIdentity: () => undefined } : {}),
          }
        : {},
    });
  }

  /** Whether requests go over TLS (some engines' advice depends on it). */
  get secure(): boolean {
    return this.options.baseUrl.startsWith('https:');
  }

  /** The engine's address (scheme, host, port): no credential lives in it. */
  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Whether certificates go unchecked (curl then needs `-k` to reach the same engine). */
  get skipsVerification(): boolean {
    return this.secure && this.options.tls?.verification === 'none';
  }

  /** The scheme word of a credential header (`ApiKey`, `Basic`), never the credential itself. */
  headerScheme(name: string): string | undefined {
    const value = Object.entries(this.options.headers ?? {}).find(([h]) => h.toLowerCase() === name.toLowerCase())?.[1];
    const scheme = value?.match(/^([A-Za-z][\w-]*) /)?.[1];
    return scheme;
  }

  /** Whether every request carries this header (a credential), without revealing its value. */
  sendsHeader(name: string): boolean {
    return Object.keys(this.options.headers ?? {}).some((h) => h.toLowerCase() === name.toLowerCase());
  }

  async send(request: Pick<ConsoleRequest, 'method' | 'path' | 'query' | 'body'>, signal: AbortSignal): Promise<EngineResponse> {
    return decoded(await this.sendRaw(request, signal));
  }

  /** Sends a request and hands back the body's bytes undecoded (export pages are read from them). */
  async sendRaw(request: Pick<ConsoleRequest, 'method' | 'path' | 'query' | 'body'>, signal: AbortSignal): Promise<RawResponse> {
    const started = performance.now();
    const { body, contentType } = encodeBody(request.body);
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    try {
      const response = await bufferedRequest(
        this.agent,
        {
          origin: this.options.baseUrl,
          method: request.method,
          path: request.query ? `${request.path}?${request.query}` : request.path,
          headers: { ...this.options.headers, ...(contentType ? { 'content-type': contentType } : {}), accept: 'application/json' },
          body,
          // undici closes the connection after a GET or DELETE that carries a body (a search),
          // for servers that ignore such bodies; both engines read them, so keep it alive.
          ...(body !== undefined ? { reset: false } : {}),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        signal,
      );
      return { status: response.status, headers: flattenHeaders(response.headers), bytes: response.bytes, elapsedMs: performance.now() - started };
    } catch (err) {
      throw this.mapError(err, signal, timeoutMs);
    }
  }

  /**
   * Sends a request and hands back the body as it arrives (exports): nothing is buffered
   * beyond what the caller has not yet read, so a slow reader slows the socket, not memory.
   */
  async stream(request: Pick<ConsoleRequest, 'method' | 'path' | 'query' | 'body'>, signal: AbortSignal): Promise<StreamedResponse> {
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    const { body, contentType } = encodeBody(request.body);
    try {
      const response = await this.agent.request({
        origin: this.options.baseUrl,
        method: request.method,
        path: request.query ? `${request.path}?${request.query}` : request.path,
        headers: { ...this.options.headers, ...(contentType ? { 'content-type': contentType } : {}) },
        body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const mapError = (err: unknown) => this.mapError(err, signal, timeoutMs);
      return { status: response.statusCode, headers: flattenHeaders(response.headers), body: mappedChunks(response.body, mapError) };
    } catch (err) {
      throw this.mapError(err, signal, timeoutMs);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private mapError(err: unknown, signal: AbortSignal, timeoutMs: number): EngineError {
    if (signal.aborted) return new EngineError('Interrupted', 'The request was interrupted; nothing more will be read from it.');
    if (err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) {
      return new EngineError('Timeout', `${this.options.label} did not answer within ${timeoutMs / 1000} s.`);
    }
    const { label, baseUrl } = this.options;
    const untrustedCertificateAdvice = this.options.untrustedCertificateAdvice ?? 'Add skip_verify to trust it anyway, or ca=<PEM file> with the CA that signed it.';
    return new EngineError('Connection failed', connectionFailureMessage(err, { label, baseUrl, untrustedCertificateAdvice }));
  }
}

/** A whole response, its body as the engine sent it. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  elapsedMs: number;
}

/** A raw response with its body decoded (JSON, JSONL or text). */
export function decoded(raw: RawResponse): EngineResponse {
  return { status: raw.status, headers: raw.headers, body: decodeBody(raw.bytes, raw.headers['content-type'] ?? ''), elapsedMs: raw.elapsedMs };
}

/** A response whose body is read as it arrives; read it to the end or the socket stays busy. */
export interface StreamedResponse {
  status: number;
  headers: Record<string, string>;
  /** Rejects with EngineError when the connection breaks mid-body. */
  body: AsyncIterable<Buffer>;
}

async function* mappedChunks(body: AsyncIterable<Buffer>, mapError: (err: unknown) => EngineError): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of body) yield chunk;
  } catch (err) {
    throw mapError(err);
  }
}

function encodeBody(body: RequestBody | undefined): { body?: string; contentType?: string } {
  if (!body) return {};
  // A grid write's whole numbers past 2^53 go out as number literals with every digit.
  if (body.kind === 'json') return { body: exactJson(body.value), contentType: 'application/json' };
  // NDJSON must end with a newline or Elasticsearch's _bulk refuses the last line.
  return { body: `${body.values.map((v) => JSON.stringify(v)).join('\n')}\n`, contentType: 'application/x-ndjson' };
}

/** Drops a byte-order mark, as undici's text() does. */
const UTF8 = new TextDecoder();
const BOM = 3;

function decodeBody(bytes: Buffer, contentType: string): EngineResponse['body'] {
  const text = UTF8.decode(bytes);
  if (text.length === 0) return { kind: 'empty' };
  try {
    const value = JSON.parse(text) as JsonValue;
    const bom = bytes.length >= BOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return { kind: 'json', value, bytes: bom ? bytes.subarray(BOM) : bytes };
  } catch {
    // JSONL (Typesense export and import): one JSON value per line.
    const lines = text.split('\n').filter((l) => l.trim().length > 0);
    if (lines.length > 1 || /jsonl|ndjson|octet-stream/.test(contentType)) {
      try {
        return { kind: 'jsonl', values: lines.map((l) => JSON.parse(l) as JsonValue) };
      } catch {
        // Not JSONL either: fall through to text.
      }
    }
    return { kind: 'text', text };
  }
}

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
