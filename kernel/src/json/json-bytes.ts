/** Reading JSON text as bytes (export pages are scanned without decoding them). */

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
