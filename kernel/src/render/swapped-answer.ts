/**
 * The engine's answer as the notebook keeps it (mime-types.ts: JSON text, every `"` and `'`
 * swapped), written straight from the bytes the engine sent into the JSON string the output
 * carries, where decoding, swapping, re-encoding and serialising a string would copy the
 * answer four times.
 */
import { isUtf8 } from 'node:buffer';
import { EncodedString } from '../protocol/encoded-string';
import { swapQuotes } from './answer-rows';

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const BACKSLASH = 0x5c;
const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const SPACE = 0x20;

/** The letter after the backslash for each byte escaped in the literal (`'` stands for the `"` it becomes). */
const ESCAPES = new Map([
  [APOSTROPHE, QUOTE],
  [BACKSLASH, BACKSLASH],
  [TAB, 't'.charCodeAt(0)],
  [NEWLINE, 'n'.charCodeAt(0)],
  [RETURN, 'r'.charCodeAt(0)],
]);

/** The answer (UTF-8 JSON text) swapped, as the string a payload's `answer` holds. */
export function swappedAnswer(json: Buffer): EncodedString {
  return new EncodedString((isUtf8(json) && swappedLiteral(json)) || Buffer.from(JSON.stringify(swapQuotes(json.toString('utf8'))), 'utf8'));
}

/**
 * The JSON string literal of the swapped text: an original `"` becomes `'`, an original `'`
 * becomes `\"`, `\` becomes `\\`, and the whitespace JSON allows between tokens is escaped as
 * JSON.stringify escapes it. Undefined for a control character JSON text cannot hold raw.
 */
function swappedLiteral(src: Buffer): Buffer | undefined {
  const escaped: number[] = [];
  for (const byte of ESCAPES.keys()) {
    for (let at = src.indexOf(byte); at >= 0; at = src.indexOf(byte, at + 1)) escaped.push(at);
  }
  // A pretty-printed answer escapes every line: byte by byte is then quicker than copying runs.
  if (escaped.length > src.length / 64) return literalByteByByte(src, escaped.length);
  if (escaped.length === 0) return literalWithoutEscapes(src);
  const swapped = Buffer.allocUnsafeSlow(src.length);
  if (!quotesToApostrophes(src, swapped)) return undefined;
  escaped.sort((a, b) => a - b);
  const out = Buffer.allocUnsafe(src.length + escaped.length + 2);
  out[0] = QUOTE;
  let o = 1;
  let from = 0;
  for (const at of escaped) {
    o += swapped.copy(out, o, from, at);
    out[o++] = BACKSLASH;
    out[o++] = ESCAPES.get(src[at] as number) as number;
    from = at + 1;
  }
  o += swapped.copy(out, o, from);
  out[o] = QUOTE;
  return out;
}

/**
 * The common answer, with nothing to escape: its literal is the swapped text between two
 * quotes, swapped straight into place (the text starts 4 bytes in, as Uint32Array needs).
 */
function literalWithoutEscapes(src: Buffer): Buffer | undefined {
  const n = src.length;
  const whole = Buffer.allocUnsafeSlow(n + 5);
  whole[3] = QUOTE;
  whole[n + 4] = QUOTE;
  return quotesToApostrophes(src, whole.subarray(4, n + 4)) ? whole.subarray(3, n + 5) : undefined;
}

/**
 * Writes `src` into `out` (as long, starting on a 4-byte boundary) with every `"` turned into
 * `'` (nothing else changes), four bytes at a time: a byte equal to `"` is found with the
 * zero-byte test on `word ^ 0x22222222`. False when a byte below 0x20 other than tab, newline
 * or return is there (JSON text never holds one raw).
 */
function quotesToApostrophes(src: Buffer, out: Buffer): boolean {
  // Buffers of their own (not slices of Node's pool) start on a 4-byte boundary, as Uint32Array needs.
  const source = src.byteOffset % 4 === 0 ? src : ownCopy(src);
  const n = source.length;
  const words = n >>> 2;
  const inWords = new Uint32Array(source.buffer, source.byteOffset, words);
  const outWords = new Uint32Array(out.buffer, out.byteOffset, words);
  for (let i = 0; i < words; i++) {
    const w = inWords[i] as number;
    const x = w ^ 0x22222222;
    // High bit of each byte of `quotes` set where that byte of `w` is `"`.
    const quotes = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) & 0x80808080;
    outWords[i] = w ^ ((quotes >>> 7) * (QUOTE ^ APOSTROPHE));
    // Non-zero when some byte is below 0x20: rare (tab, newline, return), so then look closer.
    if (((w - 0x20202020) & ~w & 0x80808080) !== 0 && [w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, w >>> 24].some(isStrayControl)) return false;
  }
  for (let i = words * 4; i < n; i++) {
    const b = source[i] as number;
    if (isStrayControl(b)) return false;
    out[i] = b === QUOTE ? APOSTROPHE : b;
  }
  return true;
}

/** A control character that JSON text cannot hold outside a string's escapes. */
function isStrayControl(byte: number): boolean {
  return byte < SPACE && !ESCAPES.has(byte);
}

function ownCopy(src: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(src.length);
  src.copy(copy);
  return copy;
}

/** The same literal, one byte at a time (`extra`: how many bytes get escaped). */
function literalByteByByte(src: Buffer, extra: number): Buffer | undefined {
  const out = Buffer.allocUnsafe(src.length + extra + 2);
  out[0] = QUOTE;
  let o = 1;
  for (let i = 0; i < src.length; i++) {
    const b = src[i] as number;
    if (b > APOSTROPHE && b !== BACKSLASH) out[o++] = b;
    else if (b === QUOTE) out[o++] = APOSTROPHE;
    else if (b >= SPACE && b !== APOSTROPHE && b !== BACKSLASH) out[o++] = b;
    else {
      const letter = ESCAPES.get(b);
      if (letter === undefined) return undefined;
      out[o++] = BACKSLASH;
      out[o++] = letter;
    }
  }
  out[o] = QUOTE;
  return out;
}
