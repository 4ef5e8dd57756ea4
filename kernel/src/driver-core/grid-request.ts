/**
 * One request of the document grid: sent, timed, noted for the status line, and turned into an
 * EngineError with the engine's own reason when it fails.
 */
import type { HttpMethod, JsonValue } from '../console/cell';
import type { EngineResponse } from './capabilities/console';
import { type EngineError } from './errors';
import type { SentRequest } from '../../../contracts/panel-protocol';
import type { Transport } from './http/transport';

export interface GridRequestSpec {
  method: HttpMethod;
  path: string;
  query?: string;
  body?: JsonValue;
}

export async function sendGridRequest(
  transport: Transport,
  spec: GridRequestSpec,
  failure: (response: EngineResponse) => EngineError | undefined,
  sent: SentRequest[],
  signal: AbortSignal
): Promise<JsonValue> {
  const response = await transport.send(
    {
      method: spec.method,
      path: spec.path,
      query: spec.query ?? '',
      ...(spec.body !== undefined
        ? { body: { kind: 'json' as const, value: spec.body } }
        : {})
    },
    signal
  );
  sent.push({
    method: spec.method,
    path: spec.query ? `${spec.path}?${spec.query}` : spec.path,
    status: response.status,
    elapsedMs: Math.round(response.elapsedMs * 10) / 10
  });
  const error = failure(response);
  if (error) {
    throw error;
  }
  return response.body.kind === 'json' ? response.body.value : null;
}

/** A target name as one path segment; `*` and `,` keep their meaning (patterns, lists). */
export function targetSegment(target: string): string {
  return encodeURIComponent(target).replace(/%2C/gi, ',');
}
