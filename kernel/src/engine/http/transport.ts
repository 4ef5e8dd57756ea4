import { maxHeaderSize } from 'node:http';
import { Agent, type Dispatcher, errors as undiciErrors } from 'undici';
import type { ConsoleRequest, RequestBody } from '../../console/cell';
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
import { exactJson, parseExactJson } from '../../json/exact-integers';
import {
  connectionFailureMessage,
  connectionFailureReason
} from './connection-failure';
import { decodeContent } from './content-encoding';
import { elideJson, elisionNotice } from './elided-json';
import { returnMemoryAfter } from './memory-return';
import { jsonFault } from './json-fault';
import {
  answeredByLine,
  nodeName,
  NodePool,
  type PassedNode
} from './node-pool';
import { MAX_ANSWER_DEPTH, nestingDepth } from './json-depth';
import { sizePast } from '../../console/size-past';
import type { EngineResponse } from '../capabilities/console';
import type { CurlCredential } from '../curl-credential';
import {
  AnswerTimeoutError,
  AnswerTooLargeError,
  ConnectionFailedError,
  EngineError,
  InterruptedError,
  UnreadableAnswerError
} from '../errors';

/**
 * What an HTTPS connection checks: `none` trusts any certificate, `chain` that a trusted CA
 * signed it (any host name), `identity` also that it names the host connected to.
 */
export type TlsVerification = 'none' | 'chain' | 'identity';

export interface TransportOptions {
  /** `http://host:port` or `https://host:port`, no path: the first node. */
  baseUrl: string;
  /**
   * Every node of the engine's cluster, `baseUrl` first, all with its scheme: a request goes
   * to one of them, the next when one does not answer (see NodePool). Just `baseUrl` when left out.
   */
  nodes?: readonly string[];
  /** The pool's clock, in milliseconds (performance.now() by default). */
  now?: () => number;
  /** Headers on every request (auth); their values are secrets and never appear in errors. */
  headers?: Record<string, string>;
  /**
   * For https:// base URLs. `ca` (PEM) replaces the system roots when given; `caFile` is where
   * it was read from (absolute), for code copied from this connection.
   */
  tls?: { verification: TlsVerification; ca?: string; caFile?: string };
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
  /** Signs each request once its headers and body are final (a request-signing auth scheme). */
  signer?: RequestSigner;
  /** How a copied curl command authenticates as this connection (by environment variable). */
  curl?: CurlCredential;
}

/** A request as it goes out, for a signer: method, host, path and query exactly as sent. */
export interface OutgoingRequest {
  method: string;
  /** `host[:port]` as the Host header carries it. */
  host: string;
  path: string;
  query?: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Adds the headers that authenticate one request (a signature over its method, path, query,
 * headers and body). The headers it returns are sent as they are, `host` included.
 */
export interface RequestSigner {
  sign(request: OutgoingRequest): Promise<Record<string, string>>;
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

/**
 * Socket failures that come before any byte of the request is written: the node was not
 * reached, so any request may go to another node.
 */
const NOT_REACHED = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL'
]);

/** A node that gave no answer: whether the request may go to the next node, and why. */
interface Unanswered {
  reason: string;
  /**
   * Why the request does not go on to the next node: it may have been carried out (written
   * before the connection failed, and not safe to repeat), or its deadline is spent (the
   * node held it until `timeout=` passed). Undefined: it goes on.
   */
  stays?: 'may-have-arrived' | 'deadline-spent';
}

/** One keep-alive connection pool per searchbook connection. */
export class Transport {
  private readonly agent: Agent;
  private mediaTypes: MediaTypes = PLAIN_MEDIA_TYPES;
  private readonly pool: NodePool;

