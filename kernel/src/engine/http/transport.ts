import { Agent, type Dispatcher, errors as undiciErrors } from 'undici';
import type {
  ConsoleRequest,
  JsonValue,
  RequestBody
} from '../../console/cell';
import {
  DEFAULT_ANSWER_CAP_BYTES,
  formatBytes,
  MAX_ANSWER_CAP_BYTES
} from '../request-bounds';
import {
  AnswerCutError,
  CapPassedError,
  type BufferedResponse,
  bufferedRequest,
  DeadlinePassedError
} from './buffered-response';
import { exactJson } from '../../json/exact-integers';
import {
  connectionFailureMessage,
  connectionFailureReason
} from './connection-failure';
import { decodeContent } from './content-encoding';
import { jsonFault } from './json-fault';
import { MAX_ANSWER_DEPTH, nestingDepth } from './json-depth';
import type { EngineResponse } from '../capabilities/console';
import {
  AnswerTimeoutError,
  AnswerTooLargeError,
  ConnectionFailedError,
  EngineError,
  InterruptedError
} from '../errors';

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
  /** How long one whole answer may take, headers and body (60 s by default). */
  timeoutMs?: number;
  /** Bytes one answer may hold in memory (DEFAULT_ANSWER_CAP_BYTES by default). */
  maxAnswerBytes?: number;
  /** How to page or narrow an answer that passed the cap, in the engine's words. */
  largeAnswerAdvice?: string;
  /** Which connection this is, for messages. */
  label: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** What requests say their bodies are and which answers they accept. */
export interface MediaTypes {
  readonly accept: string;
  readonly json: string;
  readonly ndjson: string;
}

const PLAIN_MEDIA_TYPES: MediaTypes = {
  accept: 'application/json',
  json: 'application/json',
  ndjson: 'application/x-ndjson'
};

/**
 * Methods that mean the same however often they are sent (RFC 9110, 9.2.1 safe methods):
 * only these are sent again after a connection closed before any answer came. A PUT or
 * DELETE may have been carried out by a server that then closed without answering, and a
 * `_bulk` of `create` actions sent twice would report its own documents as conflicts.
 */
