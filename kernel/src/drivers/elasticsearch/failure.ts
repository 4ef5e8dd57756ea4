import { asObject } from '../document-columns';
import { EngineError, type EngineResponse } from '../driver';

export interface FailureContext {
  /** The connection uses HTTPS. */
  secure: boolean;
}

/**
 * A failed Elasticsearch answer as an error naming the status and the engine's own reason
 * (drivers.md 7). Security errors are matched on status and `security_exception`, never on the
 * reason's wording, which varies by version (engine-facts B.2).
 */
export function elasticsearchFailure(response: EngineResponse, context: FailureContext): EngineError | undefined {
  if (response.status < 400) return undefined;
  const body = response.body.kind === 'json' ? response.body.value : undefined;
  const error = asObject(asObject(body)?.error);
  const reason = typeof error?.reason === 'string' ? error.reason : typeof asObject(body)?.error === 'string' ? String(asObject(body)?.error) : undefined;
  const type = typeof error?.type === 'string' ? error.type : undefined;
  const detail = [type, reason].filter(Boolean).join(': ') || 'no reason given';
  // A 403 is also how index blocks answer (cluster_block_exception): that is not about credentials.
  if (response.status === 401 || (response.status === 403 && type === 'security_exception')) {
    const advice = response.status === 401 ? rejectedAdvice(response, reason, context) : 'The credentials were accepted but lack this privilege; connect with a user or API key whose role grants it.';
    return new EngineError('Authentication failed', `Authentication failed: ${reason ?? detail}. ${advice}`, response.status, body);
  }
  return new EngineError('RequestFailed', `Elasticsearch answered ${response.status}: ${detail}`, response.status, body);
}

function rejectedAdvice(response: EngineResponse, reason: string | undefined, context: FailureContext): string {
  const missing = reason?.startsWith('missing authentication credentials');
  const parts = [
    missing
      ? 'The cluster needs credentials: add auth=basic user=<name> password=${env:NAME}, or auth=apikey key=${env:NAME}.'
      : 'Check the user and password, or the API key (the `encoded` value of the create-API-key answer, or base64 of id:api_key).',
  ];
  // Only 8.x advertises the ApiKey and Bearer schemes by default (engine-facts B.2), and 8.x ships with HTTPS on.
  const looks8x = /ApiKey|Bearer/.test(response.headers['www-authenticate'] ?? '');
  if (!context.secure && looks8x) parts.push('On Elasticsearch 8.x, check that the connection uses HTTPS (an https:// address).');
  return parts.join(' ');
}
