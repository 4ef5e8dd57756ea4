import { STATUS_CODES } from 'node:http';
import type { EngineResponse } from '../capabilities/console';
import { type EngineError, RedirectedError } from '../errors';

/** `503 Service Unavailable`: the status with its reason phrase, when HTTP names one. */
export function statusWithReason(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `${status} ${reason}` : String(status);
}

/** What an answer without a body shows: its status alone (and where a redirect points), never a made-up body. */
export function emptyAnswerText(response: EngineResponse): string {
  const location = response.headers.location;
  return [
    `${statusWithReason(response.status)} (the answer has no body)`,
    ...(location ? [`Location: ${location}`] : [])
  ].join('\n');
}

/**
 * A redirect fails the cell: searchbook does not follow one (it would carry the connection's
 * credentials to another address), and its answer is not the engine's.
 */
export function redirectFailure(
  response: EngineResponse,
  engineLabel: string
): EngineError | undefined {
  if (response.status < 300 || response.status >= 400) {
    return undefined;
  }
  const location = response.headers.location;
  const where = location ? ` to ${location}` : ' without a Location header';
  return new RedirectedError(
    `${engineLabel} answered ${statusWithReason(response.status)}${where}. searchbook does not follow redirects, so nothing was read from there; if the engine moved, %connect to the address it names.`,
    response.status
  );
}

/** The detail of a failure whose answer gave no reason of its own: HTTP's reason phrase when the body is empty. */
export function noReason(response: EngineResponse): string {
  if (response.body.kind !== 'empty') {
    return 'no reason given';
  }
  return `${STATUS_CODES[response.status] ?? 'no reason given'} (the answer has no body)`;
}
