/**
 * The base of searchbook's own errors, in the shape of undici's `lib/core/errors.js`: every
 * kind is a subclass with a stable `name` and a stable `code` (`SEARCHBOOK_ERR_...`). Code
 * tells errors apart by `code` (or instanceof), never by their message or the title a user
 * sees, so wording can change without changing behaviour.
 */
export class SearchbookError extends Error {
  override readonly name: string = 'SearchbookError';
  readonly code: string = 'SEARCHBOOK_ERR';
}

/** The code of a searchbook error; undefined for any other thrown value. */
export function errorCode(err: unknown): string | undefined {
  return err instanceof SearchbookError ? err.code : undefined;
}
