/**
 * The engine's answer as the notebook keeps it (mime-types.ts: JSON text, every `"` and `'`
 * swapped), written straight from the bytes the engine sent into the JSON string the output
 * carries: one pass over the bytes, where decoding, swapping, re-encoding and serialising a
 * string would copy the answer four times.
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
  // Each byte that needs an escape takes one more; they are rare, so native scans count them.
  let extra = 0;
  for (const byte of [APOSTROPHE, BACKSLASH, TAB, NEWLINE, RETURN]) {
    for (let at = src.indexOf(byte); at >= 0; at = src.indexOf(byte, at + 1)) extra++;
  }
  const out = Buffer.allocUnsafe(src.length + extra + 2);
  out[0] = QUOTE;
  let o = 1;
  for (let i = 0; i < src.length; i++) {
    const b = src[i] as number;
    if (b > APOSTROPHE && b !== BACKSLASH) out[o++] = b;
    else if (b === QUOTE) out[o++] = APOSTROPHE;
    else if (b >= SPACE && b !== APOSTROPHE && b !== BACKSLASH) out[o++] = b;
    else {
      const escaped = ESCAPES[b];
      if (escaped === undefined) return undefined;
      out[o++] = BACKSLASH;
      out[o++] = escaped;
    }
  }
  out[o++] = QUOTE;
  return out;
}

/** The letter after the backslash for each byte escaped in one (`'` stands for the `"` it becomes). */
const ESCAPES: Partial<Record<number, number>> = {
  [APOSTROPHE]: QUOTE,
  [BACKSLASH]: BACKSLASH,
  [TAB]: 't'.charCodeAt(0),
  [NEWLINE]: 'n'.charCodeAt(0),
  [RETURN]: 'r'.charCodeAt(0),
};
