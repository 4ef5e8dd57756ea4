import { randomUUID } from 'node:crypto';
import { narrowed } from '../json/wide-characters';
import { exactJson } from '../../../contracts/exact-json';

/**
 * A string already written in its JSON form (quotes and escapes included, UTF-8), so a
 * message carrying it copies those bytes into its frame instead of building a large string
 * and serialising it again (an engine's answer kept in the notebook: hundreds of kilobytes
 * a cell). Anywhere else, JSON.stringify treats it as the string it stands for.
 */
export class EncodedString {
  private decoded: string | undefined;

  /** `json`: a JSON string literal, `"` to `"`, as UTF-8. */
  constructor(readonly json: Buffer) {}

  /** The string itself, decoded on first use. */
  get value(): string {
    this.decoded ??= JSON.parse(this.json.toString('utf8')) as string;
    return this.decoded;
  }

  toJSON(): string {
    return splicing ? splicing.mark(this) : this.value;
  }
}

/**
 * Stands in for each EncodedString while serialise() runs JSON.stringify (synchronously, so
 * no other serialisation can see it). The nonce keeps a document's text from forging a mark.
 */
class Splice {
  private static readonly nonce = randomUUID();
  readonly found: EncodedString[] = [];

  mark(encoded: EncodedString): string {
    this.found.push(encoded);
    return Splice.markOf(this.found.length - 1);
  }

  /** The mark of the i-th string as JSON.stringify writes it (quoted, control characters escaped). */
  static serialisedMark(i: number): string {
    return JSON.stringify(Splice.markOf(i));
  }

  private static markOf(i: number): string {
    return `\u0001${Splice.nonce}:${i}\u0001`;
  }
}

let splicing: Splice | undefined;

/** `value` as JSON text in UTF-8, every EncodedString in it copied in as its bytes. */
export function serialise(value: unknown): Buffer {
  const splice = new Splice();
  let text: string;
  splicing = splice;
  try {
    // Every exact number (a long past 2^53) as its bare literal: Python's json reads it exactly.
    text = exactJson(value) ?? 'null';
  } finally {
    splicing = undefined;
  }
  // The kernel's own text (a status line's `→`, a clipped cell's `…`) must not widen the frame.
  if (
    text.length +
      splice.found.reduce((bytes, encoded) => bytes + encoded.json.length, 0) >=
    NARROW_FROM
  ) {
    text = narrowed(text);
  }
  if (splice.found.length === 0) {
    return Buffer.from(text, 'utf8');
  }
  const pieces: Buffer[] = [];
  let from = 0;
  splice.found.forEach((encoded, i) => {
    const mark = Splice.serialisedMark(i);
    const at = text.indexOf(mark, from);
    if (at < 0) {
      throw new Error(
        'serialise: a marked string is missing from the JSON text'
      );
    }
    pieces.push(Buffer.from(text.slice(from, at), 'utf8'), encoded.json);
    from = at + mark.length;
  });
  pieces.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(pieces);
}

/** Frames smaller than this decode in microseconds however wide they are: left as they are. */
const NARROW_FROM = 32 * 1024;
