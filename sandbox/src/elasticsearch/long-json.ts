import { randomUUID } from 'node:crypto';
import { JsonSink } from './json-sink';

/**
 * Exact 64-bit integers: JavaScript numbers hold integers exactly only up to 2^53, while
 * Elasticsearch returns `_source` as it was sent and prints longs digit for digit. Request
 * bodies are parsed with such integers kept as marker strings ("\u0000long:<digits>"), the
 * code that reads values as numbers goes through `numberOf`, and answers print the markers
 * back as bare integers.
 */
const PREFIX = '\u0000long:';
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

export function isLongMarker(v: unknown): v is string {
  return typeof v === 'string' && v.startsWith(PREFIX);
}

export function longMarker(digits: string): string {
  return PREFIX + digits;
}

/** A value as a number: markers give their (rounded) double. */
export function numberOf(v: unknown): number {
  if (typeof v === 'number') {
    return v;
  }
  if (isLongMarker(v)) {
    return Number(v.slice(PREFIX.length));
  }
  return typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
}

/** A marker's digits, other values unchanged. */
export function plainText(v: string): string {
  return isLongMarker(v) ? v.slice(PREFIX.length) : v;
}

/** JSON.parse, keeping integers beyond 2^53 exact (as markers). */
export function parseJson(text: string): unknown {
  if (!/\d{16}/.test(text)) {
    return JSON.parse(text);
  }
  const marked = text.replace(TOKEN, tok => {
    if (
      tok.startsWith('"') ||
      /[.eE]/.test(tok) ||
      Number.isSafeInteger(Number(tok))
    ) {
      return tok;
    }
    return JSON.stringify(PREFIX + tok);
  });
  return JSON.parse(marked);
}

/** JSON.stringify, printing markers as the integers they hold, and KnownJson as its text. */
export function stringifyJson(value: unknown, indent?: number): string {
  // Pretty answers re-indent every part, known ones too: they are written from their values.
  if (indent !== undefined) {
    return printedLongs(JSON.stringify(value, null, indent));
  }
  const { text, splice } = spliced(value);
  return splice.found.length > 0 ? splice.fill(text) : text;
}

/** stringifyJson's compact text as UTF-8 bytes, each KnownJson written into them where it stands. */
export function jsonBytes(value: unknown): Buffer {
  const { text, splice } = spliced(value);
  if (splice.found.length === 0) {
    return Buffer.from(text);
  }
  const sink = new JsonSink();
  splice.writeTo(text, sink);
  return sink.bytes();
}

/** The compact text with a mark in place of each KnownJson (the marks it stands for in `found`). */
function spliced(value: unknown): { text: string; splice: Splice } {
  const splice = (splicing = new Splice());
  try {
    return { text: printedLongs(JSON.stringify(value)), splice };
  } finally {
    splicing = undefined;
  }
}

function printedLongs(text: string): string {
  return text.includes('\\u0000long:')
    ? text.replace(/"\\u0000long:(-?\d+)"/g, '$1')
    : text;
}

/**
 * A value whose JSON text is already written (a stored document's `_source`, printed by
 * stringifyJson): answers copy the text in instead of serialising the value again, which
 * for a page of a thousand hits was most of the time the stand-in took to answer.
 */
export class KnownJson {
  private text: string | undefined;
  private built: unknown;
  private build: (() => unknown) | undefined;
  private writer: ((sink: JsonSink) => void) | undefined;

  constructor(value: unknown) {
    this.built = value;
  }

  /**
   * A value with the text a client sent for it: Elasticsearch keeps a document's source as the
   * bytes it was given (blanks, line breaks and key order included) and answers with them.
   */
  static sent(value: unknown, text: string): KnownJson {
    const known = new KnownJson(value);
    known.text = text;
    return known;
  }

  /**
   * JSON written by a faster hand than stringifyJson (a search page's hits), and the value it
   * stands for, built only if a pretty or filtered answer asks for it.
   */
  static written(
    write: (sink: JsonSink) => void,
    value: () => unknown
  ): KnownJson {
    const known = new KnownJson(undefined);
    known.writer = write;
    known.build = value;
    return known;
  }

  get value(): unknown {
    if (this.build) {
      this.built = this.build();
      this.build = undefined;
    }
    return this.built;
  }

  /** The value's JSON text, written once. */
  get json(): string {
    if (this.text === undefined) {
      if (this.writer) {
        const sink = new JsonSink();
        this.writer(sink);
        this.text = sink.bytes().toString('utf8');
      } else {
        this.text = stringifyJson(this.value);
      }
    }
    return this.text;
  }

  writeTo(sink: JsonSink): void {
    if (this.writer && this.text === undefined) {
      this.writer(sink);
    } else {
      sink.add(this.json);
    }
  }

  toJSON(): unknown {
    return splicing ? splicing.mark(this) : this.value;
  }
}

/** Stands in for each KnownJson while stringifyJson runs (synchronously: no other call sees it). */
class Splice {
  readonly found: KnownJson[] = [];

  mark(known: KnownJson): string {
    this.found.push(known);
    return `${MARK}${this.found.length - 1}`;
  }

  /** The text with each mark (as JSON.stringify wrote it, quoted) replaced by its JSON. */
  fill(text: string): string {
    return text.replace(
      MARK_WRITTEN,
      (_, i: string) => (this.found[Number(i)] as KnownJson).json
    );
  }

  /** The same, written into a sink. */
  writeTo(text: string, sink: JsonSink): void {
    let from = 0;
    for (const m of text.matchAll(MARK_WRITTEN)) {
      sink.add(text.slice(from, m.index));
      (this.found[Number(m[1])] as KnownJson).writeTo(sink);
      from = m.index + m[0].length;
    }
    sink.add(text.slice(from));
  }
}

/** The nonce keeps a document's own text from forging a mark. */
const NONCE = randomUUID();
const MARK = `\u0000known:${NONCE}:`;
const MARK_WRITTEN = new RegExp(`"\\\\u0000known:${NONCE}:(\\d+)"`, 'g');
let splicing: Splice | undefined;
