/**
 * Typesense answers every error as `{"message": "<text>"}`. Most paths write a space after
 * the colon; the search handlers build the body with nlohmann and write none. Both are
 * reproduced because a careless client might compare bytes.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function errorBody(message: string, compact = false): string {
  return compact
    ? JSON.stringify({ message })
    : `{"message": ${JSON.stringify(message)}}`;
}

/** Route-level answers written by the HTTP layer itself, byte for byte. */
export const NOT_FOUND_BODY = '{ "message": "Not Found"}';
export const UNAUTHORIZED_BODY =
  '{"message": "Forbidden - a valid `x-typesense-api-key` header must be sent."}';
