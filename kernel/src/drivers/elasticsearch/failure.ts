import { asObject } from '../document-columns';
import { EngineError, type EngineResponse } from '../driver';

/** A failed Elasticsearch answer as an error naming the status and the engine's own reason. */
export function elasticsearchFailure(response: EngineResponse): EngineError | undefined {
  if (response.status < 400) return undefined;
  const body = response.body.kind === 'json' ? response.body.value : undefined;
  const error = asObject(asObject(body)?.error);
  const reason = typeof error?.reason === 'string' ? error.reason : typeof asObject(body)?.error === 'string' ? String(asObject(body)?.error) : undefined;
  const type = typeof error?.type === 'string' ? error.type : undefined;
  const detail = [type, reason].filter(Boolean).join(': ') || 'no reason given';
  if (response.status === 401 || response.status === 403) {
    return new EngineError('Authentication failed', `Authentication failed: ${response.status} ${detail}`, response.status, body);
  }
  return new EngineError('RequestFailed', `Elasticsearch answered ${response.status}: ${detail}`, response.status, body);
}
