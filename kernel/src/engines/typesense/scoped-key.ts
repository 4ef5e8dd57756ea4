/**
 * Typesense [scoped search keys](https://typesense.org/docs/latest/api/api-keys.html#generate-scoped-search-key),
 * computed locally as the official clients do (typesense-js `keys().generateScopedSearchKey`):
 * the embedded parameters as JSON text, its HMAC-SHA256 keyed by the parent key in base64, then
 * base64 of digest + the parent's first four characters + the JSON text. No request creates it;
 * the engine checks it on each search.
 */
import { createHmac } from 'node:crypto';
import type { ScopedKeyRequest } from '../../../../contracts/admin-protocol';

/** The scoped key for `paramsText`, the embedded parameters' JSON exactly as it will be signed. */
export function scopedKeyFromText(
  parentKey: string,
  paramsText: string
): string {
  const digest = createHmac('sha256', parentKey)
    .update(paramsText)
    .digest('base64');
  return Buffer.from(
    `${digest}${parentKey.slice(0, 4)}${paramsText}`,
    'utf8'
  ).toString('base64');
}

/** The embedded parameters' text: compact JSON, as typesense-js signs it. */
export function embeddedText(params: ScopedKeyRequest['params']): string {
  return JSON.stringify(params);
}

/** Why these parameters cannot be embedded, or null; says what to write instead. */
export function embeddedParamsProblem(
  params: ScopedKeyRequest['params']
): string | null {
  const expires = params.expires_at;
  if (expires !== undefined) {
    if (typeof expires !== 'number' || !Number.isInteger(expires)) {
      return 'expires_at is a whole number of seconds since 1970 (for example 1906054106), not a date text.';
    }
    if (expires > 99_999_999_999) {
      return `expires_at ${expires} looks like milliseconds: Typesense counts seconds since 1970 (write ${Math.floor(expires / 1000)}).`;
    }
    if (expires <= 0) {
      return 'expires_at is a moment in seconds since 1970, after now.';
    }
  }
  for (const name of ['filter_by', 'query_by', 'sort_by', 'include_fields']) {
    const value = params[name];
    if (value !== undefined && typeof value !== 'string') {
      return `${name} is a text, as in a search (for example "company_id:124").`;
    }
  }
  return null;
}
