/**
 * The search a grid sends for its view, as a console cell and a curl command: its first
 * search as a one-search POST /multi_search (which the console renders as a grid of hits).
 * The API key stays an environment variable reference.
 */
import type { ViewRequest } from '../../../../contracts/panel-protocol';
import { type CurlTarget, viewRequest } from '../../driver-core/grid-view';
import type { Transport } from '../../driver-core/http/transport';
import { DOCUMENTS_PER_SEARCH, searchesFor } from './collection-reader';
import { KEY_HEADER } from './connection-settings';
import type { SearchParameters } from './grid-filter';

/** Where curl reaches this connection, with the API key as the environment variable it was read from. */
export function curlTarget(transport: Transport): CurlTarget {
  const own = transport.copy.curlCredential;
  // A transport opened without %connect's arguments knows only that it sends the key.
  const credential =
    own?.args ??
    (transport.copy.sendsHeader(KEY_HEADER)
      ? ['-H', '"X-TYPESENSE-API-KEY: $TYPESENSE_API_KEY"']
      : []);
  const caFile = transport.copy.caFile;
  return {
    baseUrl: transport.baseUrl,
    credential,
    insecure: transport.copy.skipsVerification,
    ...(caFile ? { caFile } : {}),
    ...(own?.note ? { note: own.note } : {})
  };
}

export function searchRequest(
  transport: Transport,
  collection: string,
  parameters: SearchParameters,
  byPages: boolean
): ViewRequest {
  const body = {
    searches: searchesFor(
      collection,
      parameters,
      0,
      DOCUMENTS_PER_SEARCH,
      byPages
    ).map(p => p.search)
  };
  return viewRequest('POST', '/multi_search', body, curlTarget(transport));
}