const RESENDABLE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** One keep-alive connection pool per searchbook connection. */
export class Transport {
  private readonly agent: Agent;
  private mediaTypes: MediaTypes = PLAIN_MEDIA_TYPES;

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
            ...(tls.verification === 'chain'
              ? { checkServerIdentity: () => undefined }
              : {})
          }
        : {}
    });
  }

  /**
   * Sends every later request with these media types (an engine's versioned ones, which a
   * driver chooses once it knows the version that answers).
   */
  useMediaTypes(mediaTypes: MediaTypes): void {
    this.mediaTypes = mediaTypes;
  }

  /** The media types chosen by useMediaTypes(), if any (a curl line of a request sends them too). */
  get versionedMediaTypes(): MediaTypes | undefined {
    return this.mediaTypes === PLAIN_MEDIA_TYPES ? undefined : this.mediaTypes;
  }

  /** An Accept header where the media types are not plain JSON (exports otherwise send none). */
  private get mediaTypeHeaders(): Record<string, string> {
    const versioned = this.versionedMediaTypes;
    return versioned ? { accept: versioned.accept } : {};
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
    const value = Object.entries(this.options.headers ?? {}).find(
      ([h]) => h.toLowerCase() === name.toLowerCase()
    )?.[1];
    const scheme = value?.match(/^([A-Za-z][\w-]*) /)?.[1];
    return scheme;
  }

  /** Whether every request carries this header (a credential), without revealing its value. */
  sendsHeader(name: string): boolean {
    return Object.keys(this.options.headers ?? {}).some(
      h => h.toLowerCase() === name.toLowerCase()
    );
  }

  async send(
    request: Pick<ConsoleRequest, 'method' | 'path' | 'query' | 'body'>,
    signal: AbortSignal
  ): Promise<EngineResponse> {
    return decoded(await this.sendRaw(request, signal));
  }

  /** Sends a request and hands back the body's bytes (decompressed, not parsed: export pages are read from them). */
  async sendRaw(
    request: Pick<ConsoleRequest, 'method' | 'path' | 'query' | 'body'>,
    signal: AbortSignal
  ): Promise<RawResponse> {
    const started = performance.now();
    const { body, contentType } = encodeBody(request.body, this.mediaTypes);
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = this.options.maxAnswerBytes ?? DEFAULT_ANSWER_CAP_BYTES;
    try {
      const options: Dispatcher.DispatchOptions = {
        origin: this.options.baseUrl,
        method: request.method,
        path: request.query ? `${request.path}?${request.query}` : request.path,
        headers: {
          ...this.options.headers,
          ...(contentType ? { 'content-type': contentType } : {}),
          accept: this.mediaTypes.accept
        },
        body,
        // undici closes the connection after a GET or DELETE that carries a body (a search),
        // for servers that ignore such bodies; both engines read them, so keep it alive.
        ...(body !== undefined ? { reset: false } : {}),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs
      };
      const response = await this.dispatch(options, signal, {
        maxBytes,
        deadlineMs: timeoutMs
      });
      const headers = flattenHeaders(response.headers);
      const content = await decodeContent(
        response.bytes,
        headers['content-encoding'],
        maxBytes
      );
      if (content.decoded) {
        // The bytes handed on are no longer the encoded ones these headers describe.
        delete headers['content-encoding'];
        delete headers['content-length'];
      }
      return {
        status: response.status,
        headers,
        bytes: content.bytes,
        elapsedMs: performance.now() - started
      };
    } catch (err) {
      throw this.mapError(err, signal, timeoutMs);
    }
  }

  /**
   * One request, sent a second time only when its connection closed before any answer came
   * and its method is safe to repeat: a keep-alive socket the server closed while it sat idle
   * fails the next request written to it, though that request never reached the engine.
   */
  private async dispatch(
    options: Dispatcher.DispatchOptions,
    signal: AbortSignal,
    bounds: { maxBytes: number; deadlineMs: number }
  ): Promise<BufferedResponse> {
    const attempt = { answered: false };
    const started = performance.now();
    try {
      return await bufferedRequest(this.agent, options, signal, {
        ...bounds,
        attempt
      });
    } catch (err) {
      if (
        signal.aborted ||
        attempt.answered ||
        !RESENDABLE.has(options.method) ||
        !closedUnanswered(err)
      ) {
        throw err;
      }
      // The deadline covers both sendings.
      const deadlineMs = Math.max(
        1,
        bounds.deadlineMs - (performance.now() - started)
      );
      return bufferedRequest(this.agent, options, signal, {
        ...bounds,
        deadlineMs
      });
    }
  }

  /**
   * Sends a request and hands back the body as it arrives (exports): nothing is buffered
   * beyond what the caller has not yet read, so a slow reader slows the socket, not memory.
   */
  async stream(
    request: Pick<ConsoleRequest, 'method' | 'path' | 'query' | 'body'>,
    signal: AbortSignal
  ): Promise<StreamedResponse> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const { body, contentType } = encodeBody(request.body, this.mediaTypes);
    try {
      const response = await this.agent.request({
        origin: this.options.baseUrl,
        method: request.method,
        path: request.query ? `${request.path}?${request.query}` : request.path,
        headers: {
          ...this.options.headers,
          ...(contentType ? { 'content-type': contentType } : {}),
          ...this.mediaTypeHeaders
        },
        body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs
      });
      // Anything failing while the body streams fails after the status came.
      const mapError = (err: unknown) =>
        this.mapError(
          new AnswerCutError(response.statusCode, undefined, err),
          signal,
          timeoutMs
        );
      return {
        status: response.statusCode,
        headers: flattenHeaders(response.headers),
        body: mappedChunks(response.body, mapError)
      };
    } catch (err) {
      throw this.mapError(err, signal, timeoutMs);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private tooLarge(err: CapPassedError): EngineError {
    const cap = formatBytes(err.maxBytes);
    const reached =
      err.stage === 'announced'
        ? `its Content-Length announced ${formatBytes(err.reached)}, so it was not read`
        : err.stage === 'decoded'
          ? 'it grew past that once decompressed, so it was dropped'
          : `the request was aborted at ${formatBytes(err.reached)} read and what was read let go`;
    const advice = this.options.largeAnswerAdvice ?? 'Ask for a smaller answer';
    return new AnswerTooLargeError(
      `The answer of ${this.options.label} is larger than the ${cap} one answer may hold in memory (max_answer of this connection): ${reached}. ${advice}; or raise the cap with max_answer=<size> on %connect (at most ${formatBytes(MAX_ANSWER_CAP_BYTES).replace(' ', '')}).`
    );
  }

  private mapError(
    err: unknown,
    signal: AbortSignal,
    timeoutMs: number
  ): EngineError {
    if (signal.aborted) {
      return new InterruptedError(
        'The request was interrupted; nothing more will be read from it.'
      );
    }
    const cut = err instanceof AnswerCutError ? err : undefined;
    if (cut) {
      err = cut.failure;
    }
    if (err instanceof EngineError) {
      return err;
    }
    if (
      err instanceof DeadlinePassedError ||
      err instanceof undiciErrors.HeadersTimeoutError ||
      err instanceof undiciErrors.BodyTimeoutError
    ) {
      return new AnswerTimeoutError(
        `${this.options.label} did not send its whole answer within ${timeoutMs / 1000} s (timeout=${timeoutMs / 1000} of this connection), so the request was aborted. Wait longer with timeout=<seconds> on %connect, or ask for less.`
      );
    }
    if (err instanceof CapPassedError) {
      return this.tooLarge(err);
    }
    const { label, baseUrl } = this.options;
    if (cut) {
      const read =
        cut.received === undefined
          ? ''
          : ` after ${formatBytes(cut.received)} of it`;
      return new ConnectionFailedError(
        `Connection failed: ${label} (${baseUrl}) answered ${cut.status} and then closed the connection before the whole answer came${read} (${connectionFailureReason(err)}), so none of it is shown. Run the cell again; if it happens again, the engine or a proxy in between cuts answers off: its log says why.`
      );
    }
    const untrustedCertificateAdvice =
      this.options.untrustedCertificateAdvice ??
      'Add skip_verify to trust it anyway, or ca=<PEM file> with the CA that signed it.';
    return new ConnectionFailedError(
      connectionFailureMessage(err, {
        label,
        baseUrl,
        untrustedCertificateAdvice
      })
    );
  }
}