  constructor(private readonly options: TransportOptions) {
    this.pool = new NodePool(
      options.nodes && options.nodes.length > 0
        ? options.nodes
        : [options.baseUrl],
      options.now
    );
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

  /**
   * The engine's address (scheme, host, port): no credential lives in it. With several nodes,
   * the one requests go to now, so a command copied for another client reaches a live node.
   */
  get baseUrl(): string {
    return this.pool.order()[0]?.url ?? this.options.baseUrl;
  }

  /** Every node requests may go to, in the order the connection lists them. */
  get nodes(): string[] {
    return this.pool.urls;
  }

  /**
   * Which node requests go to now, when that is not the first one listed (it did not answer):
   * a status line, as an answer from that node carries.
   */
  usualNodeDown(): string | undefined {
    const [current] = this.pool.order();
    if (
      !current ||
      current.dead !== undefined ||
      current.url === this.pool.first
    ) {
      return undefined;
    }
    // A node marked dead was tried and did not answer.
    return answeredByLine(
      current.url,
      this.pool.skipped().map(node => ({ ...node, tried: true }))
    );
  }

  /** Whether certificates go unchecked (curl then needs `-k` to reach the same engine). */
  get skipsVerification(): boolean {
    return this.secure && this.options.tls?.verification === 'none';
  }

  /** The CA file certificates are checked against (%connect's `ca=`), when they are checked. */
  get caFile(): string | undefined {
    return this.secure && this.options.tls?.verification !== 'none'
      ? this.options.tls?.caFile
      : undefined;
  }

  /** The scheme word of a credential header (`ApiKey`, `Basic`), never the credential itself. */
  headerScheme(name: string): string | undefined {
    const value = Object.entries(this.options.headers ?? {}).find(
      ([h]) => h.toLowerCase() === name.toLowerCase()
    )?.[1];
    const scheme = value?.match(/^([A-Za-z][\w-]*) /)?.[1];
    return scheme;
  }

  /** How a copied curl command authenticates as this connection, when the engine said so at connect. */
  get curlCredential(): CurlCredential | undefined {
    return this.options.curl;
  }

  /** The signer of every request, when the connection authenticates by signing them. */
  get signer(): RequestSigner | undefined {
    return this.options.signer;
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
    const sent = await this.toSomeNode(request.method, signal, async node => {
      const options: Dispatcher.DispatchOptions = {
        origin: node,
        method: request.method,
        path: request.query ? `${request.path}?${request.query}` : request.path,
        headers: await this.finalHeaders(
          request,
          {
            ...this.options.headers,
            ...(contentType ? { 'content-type': contentType } : {}),
            accept: this.mediaTypes.accept
          },
          body,
          node
        ),
        body,
        // undici closes the connection after a GET or DELETE that carries a body (a search),
        // for servers that ignore such bodies; both engines read them, so keep it alive.
        ...(body !== undefined ? { reset: false } : {}),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs
      };
      // The deadline covers every node tried.
      const deadlineMs = Math.max(1, timeoutMs - (performance.now() - started));
      return this.dispatch(options, signal, { maxBytes, deadlineMs });
    });
    const response = sent.response;
    returnMemoryAfter(response.bytes.length);
    try {
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
        elapsedMs: performance.now() - started,
        ...(sent.answeredBy ? { answeredBy: sent.answeredBy } : {})
      };
    } catch (err) {
      throw this.mapError(err, signal, timeoutMs, sent.node);
    }
  }

