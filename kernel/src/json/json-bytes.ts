/** Reading JSON text as bytes (export pages are scanned without decoding them), and copying it. */
import {
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COMMA,
  QUOTE,
  BACKSLASH,
  MINUS,
  POINT,
  ZERO,
  NINE
} from '../../../contracts/json-char-codes';

/** Whether a byte is a blank JSON allows between tokens (space, LF, CR, tab). */
export function isBlank(c: number | undefined): boolean {
  // Most bytes asked about are printable (above the space): one comparison tells them.
  return (
    (c as number) <= 0x20 &&
    (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
  );
}

/** The first byte at or after `at` that is not a blank. */
export function skipBlanks(b: Buffer, at: number): number {
  while (isBlank(b[at])) {
    at++;
  }
  return at;
}

/** Where the literal (a number, true, false or null) starting at `at` ends, at most at `end`. */
export function literalEnd(b: Buffer, at: number, end: number): number {
  let i = at + 1;
  while (i < end) {
    const c = b[i] as number;
    if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isBlank(c)) {
      break;
    }
    i++;
  }
  return i;
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

/** A number of more digits may decode as an exact number (an object, not a number). */
const PLAIN_DIGITS = 15;

/** The index of the quote closing the string opening at `at`; -1 when it does not close before `end`. */
export function stringClose(b: Buffer, at: number, end: number): number {
  for (let i = at + 1; i < end; i++) {
    const c = b[i] as number;
    if (c === BACKSLASH) {
      i++;
    } else if (c === QUOTE) {
      return i;
    }
  }
  return -1;
}

/** A number of at most 15 digits without an exponent: always decoded as a plain number. */
export function plainNumber(b: Buffer, start: number, end: number): boolean {
  let i = b[start] === MINUS ? start + 1 : start;
  // `01` is no JSON number: read as one, it would pass for the 1 JSON.parse refuses.
  if (
    b[i] === ZERO &&
    (b[i + 1] as number) >= ZERO &&
    (b[i + 1] as number) <= NINE
  ) {
    return false;
  }
  let digits = 0;
  /** Digits after the point, -1 before one. */
  let decimals = -1;
  for (; i < end; i++) {
    const c = b[i] as number;
    if (c >= ZERO && c <= NINE) {
      digits++;
      if (decimals !== -1) {
        decimals++;
      }
    } else if (c === POINT && decimals === -1 && digits > 0) {
      decimals = 0;
    } else {
      return false;
    }
  }
  return digits > 0 && digits <= PLAIN_DIGITS && decimals !== 0;
}

/**
 * Bytes [start, end) of JSON text without the blanks between its tokens: the same JSON on one
 * line, each literal as written (`1.0`, `-0.0`, `1e400` and long numbers are not decoded).
 * Strings are copied whole; JSON forbids a raw line break inside one.
 */
export function withoutBlanks(b: Buffer, start: number, end: number): Buffer {
  const out = Buffer.allocUnsafe(end - start);
  let at = 0;
  for (let i = start; i < end; i++) {
    const c = b[i] as number;
    if (c === QUOTE) {
      const close = stringClose(b, i, end);
      const last = close === -1 ? end - 1 : close;
      at = copyBytes(b, i, last + 1, out, at);
      i = last;
    } else if (!isBlank(c)) {
      out[at++] = c;
    }
  }
  return out.subarray(0, at);
}
