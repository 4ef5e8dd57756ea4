/** JSON `\u` escapes written straight from the UTF-8 bytes of a character past ASCII. */

const BACKSLASH = 0x5c;
const LETTER_U = 0x75;
const HEX = '0123456789abcdef';

/** Length of the UTF-8 sequence that starts with `lead` (the text is valid UTF-8). */
export function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/** Bytes of the escape of the sequence starting with `lead`: `\uXXXX`, or a surrogate pair from 4 bytes. */
export function escapeLength(lead: number): number {
  return lead >= 0xf0 ? 12 : 6;
}

/** Writes the character whose UTF-8 sequence starts at `src[at]` as JSON escapes at `out[o]`; returns the bytes written. */
export function writeUnicodeEscape(out: Buffer, o: number, src: Buffer, at: number): number {
  const lead = src[at] as number;
  const next = (k: number) => (src[at + k] as number) & 0x3f;
  if (lead < 0xe0) return writeUnit(out, o, ((lead & 0x1f) << 6) | next(1));
  if (lead < 0xf0) return writeUnit(out, o, ((lead & 0x0f) << 12) | (next(1) << 6) | next(2));
  const point = (((lead & 0x07) << 18) | (next(1) << 12) | (next(2) << 6) | next(3)) - 0x10000;
  writeUnit(out, o, 0xd800 + (point >>> 10));
  return 6 + writeUnit(out, o + 6, 0xdc00 + (point & 0x3ff));
}

function writeUnit(out: Buffer, o: number, unit: number): number {
  out[o] = BACKSLASH;
  out[o + 1] = LETTER_U;
  for (let k = 0; k < 4; k++) out[o + 2 + k] = HEX.charCodeAt((unit >>> (12 - 4 * k)) & 0xf);
  return 6;
}