  /**
   * Sends to the first node the pool offers, and to the next one when a node does not
   * answer and the request cannot have reached it (or is safe to repeat): a live node's
   * answer, 4xx and 5xx included, is the answer. The answer says which node gave it when that
   * is not the first one listed.
   */
  private async toSomeNode<T>(
    method: string,
    signal: AbortSignal,
    send: (node: string) => Promise<T>
  ): Promise<{ response: T; node: string; answeredBy?: string }> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const order = this.pool.order();
    const failed: { node: string; err: unknown; reason: string }[] = [];
    for (const { url: node } of order) {
      try {
        const response = await send(node);
        this.pool.markAlive(node);
        if (node === this.pool.first) {
          return { response, node };
        }
        const passed: PassedNode[] = [
          ...failed.map(f => ({ node: f.node, reason: f.reason, tried: true })),
          ...this.pool.skipped().filter(s => s.node !== node)
        ];
        return { response, node, answeredBy: answeredByLine(node, passed) };
      } catch (err) {
        const unanswered = signal.aborted
          ? undefined
          : this.unanswered(err, method);
        if (!unanswered) {
          throw this.mapError(err, signal, timeoutMs, node);
        }
        this.pool.markDead(node, unanswered.reason);
        failed.push({ node, err, reason: unanswered.reason });
        if (this.pool.size === 1) {
          throw this.mapError(err, signal, timeoutMs, node);
        }
        if (unanswered.stays) {
          throw this.stayedError(err, signal, node, method, unanswered.stays);
        }
      }
    }
    throw this.noNodeAnswered(failed, signal, timeoutMs);
  }

  /**
   * A node's failure to give a whole answer, as opposed to its answer or a failure of ours: it
   * was not reached, closed the connection before or while answering, or held the request
   * (no answer, or one trickling) until the deadline. Each marks the node dead for its
   * back-off, as the official clients' connection pools do on a connection error or timeout.
   */
  private unanswered(err: unknown, method: string): Unanswered | undefined {
    const code = socketCode(err);
    const reason = connectionFailureReason(err);
    const resendable = RESENDABLE.has(method);
    if (code !== undefined && NOT_REACHED.has(code)) {
      return { reason };
    }
    if (isTimeout(err)) {
      return {
        reason: 'it did not send a whole answer in time',
        stays: 'deadline-spent'
      };
    }
    if (err instanceof AnswerCutError) {
      // The answer was cut off: the request arrived, so only a safe one goes on.
      return {
        reason: `it closed the connection in the middle of its answer (${connectionFailureReason(err.failure)})`,
        ...(resendable ? {} : { stays: 'may-have-arrived' as const })
      };
    }
    if (closedUnanswered(err)) {
      return resendable ? { reason } : { reason, stays: 'may-have-arrived' };
    }
    return undefined;
  }

  /** Why a request that failed on `node` was not sent to another, and where the next one goes. */
  private stayedError(
    err: unknown,
    signal: AbortSignal,
    node: string,
    method: string,
    stays: NonNullable<Unanswered['stays']>
  ): EngineError {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const next = nodeName(this.pool.order()[0]?.url ?? node);
    const mapped = this.mapError(err, signal, timeoutMs, node);
    if (stays === 'deadline-spent') {
      const back = Math.round(this.pool.deadFor(node) / 1000);
      return new AnswerTimeoutError(
        `${mapped.message} Node ${nodeName(node)} is left out for the next ${back} s: run the cell again to send it to ${next}.`
      );
    }
    return new ConnectionFailedError(
      `${mapped.message} ${method} was not sent to another node, since ${nodeName(node)} may have carried it out before the connection failed; run it again to send it to ${next}.`
    );
  }

  private noNodeAnswered(
    failed: { node: string; err: unknown }[],
    signal: AbortSignal,
    timeoutMs: number
  ): EngineError {
    const lines = failed.map(
      f =>
        `- ${nodeName(f.node)}: ${this.mapError(f.err, signal, timeoutMs, f.node, false).message.replace(/^Connection failed: /, '')}`
    );
    return new ConnectionFailedError(
      `Connection failed: no node of connection ${this.options.label} answered:\n${lines.join('\n')}`
    );
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
    const sent = await this.toSomeNode(request.method, signal, async node =>
      this.agent.request({
        origin: node,
        method: request.method,
        path: request.query ? `${request.path}?${request.query}` : request.path,
        headers: await this.finalHeaders(
          request,
          {
            ...this.options.headers,
            ...(contentType ? { 'content-type': contentType } : {}),
            ...this.mediaTypeHeaders
          },
          body,
          node
        ),
        body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs
      })
    );
    const response = sent.response;
    // Anything failing while the body streams fails after the status came.
    const mapError = (err: unknown) =>
      this.mapError(
        new AnswerCutError(response.statusCode, undefined, err),
        signal,
        timeoutMs,
        sent.node
      );
    return {
      status: response.statusCode,
      headers: flattenHeaders(response.headers),
      body: mappedChunks(response.body, mapError),
      ...(sent.answeredBy ? { answeredBy: sent.answeredBy } : {})
    };
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /** The headers as sent: the connection's and the request's, then the signer's over all of them. */
  private async finalHeaders(
    request: Pick<ConsoleRequest, 'method' | 'path' | 'query'>,
    headers: Record<string, string>,
    body: string | undefined,
    node: string
  ): Promise<Record<string, string>> {
    const signer = this.options.signer;
    if (!signer) {
      return headers;
    }
    // Signed for the node it goes to: the host header is part of what is signed.
    return signer.sign({
      method: request.method,
      host: new URL(node).host,
      path: request.path,
      ...(request.query ? { query: request.query } : {}),
      headers,
      ...(body !== undefined ? { body } : {})
    });
  }

  private tooLarge(err: CapPassedError): EngineError {
    const cap = formatBytes(err.maxBytes);
    const reached =
      err.stage === 'announced'
        ? `its Content-Length announced ${sizePast(err.reached, err.maxBytes, formatBytes)}, so it was not read`
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
    timeoutMs: number,
    baseUrl: string,
    /** false: the message names the connection already (one line per node). */
    namesConnection = true
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
    const { label } = this.options;
    // The engine was reached and answered; only its headers were more than the client reads.
    if (err instanceof undiciErrors.HeadersOverflowError) {
      return new UnreadableAnswerError(
        `The answer of ${label} could not be read: its headers are larger than the ${formatBytes(maxHeaderSize)} searchbook reads of them (${connectionFailureReason(err)}), so nothing of it is shown. The engine or a proxy in between sends oversized headers (a long Set-Cookie or Warning header, for example): its configuration or log says which.`
      );
    }
    if (cut) {
      const read =
        cut.received === undefined
          ? ''
          : ` after ${formatBytes(cut.received)} of it`;
      return new ConnectionFailedError(
        `Connection failed: ${baseUrl} (connection ${label}) answered ${cut.status} and then closed the connection before the whole answer came${read} (${connectionFailureReason(err)}), so none of it is shown. Run the cell again; if it happens again, the engine or a proxy in between cuts answers off: its log says why.`
      );
    }
    const untrustedCertificateAdvice =
      this.options.untrustedCertificateAdvice ??
      'Add skip_verify to trust it anyway, or ca=<PEM file> with the CA that signed it.';
    return new ConnectionFailedError(
      connectionFailureMessage(err, {
        ...(namesConnection ? { label } : {}),
        baseUrl,
        untrustedCertificateAdvice
      })
    );
  }
}

