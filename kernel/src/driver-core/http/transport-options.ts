/** What a Transport is made with, and what a signer of its requests is given. */
import type { CurlCredential } from '../curl-credential';

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

/** How long one whole answer may take when the connection sets no `timeout=`. */
export const DEFAULT_TIMEOUT_MS = 60_000;
