/** Reading JSON text as bytes (export pages are scanned without decoding them), and copying it. */

/** Whether a byte is a blank JSON allows between tokens (space, LF, CR, tab). */
export function isBlank(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The first byte at or after `at` that is not a blank. */
export function skipBlanks(b: Buffer, at: number): number {
  while (isBlank(b[at])) {
    at++;
  }
  return at;
}

/** Copies of at most this many bytes are made byte by byte (a key, an id, a CSV field). */
const SHORT_COPY = 32;

/**
 * Copies bytes [start, end) of `from` into `to` at `at` (which has room); where they end there.
 * A few bytes are copied by a loop, which costs less than a call into Buffer.copy; a longer run
 * (a document's source) by one native copy, several times cheaper than the loop.
 */
export function copyBytes(
  from: Buffer,
  start: number,
  end: number,
  to: Buffer,
  at: number
): number {
  if (end - start > SHORT_COPY) {
    return at + from.copy(to, at, start, end);
  }
  for (let i = start; i < end; i++) {
    to[at++] = from[i] as number;
  }
  return at;
}
