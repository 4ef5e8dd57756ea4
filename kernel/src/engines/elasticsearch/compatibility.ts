/**
 * Elasticsearch's REST API compatibility
 * (https://www.elastic.co/docs/reference/elasticsearch/rest-apis/compatibility): a request whose
 * `Accept` and `Content-Type` say `compatible-with=N` is served as the major version N served
 * it, on a node of version N or N+1 (a 9.x node serves 8.x requests, and refuses
 * `compatible-with=7` with 400 media_type_header_exception). The official 8.x clients send
 * these media types on every request.
 */
import type { MediaTypes } from '../../driver-core/http/request-body';
import type { Flavour } from './flavour';

/**
 * The media types that ask a node for an earlier major version's API, or undefined where
 * there is nothing to ask (the node's own major version is served as it is).
 */
export function compatibilityMediaTypes(
  flavour: Flavour,
  compatibleWith: number | undefined
): MediaTypes | undefined {
  const major = Number(flavour.version.split('.')[0]);
  if (compatibleWith === undefined || compatibleWith >= major) {
    return undefined;
  }
  const json = `application/vnd.elasticsearch+json; compatible-with=${compatibleWith}`;
  return {
    accept: json,
    json,
    ndjson: `application/vnd.elasticsearch+x-ndjson; compatible-with=${compatibleWith}`
  };
}

/** Why the node answering cannot serve requests as `compatibleWith`'s version, or undefined when it can (or none was asked). */
export function refuseCompatibility(
  flavour: Flavour,
  compatibleWith: number | undefined
): string | undefined {
  if (compatibleWith === undefined) {
    return undefined;
  }
  const asked = `compat=${compatibleWith}`;
  if (flavour.product === 'OpenSearch') {
    return `${asked}: OpenSearch ${flavour.version} has no REST compatibility with Elasticsearch versions; connect again without compat= (OpenSearch serves the Elasticsearch 7.10 API as it is).`;
  }
  const major = Number(flavour.version.split('.')[0]);
  if (compatibleWith === major || compatibleWith === major - 1) {
    return undefined;
  }
  const served =
    major >= 8 ? `${major}.x and ${major - 1}.x` : `${major}.x only`;
  const instead =
    major >= 8
      ? `connect with compat=${major - 1} for requests written for ${major - 1}.x, or leave compat= out`
      : 'leave compat= out';
  return `${asked}: Elasticsearch ${flavour.version} serves requests written for ${served}, not for ${compatibleWith}.x, so nothing more was sent; ${instead}.`;
}

/** Said under the connect line, so a notebook's reader knows its requests are served the earlier way. */
export function compatibilityNote(
  flavour: Flavour,
  compatibleWith: number | undefined
): string {
  const removed =
    compatibleWith === 8
      ? ' (what 9.x removed, such as _knn_search, is sent, not refused)'
      : '';
  return `Requests ask to be served as Elasticsearch ${compatibleWith}.x served them (REST compatibility, compat=${compatibleWith})${removed}; leave compat= out to write for ${flavour.version.split('.')[0]}.x.`;
}
