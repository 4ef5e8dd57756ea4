/**
 * One keep-alive connection pool per searchbook connection: it sends a request to a node of
 * the connection (failover.ts), reads the whole answer within its bounds or streams it, and
 * hands back its bytes decompressed (answer-body.ts decodes them, answer-errors.ts words the
 * failures, copy-facts.ts tells copied code how to reach the same engine).
 */
import { Agent, type Dispatcher } from 'undici';
import type { ConsoleRequest } from '../../console/cell';
import { DEFAULT_ANSWER_CAP_BYTES } from '../request-bounds';
import type { EngineResponse } from '../capabilities/console';
import type { SourcesAt } from './shared-sources';
import {
  decoded,
  decodedShapeOnly,
  flattenHeaders,
  mappedChunks,
  type RawResponse,
  type StreamedResponse
} from './answer-body';
import { AnswerErrors } from './answer-errors';
import {
  AnswerCutError,
  type BufferedResponse,
  bufferedRequest
} from './buffered-response';
import { decodeContent } from './content-encoding';
import { CopyFacts } from './copy-facts';
import { closedUnanswered, Failover, RESENDABLE } from './failover';
import { returnMemoryAfter } from './memory-return';
import { answeredByLine, NodePool } from './node-pool';
import { encodeBody, type MediaTypes, PLAIN_MEDIA_TYPES } from './request-body';
import { DEFAULT_TIMEOUT_MS, type TransportOptions } from './transport-options';

export class Transport {
  private readonly agent: Agent;
  private mediaTypes: MediaTypes = PLAIN_MEDIA_TYPES;
  private readonly pool: NodePool;
  private readonly errors: AnswerErrors;
  private readonly failover: Failover;
  /** What code copied from this connection needs to reach the same engine the same way. */
  readonly copy: CopyFacts;

  constructor(private readonly options: TransportOptions) {
    this.pool = new NodePool(
      options.nodes && options.nodes.length > 0
        ? options.nodes
        : [options.baseUrl],
      options.now
    );
    this.errors = new AnswerErrors(options);
    this.failover = new Failover(
      this.pool,
      this.errors,
      options.label,
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    );
    this.copy = new CopyFacts(options, this.pool, () =>
      this.mediaTypes === PLAIN_MEDIA_TYPES ? undefined : this.mediaTypes
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

  /** An Accept header where the media types are not plain JSON (exports otherwise send none). */
  private get mediaTypeHeaders(): Record<string, string> {
    const versioned = this.copy.versionedMediaTypes;
    return versioned ? { accept: versioned.accept } : {};
  }

  /** The node requests go to now (see CopyFacts.baseUrl). */
  get baseUrl(): string {
    return this.copy.baseUrl;
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

  /**
   * `shapeOnly`: where a search answer's documents sit, read for their shape only
   * (decodedShapeOnly). `early`: handed a successful answer's bytes before they are read.
   */
  async send(
    request: Pick<ConsoleRequest, 'method' | 'path' | 'query' | 'body'>,
    signal: AbortSignal,
    shapeOnly?: SourcesAt,
    early?: (bytes: Buffer) => Promise<void>
  ): Promise<EngineResponse> {
    const raw = await this.sendRaw(request, signal);
    if (shapeOnly && early && raw.status >= 200 && raw.status < 300) {
      // Only a head start for the reader: the answer goes on whether or not it went out.
      await early(raw.bytes).catch(() => undefined);
    }
    return shapeOnly ? decodedShapeOnly(raw, shapeOnly) : decoded(raw);
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
    const sent = await this.failover.toSomeNode(
      request.method,
      signal,
      async node => {
        const options: Dispatcher.DispatchOptions = {
          ...(await this.addressed(request, node, body, {
            ...(contentType ? { 'content-type': contentType } : {}),
            accept: this.mediaTypes.accept
          })),
          body,
          // undici closes the connection after a GET or DELETE that carries a body (a search),
          // for servers that ignore such bodies; both engines read them, so keep it alive.
          ...(body !== undefined ? { reset: false } : {}),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs
        };
        // The deadline covers every node tried.
        const deadlineMs = Math.max(
          1,
          timeoutMs - (performance.now() - started)
        );
        return this.dispatch(options, signal, { maxBytes, deadlineMs });
      }
    );
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
      throw this.errors.map(err, signal, timeoutMs, sent.node);
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
    const sent = await this.failover.toSomeNode(
      request.method,
      signal,
      async node =>
        this.agent.request({
          ...(await this.addressed(request, node, body, {
            ...(contentType ? { 'content-type': contentType } : {}),
            ...this.mediaTypeHeaders
          })),
          body,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs
        })
    );
    const response = sent.response;
    // Anything failing while the body streams fails after the status came.
    const mapError = (err: unknown) =>
      this.errors.map(
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

  /** Where a request goes on `node`, with the headers it is sent with (the connection's, then `headers`). */
  private async addressed(
    request: Pick<ConsoleRequest, 'method' | 'path' | 'query'>,
    node: string,
    body: string | undefined,
    headers: Record<string, string>
  ): Promise<{
    origin: string;
    method: ConsoleRequest['method'];
    path: string;
    headers: Record<string, string>;
  }> {
    return {
      origin: node,
      method: request.method,
      path: request.query ? `${request.path}?${request.query}` : request.path,
      headers: await this.finalHeaders(
        request,
        { ...this.options.headers, ...headers },
        body,
        node
      )
    };
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
}
