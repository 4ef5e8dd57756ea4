import { asObject } from '../document-columns';
import { EngineError, type EngineResponse } from '../driver';

/** A failed Typesense answer as an error naming the status and the engine's own message. */
export function typesenseFailure(response: EngineResponse): EngineError | undefined {
  if (response.status < 400) return undefined;
  const body = response.body.kind === 'json' ? response.body.value : undefined;
  const message = asObject(body)?.message;
  const reason = typeof message === 'string' ? message : 'no reason given';
  if (response.status === 401) return new EngineError('Authentication failed', `Typesense answered 401: ${reason}`, 401, body);
  return new EngineError('RequestFailed', `Typesense answered ${response.status}: ${reason}`, response.status, body);
}
