/**
 * Scoped search keys (https://typesense.org/docs/latest/api/api-keys.html#generate-scoped-search-key):
 * base64 of the HMAC-SHA256 digest (base64) of the embedded parameters' JSON keyed by a parent
 * key, that key's first four characters and the JSON itself. The engine finds the parent by the
 * prefix, checks the digest and the expiry, and lets the key search with its parameters
 * embedded: `filter_by` joins the request's with `&&`, the others replace the request's.
 */
import { createHmac } from 'node:crypto';
import type { ApiKey } from './keys';
import { isPlainObject, type JsonObject } from './json';

const DIGEST_LENGTH = 44;
const PREFIX_LENGTH = 4;

export interface ScopedKey {
  parent: ApiKey;
  embedded: JsonObject;
}

export function openScopedKey(
  value: string,
  keys: readonly ApiKey[],
  nowSeconds: number
): ScopedKey | null {
  const raw = Buffer.from(value, 'base64').toString('utf8');
  if (raw.length <= DIGEST_LENGTH + PREFIX_LENGTH) {
    return null;
  }
  const digest = raw.slice(0, DIGEST_LENGTH);
  const prefix = raw.slice(DIGEST_LENGTH, DIGEST_LENGTH + PREFIX_LENGTH);
  const paramsText = raw.slice(DIGEST_LENGTH + PREFIX_LENGTH);
  const parent = keys.find(
    k =>
      k.value.startsWith(prefix) &&
      createHmac('sha256', k.value).update(paramsText).digest('base64') ===
        digest
  );
  if (!parent) {
    return null;
  }
  let embedded: unknown;
  try {
    embedded = JSON.parse(paramsText);
  } catch {
    return null;
  }
  if (!isPlainObject(embedded)) {
    return null;
  }
  const expires = embedded.expires_at;
  if (typeof expires === 'number' && expires < nowSeconds) {
    return null;
  }
  if (parent.expires_at < nowSeconds) {
    return null;
  }
  return { parent, embedded };
}

/** The request's parameters with the key's embedded ones applied. */
export function withEmbedded(
  query: Map<string, string>,
  embedded: JsonObject
): void {
  for (const [name, value] of Object.entries(embedded)) {
    if (name === 'expires_at') {
      continue;
    }
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const own = query.get(name);
    query.set(
      name,
      name === 'filter_by' && own !== undefined && own !== ''
        ? `(${own}) && (${text})`
        : text
    );
  }
}
