/**
 * What code copied from a connection needs to reach the same engine the same way ("Copy as
 * curl", "Copy as Python", a grid cell's request): the node requests go to now, whether
 * certificates are checked and against which CA, and how it authenticates, never a credential.
 */
import type { CurlCredential } from '../curl-credential';
import type { NodePool } from './node-pool';
import type { MediaTypes } from './request-body';
import type { RequestSigner, TransportOptions } from './transport-options';

export class CopyFacts {
  constructor(
    private readonly options: TransportOptions,
    private readonly pool: NodePool,
    private readonly mediaTypes: () => MediaTypes | undefined
  ) {}

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

  /** The media types the driver chose (an engine's versioned ones), if any: a curl line of a request sends them too. */
  get versionedMediaTypes(): MediaTypes | undefined {
    return this.mediaTypes();
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
}
