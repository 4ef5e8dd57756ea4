/**
 * The search a grid sends for its view, as a console cell and a curl command: the grid's own
 * query and sort on the target, without its point in time (a cursor that dies with the grid).
 * The credential stays an environment variable reference.
 */
import type { JsonValue } from '../../console/cell';
import type { ViewRequest } from '../../../../contracts/panel-protocol';
import { targetSegment } from '../../driver-core/grid-request';
import { type CurlTarget, viewRequest } from '../../driver-core/grid-view';
import type { Transport } from '../../driver-core/http/transport';
import { AwsSigV4Signer } from './aws-signer';

/** curl arguments naming the credential the connection uses, by environment variable. */
export function credential(transport: Transport): string[] {
  const signer = transport.copy.signer;
  if (signer instanceof AwsSigV4Signer) {
    // curl signs by itself (7.75+); it sends no session token unless told to.
    return [
      '--aws-sigv4',
      `"aws:amz:${signer.region}:${signer.service}"`,
      '--user',
      '"$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY"',
      ...(signer.sendsSessionToken
        ? ['-H', '"x-amz-security-token: $AWS_SESSION_TOKEN"']
        : [])
    ];
  }
  const own = transport.copy.curlCredential;
  if (own) {
    return own.args;
  }
  // A transport opened without %connect's arguments knows only its header's scheme.
  switch (transport.copy.headerScheme('authorization')?.toLowerCase()) {
    case 'apikey':
      return ['-H', '"Authorization: ApiKey $ES_API_KEY"'];
    case 'basic':
      return ['-u', '"$ES_USER:$ES_PASSWORD"'];
    case 'bearer':
      return ['-H', '"Authorization: Bearer $ES_TOKEN"'];
    default:
      return [];
  }
}

/** Where curl reaches this connection, and how it authenticates (by environment variable). */
export function curlTarget(transport: Transport): CurlTarget {
  const mediaTypes = transport.copy.versionedMediaTypes;
  const note = transport.copy.signer
    ? undefined
    : transport.copy.curlCredential?.note;
  const caFile = transport.copy.caFile;
  return {
    baseUrl: transport.baseUrl,
    credential: credential(transport),
    insecure: transport.copy.skipsVerification,
    ...(caFile ? { caFile } : {}),
    ...(mediaTypes ? { mediaTypes } : {}),
    ...(note ? { note } : {})
  };
}

export function searchRequest(
  transport: Transport,
  target: string,
  blockSize: number,
  query: JsonValue | undefined,
  sort: JsonValue[],
  /** The `_source` the grid reads rows with (vectors asked for on versions that leave them out). */
  source?: JsonValue
): ViewRequest {
  const body: Record<string, JsonValue> = {
    ...(query !== undefined ? { query } : {}),
    ...(sort.length ? { sort } : {}),
    ...(source !== undefined ? { _source: source } : {}),
    size: blockSize,
    track_total_hits: true
  };
  return viewRequest(
    'POST',
    `/${targetSegment(target)}/_search`,
    body,
    curlTarget(transport)
  );
}
