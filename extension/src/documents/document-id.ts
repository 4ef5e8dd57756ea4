const LETTERS =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Bytes at or above this would favour the first letters (256 is not a multiple of 62). */
const UNBIASED_BELOW = 256 - (256 % LETTERS.length);
const LENGTH = 20;

/**
 * An id for a new document whose id the user left empty: 20 letters and digits (119 random
 * bits), as long as Elasticsearch's own ids, and safe in any URL path or engine's id rules.
 */
export function randomDocumentId(): string {
  let id = '';
  while (id.length < LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(LENGTH))) {
      if (byte < UNBIASED_BELOW && id.length < LENGTH) {
        id += LETTERS[byte % LETTERS.length];
      }
    }
  }
  return id;
}
