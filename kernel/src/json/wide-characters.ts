/**
 * Wide characters (past U+00FF) written as JSON `\u` escapes. Python decodes a frame into one
 * str as wide as its widest character (browsers' strings work alike), so a single `→` makes a
 * 450 KB output twice as large in memory and about twice as slow to decode in jupyter_client
 * and jupyter_server. Output with few of them escapes them (`\u2192`: 6 bytes for 3) and stays
 * narrow; text made mostly of them (Chinese, Japanese) keeps them raw, where escaping would
 * double its bytes. Characters up to U+00FF never widen a str and stay as they are.
 */

/** A UTF-8 byte from here up starts a wide character (0xC4 0x80 is U+0100). */
export const WIDE_LEAD = 0xc4;

/** Whether `count` wide characters in text of `length` are few enough to escape: at most one in 64. */
export function fewWide(count: number, length: number): boolean {
  return count <= length / 64;
}

const WIDE = /[\u0100-\uffff]/g;

/** JSON text with its wide characters escaped when they are few (they can only stand inside strings). */
export function narrowed(json: string): string {
  let count = 0;
  WIDE.lastIndex = 0;
  while (WIDE.exec(json) !== null) {
    if (!fewWide(++count, json.length)) {
      return json;
    }
  }
  return count === 0
    ? json
    : json.replace(
        WIDE,
        unit => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`
      );
}

const BACKSLASH = 0x5c;
const LETTER_U = 0x75;
const HEX = '0123456789abcdef';

/** Length of the UTF-8 sequence that starts with `lead` (the text is valid UTF-8). */
export function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/** Bytes the escape adds to the sequence starting with `lead`: `\uXXXX` (6), or a surrogate pair (12) for 4 bytes. */
export function escapeGrowth(lead: number): number {
  return (lead >= 0xf0 ? 12 : 6) - sequenceLength(lead);
}

/** Writes the character whose UTF-8 sequence starts at `src[at]` as JSON escapes at `out[o]`; returns the bytes written. */
export function writeUnicodeEscape(
  out: Buffer,
  o: number,
  src: Buffer,
  at: number
): number {
  const lead = src[at] as number;
  const next = (k: number) => (src[at + k] as number) & 0x3f;
  if (lead < 0xe0) {
    return writeUnit(out, o, ((lead & 0x1f) << 6) | next(1));
  }
  if (lead < 0xf0) {
    return writeUnit(out, o, ((lead & 0x0f) << 12) | (next(1) << 6) | next(2));
  }
  const point =
    (((lead & 0x07) << 18) | (next(1) << 12) | (next(2) << 6) | next(3)) -
    0x10000;
  writeUnit(out, o, 0xd800 + (point >>> 10));
  return 6 + writeUnit(out, o + 6, 0xdc00 + (point & 0x3ff));
}

function writeUnit(out: Buffer, o: number, unit: number): number {
  out[o] = BACKSLASH;
  out[o + 1] = LETTER_U;
  for (let k = 0; k < 4; k++) {
    out[o + 2 + k] = HEX.charCodeAt((unit >>> (12 - 4 * k)) & 0xf);
  }
  return 6;
}
