/**
 * Signs each request with AWS Signature Version 4 through the AWS SDK's own signer
 * (@smithy/signature-v4), once the transport has made its headers and body final. The body's
 * SHA-256 goes in x-amz-content-sha256 (OpenSearch Serverless requires it, a managed domain
 * accepts it), and a session token in x-amz-security-token.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import { Hash } from '@smithy/core/serde';
import type {
  OutgoingRequest,
  RequestSigner
} from '../../driver-core/http/transport-options';
import type { AwsCredentials } from './aws-credentials';

export class AwsSigV4Signer implements RequestSigner {
  private readonly signer: SignatureV4;
  /** Whether a session token goes with each request (curl then has to send it too). */
  readonly sendsSessionToken: boolean;

  constructor(
    readonly region: string,
    readonly service: string,
    credentials: AwsCredentials,
    private readonly options: {
      /** When the signature is made; the clock by default (AWS refuses one more than 5 minutes off). */
      now?: () => Date;
      /** Whether x-amz-content-sha256 is sent; the body's hash is signed either way. */
      bodyHashHeader?: boolean;
    } = {}
  ) {
    this.sendsSessionToken = credentials.sessionToken !== undefined;
    this.signer = new SignatureV4({
      credentials,
      region,
      service,
      sha256: Hash.bind(null, 'sha256'),
      applyChecksum: options.bodyHashHeader ?? true
    });
  }

  async sign(request: OutgoingRequest): Promise<Record<string, string>> {
    const signed = await this.signer.sign(
      {
        method: request.method,
        protocol: 'https:',
        hostname: request.host,
        path: request.path,
        query: queryOf(request.query),
        headers: { ...request.headers, host: request.host },
        ...(request.body !== undefined ? { body: request.body } : {})
      },
      { signingDate: (this.options.now ?? (() => new Date()))() }
    );
    return signed.headers;
  }
}

/**
 * The query as the signer wants it, names to values decoded (a name written twice keeps
 * every value); `+` is a space, as the official OpenSearch clients read it.
 */
function queryOf(query: string | undefined): Record<string, string | string[]> {
  // No prototype: a parameter named __proto__ is a parameter like any other.
  const parsed = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(query ?? '')) {
    const before = parsed[name];
    parsed[name] =
      before === undefined
        ? value
        : Array.isArray(before)
          ? [...before, value]
          : [before, value];
  }
  return parsed;
}
