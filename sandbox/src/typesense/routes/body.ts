import { parseExactJson } from '../json';
import { ApiError } from '../errors';
import { markWholeDoubles } from '../whole-doubles';

export function parseJsonBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new ApiError(400, 'Bad JSON.');
  }
}

/** Document bodies report the parser's complaint, as the engine does. */
export function parseDocumentBody(body: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseExactJson(body);
  } catch (e) {
    throw new ApiError(400, `Bad JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'Bad JSON: not a properly formed document.');
  }
  markWholeDoubles(value as Record<string, unknown>, body);
  return value as Record<string, unknown>;
}
