/**
 * Amazon OpenSearch Serverless (signing service `aoss`) serves a subset of OpenSearch's API
 * without `GET /` (it answers 404), so a connection to a collection cannot read a version:
 * it is checked with a request the collection serves, and known as OpenSearch Serverless
 * (https://docs.aws.amazon.com/opensearch-service/latest/developerguide/serverless-genref.html).
 */
import type { EngineIdentity } from '../../driver-core/driver';
import type { Transport } from '../../driver-core/http/transport';
import { AwsSigV4Signer } from './aws-signer';
import { elasticsearchFailure } from './failure';
import { type Flavour, flavourOf } from './flavour';

/**
 * It speaks OpenSearch 2.x's API, its point in time included
 * (https://docs.aws.amazon.com/opensearch-service/latest/developerguide/serverless-pit.html).
 */
export const SERVERLESS_FLAVOUR: Flavour = {
  ...flavourOf({ number: '2.19.0', distribution: 'opensearch' }),
  version: 'Serverless'
};

export function isServerless(transport: Transport): boolean {
  const signer = transport.copy.signer;
  return signer instanceof AwsSigV4Signer && signer.service === 'aoss';
}

/** Lists the collection's indices: it proves the address and the signature as `GET /` would. */
export async function probeServerless(
  transport: Transport,
  signal: AbortSignal
): Promise<EngineIdentity> {
  const response = await transport.send(
    { method: 'GET', path: '/_cat/indices', query: 'format=json&h=index' },
    signal
  );
  const failure = elasticsearchFailure(response, 'OpenSearch');
  if (failure) {
    throw failure;
  }
  return {
    version: SERVERLESS_FLAVOUR.version,
    warnings: [],
    product: SERVERLESS_FLAVOUR.product
  };
}