/** The answer did not come whole in time: our deadline, or undici's own timeouts. */
function isTimeout(err: unknown): boolean {
  const failure = err instanceof AnswerCutError ? err.failure : err;
  return (
    failure instanceof DeadlinePassedError ||
    failure instanceof undiciErrors.HeadersTimeoutError ||
    failure instanceof undiciErrors.BodyTimeoutError
  );
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

/** The code of a socket failure, looked for down its causes (undici wraps some). */
function socketCode(err: unknown): string | undefined {
  for (
    let e: unknown = err, depth = 0;
    e && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_REACHED.has(code)) {
      return code;
    }
  }
  return undefined;
}

/** A whole response, its body as the engine sent it. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  elapsedMs: number;
  /** Which node answered, when the connection has several and it is not the first: a status line. */
  answeredBy?: string;
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
    ...(notice ? { notice } : {}),
    ...(raw.answeredBy ? { answeredBy: raw.answeredBy } : {})
  };
}

/** A response whose body is read as it arrives; read it to the end or the socket stays busy. */
export interface StreamedResponse {
  status: number;
  headers: Record<string, string>;
  /** Rejects with EngineError when the connection breaks mid-body. */
  body: AsyncIterable<Buffer>;
  /** As RawResponse's. */
  answeredBy?: string;
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
    body: `${body.values.map(v => exactJson(v)).join('\n')}\n`,
    contentType: mediaTypes.ndjson
  };
}

/** Drops a byte-order mark, as undici's text() does. */
const UTF8 = new TextDecoder();
const BOM = 3;

/**
 * The body as read: JSON holding more values than one answer may (see elided-json.ts) is cut
 * to them before it is parsed, a step of its own in front of parsing, and said so.
 */
function decodeBody(
  bytes: Buffer,
  contentType: string
): { body: EngineResponse['body']; notice?: string } {
  const elided = elideJson(bytes);
  if (elided) {
    const read = decodeWhole(elided.bytes, contentType);
    if (read.body.kind === 'json') {
      return {
        body: { ...read.body, elisions: elided.elisions },
        notice: elisionNotice(elided.elisions)
      };
    }
  }
  return decodeWhole(bytes, contentType);
}

function decodeWhole(
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
    // Every digit the engine sent: a long past 2^53 is an ExactNumber, not the nearest double.
    const value = parseExactJson(text);
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
            values: lines.map(parseExactJson)
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
