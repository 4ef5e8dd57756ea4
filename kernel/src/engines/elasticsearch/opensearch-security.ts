/**
 * How OpenSearch's security plugin refuses a request
 * (https://docs.opensearch.org/latest/security/access-control/index/), told in its own terms:
 * it takes HTTP Basic against its internal users (or the backends it is configured for) and
 * has no Elastic API keys, and its 401 carries no reason (a plain-text `Unauthorized`).
 */
import type { EngineResponse } from '../../driver-core/driver';

/**
 * The plugin's challenge names its realm (`Basic realm="OpenSearch Security"`), where
 * Elasticsearch's says `realm="security"`: the 401 of `GET /` tells the product apart before
 * any answer has said which it is.
 */
export function fromOpenSearchSecurity(
  response: EngineResponse,
  product: 'Elasticsearch' | 'OpenSearch'
): boolean {
  return (
    product === 'OpenSearch' ||
    /realm="OpenSearch Security"/i.test(
      response.headers['www-authenticate'] ?? ''
    )
  );
}

/** Wrong credentials and none get the same answer from the plugin: one text for both. */
export const OPENSEARCH_UNAUTHORIZED =
  "Authentication failed: OpenSearch's security plugin answered 401 Unauthorized: it refused the user and password, or none were sent. Connect with user=<name> password=${env:NAME} (HTTP Basic, against its internal users or the backend it is configured for).";

/** A 403: the plugin's reason names the action and the user (`no permissions for [indices:data/write/index] and User [...]`). */
export function openSearchForbidden(reason: string): string {
  const action = /no permissions for \[([^\]]+)\]/.exec(reason)?.[1];
  const missing = action ? `grants ${action}` : 'grants this action';
  return `Authentication failed: OpenSearch's security plugin answered 403: ${reason.replace(/\.$/, '')}. The user is authenticated but none of its roles ${missing}: connect as a user whose role does, or map such a role to this user (the plugin's roles and roles_mapping; GET /_plugins/_security/api/rolesmapping lists them).`;
}