/** A socket closed or reset before any answer: what a keep-alive connection closed while idle gives. */
function closedUnanswered(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return (
    err instanceof undiciErrors.SocketError ||
    code === 'ECONNRESET' ||
    code === 'EPIPE'
  );
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
  const { body, notice } = decodeBody(
    raw.bytes,
    raw.headers['content-type'] ?? ''
  );
  return {
    status: raw.status,
    headers: raw.headers,
    body,
    elapsedMs: raw.elapsedMs,
    ...(notice ? { notice } : {})
  };
}

/** A response whose body is read as it arrives; read it to the end or the socket stays busy. */
export interface StreamedResponse {
  status: number;
  headers: Record<string, string>;
  /** Rejects with EngineError when the connection breaks mid-body. */
  body: AsyncIterable<Buffer>;
}

async function* mappedChunks(
  body: AsyncIterable<Buffer>,
  mapError: (err: unknown) => EngineError
): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of body) {
      yield chunk;
    }
  } catch (err) {
    throw mapError(err);
  }
}

function encodeBody(
  body: RequestBody | undefined,
  mediaTypes: MediaTypes
): {
  body?: string;
  contentType?: string;
} {
  if (!body) {
    return {};
  }
  // A grid write's whole numbers past 2^53 go out as number literals with every digit.
  if (body.kind === 'json') {
    return { body: exactJson(body.value), contentType: mediaTypes.json };
  }
  // NDJSON must end with a newline or Elasticsearch's _bulk refuses the last line.
  return {
    body: `${body.values.map(v => JSON.stringify(v)).join('\n')}\n`,
    contentType: mediaTypes.ndjson
  };
}

/** Drops a byte-order mark, as undici's text() does. */
const UTF8 = new TextDecoder();
const BOM = 3;

function decodeBody(
  bytes: Buffer,
  contentType: string
): { body: EngineResponse['body']; notice?: string } {
  const text = UTF8.decode(bytes);
  if (text.length === 0) {
    return { body: { kind: 'empty' } };
  }
  const depth = nestingDepth(bytes);
  if (depth > MAX_ANSWER_DEPTH) {
    return {
      body: { kind: 'text', text },
      notice: `The answer nests arrays and objects deeper than ${MAX_ANSWER_DEPTH} levels, more than searchbook reads as JSON, so it is shown as the text it came as. Ask the engine for only the parts you need.`
    };
  }
  try {
    const value = JSON.parse(text) as JsonValue;
    const bom =
      bytes.length >= BOM &&
      bytes[0] === 0xef &&
      bytes[1] === 0xbb &&
      bytes[2] === 0xbf;
    return {
      body: { kind: 'json', value, bytes: bom ? bytes.subarray(BOM) : bytes }
    };
  } catch {
    // JSONL (Typesense export and import): one JSON value per line.
    const lines = text.split('\n').filter(l => l.trim().length > 0);
    if (lines.length > 1 || /jsonl|ndjson|octet-stream/.test(contentType)) {
      try {
        return {
          body: {
            kind: 'jsonl',
            values: lines.map(l => JSON.parse(l) as JsonValue)
          }
        };
      } catch {
        // Not JSONL either: fall through to text.
      }
    }
    return {
      body: { kind: 'text', text },
      ...notJsonNotice(text, contentType)
    };
  }
}

/** A body whose Content-Type says JSON but that does not parse: shown as text, and said so. */
function notJsonNotice(text: string, contentType: string): { notice?: string } {
  if (!/\bjson\b/i.test(contentType)) {
    return {};
  }
  const fault = jsonFault(text);
  const where = fault ? ` (at character ${fault.offset}: ${fault.what})` : '';
  return {
    notice: `The answer says it is ${contentType.split(';')[0]?.trim()} (its Content-Type) but is not valid JSON${where}, so it is shown as the text it came as.`
  };
}

function flattenHeaders(
  headers: Dispatcher.ResponseData['headers']
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) {
      flat[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return flat;
}
