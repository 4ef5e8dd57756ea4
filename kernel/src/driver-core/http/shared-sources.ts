/**
 * A search answer read for its documents' shape only, for a caller that forwards the engine's
 * own bytes and reads no value of a document (a quiet magic: Python parses the bytes itself).
 * A document's shape is its source with every string `""` and every plain number `0`: keys,
 * nesting, `null`, `true` and `false` stay, and so does a number that may read as an exact one
 * (an object, not a number). The grid's columns (names, order, which hold JSON, the type of an
 * unmapped field, which are present) depend on the documents' shapes only, and a thousand hits
 * of one index have a handful of them: each shape is parsed once and shared by the documents
 * that have it, and the rest of the answer (the hits' metadata, totals, aggregations, shard
 * failures) is parsed as sent, its documents' sources standing as their shape's number.
 */
import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  ZERO
} from '../../../../contracts/json-char-codes';
import { isBlank, literalEnd, plainNumber } from '../../json/json-bytes';
import { MAX_ANSWER_DEPTH } from './json-depth';

/** Where the documents' sources sit: the array at `at` (object keys from the top), its elements' `source` key. */
export interface SourcesAt {
  at: readonly string[];
  source: string;
}

/** The answer with each document's source as the number of its shape, and the shapes' JSON text. */
export interface SharedSources {
  skeleton: Buffer;
  shapes: Buffer[];
  /** Where each object of the documents' array starts and ends in the answer's bytes, two numbers a document. */
  documents: number[];
}

/** Marks of an open container: how much of the path to the documents leads to it. */
const OFF_PATH = -1;
const SOURCE = -2;

/** Strings past this many bytes are searched for their end natively. */
const SHORT_STRING = 24;

/**
 * The answer's skeleton and its documents' shapes, or undefined when the text is not followed
 * (unbalanced, or nesting deeper than MAX_ANSWER_DEPTH): the caller then reads the answer
 * whole, which says what is wrong with it.
 */
export function sharedSources(
  bytes: Buffer,
  { at, source }: SourcesAt
): SharedSources | undefined {
  const path = at.map(key => Buffer.from(key, 'utf8'));
  const sourceKey = Buffer.from(source, 'utf8');
  const documentMark = path.length + 1;
  const length = bytes.length;
  const out = Buffer.allocUnsafe(length);
  const shapes = new ShapeSet();
  const isObject = new Uint8Array(MAX_ANSWER_DEPTH + 2);
  const mark = new Int32Array(MAX_ANSWER_DEPTH + 2);
  let depth = 0;
  let written = 0;
  /** Bytes before this one not yet copied to `out` (outside a source). */
  let pending = 0;
  /** Depth of the source being read as a shape; 0 outside one. */
  let inSource = 0;
  let expectKey = false;
  /** What the value after the last key is: on the path (its mark), a source, or neither. */
  let next = OFF_PATH;
  const documents: number[] = [];

  /** Copies the skeleton's bytes up to `end`. */
  const flush = (end: number) => {
    if (end - pending < 64) {
      for (let k = pending; k < end; k++) {
        out[written++] = bytes[k] as number;
      }
    } else {
      written += bytes.copy(out, written, pending, end);
    }
  };
  /** A source begins at `start`: the skeleton stops there until its end. */
  const sourceStarts = (start: number) => {
    flush(start);
    shapes.begin();
  };
  /** A source ended before `end`: the skeleton holds its shape's number instead. */
  const sourceEnds = (end: number) => {
    written += out.write(String(shapes.end()), written, 'latin1');
    pending = end;
  };

  for (let i = 0; i < length; i++) {
    const c = bytes[i] as number;
    if (c === QUOTE) {
      const close = stringEnd(bytes, i, length);
      if (close === -1) {
        return undefined;
      }
      if (expectKey) {
        expectKey = false;
        next = OFF_PATH;
        if (inSource !== 0) {
          shapes.copy(bytes, i, close + 1);
        } else {
          const m = mark[depth] as number;
          if (m >= 0 && m < path.length) {
            next = sameKey(bytes, i + 1, close, path[m] as Buffer)
              ? m + 1
              : OFF_PATH;
          } else if (m === documentMark) {
            next = sameKey(bytes, i + 1, close, sourceKey) ? SOURCE : OFF_PATH;
          }
        }
      } else {
        if (inSource !== 0) {
          shapes.byte(QUOTE);
          shapes.byte(QUOTE);
        } else if (next === SOURCE) {
          sourceStarts(i);
          shapes.byte(QUOTE);
          shapes.byte(QUOTE);
          sourceEnds(close + 1);
        }
        next = OFF_PATH;
      }
      i = close;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > MAX_ANSWER_DEPTH) {
        return undefined;
      }
      isObject[depth] = c === OPEN_OBJECT ? 1 : 0;
      const parent = depth - 1;
      mark[depth] =
        depth === 1
          ? 0
          : next >= 0
            ? next
            : isObject[parent] === 0 && mark[parent] === path.length
              ? documentMark
              : OFF_PATH;
      if (mark[depth] === documentMark) {
        documents.push(i);
      }
      if (next === SOURCE && inSource === 0) {
        inSource = depth;
        sourceStarts(i);
      }
      if (inSource !== 0) {
        shapes.byte(c);
      }
      next = OFF_PATH;
      expectKey = c === OPEN_OBJECT;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (inSource !== 0) {
        shapes.byte(c);
        if (depth === inSource) {
          inSource = 0;
          sourceEnds(i + 1);
        }
      }
      if (mark[depth] === documentMark) {
        documents.push(i + 1);
      }
      if (--depth < 0) {
        return undefined;
      }
      next = OFF_PATH;
      expectKey = false;
    } else if (c === COMMA) {
      if (inSource !== 0) {
        shapes.byte(c);
      }
      next = OFF_PATH;
      expectKey = isObject[depth] === 1;
    } else if (c === COLON) {
      if (inSource !== 0) {
        shapes.byte(c);
      }
    } else if (!isBlank(c)) {
      // A literal: a number, true, false or null.
      const end = literalEnd(bytes, i, length);
      const source = inSource === 0 && next === SOURCE;
      if (source) {
        sourceStarts(i);
      }
      if (inSource !== 0 || source) {
        if (plainNumber(bytes, i, end)) {
          shapes.byte(ZERO);
        } else {
          shapes.copy(bytes, i, end);
        }
      }
      if (source) {
        sourceEnds(end);
      }
      next = OFF_PATH;
      i = end - 1;
    }
  }
  if (depth !== 0 || inSource !== 0) {
    return undefined;
  }
  flush(length);
  return { skeleton: out.subarray(0, written), shapes: shapes.all, documents };
}

/** The index of the quote closing the string opening at `at`; -1 when it does not close before `end`. */
function stringEnd(b: Buffer, at: number, end: number): number {
  const near = Math.min(end, at + 1 + SHORT_STRING);
  let i = at + 1;
  for (; i < near; i++) {
    const c = b[i] as number;
    if (c === BACKSLASH) {
      i++;
    } else if (c === QUOTE) {
      return i;
    }
  }
  // A long string (a description, a text field): its quotes found natively, an escaped one skipped.
  for (;;) {
    const quote = b.indexOf(QUOTE, i);
    if (quote === -1 || quote >= end) {
      return -1;
    }
    let slashes = 0;
    while (quote - 1 - slashes > at && b[quote - 1 - slashes] === BACKSLASH) {
      slashes++;
    }
    if (slashes % 2 === 0) {
      return quote;
    }
    i = quote + 1;
  }
}

function sameKey(b: Buffer, start: number, end: number, key: Buffer): boolean {
  if (end - start !== key.length) {
    return false;
  }
  for (let k = 0; k < key.length; k++) {
    if (b[start + k] !== key[k]) {
      return false;
    }
  }
  return true;
}

/** The shapes met so far, each written once: a shape is built in one buffer used again, hashed, and numbered. */
class ShapeSet {
  readonly all: Buffer[] = [];
  private shape = Buffer.allocUnsafe(1024);
  private length = 0;
  private readonly seen = new Map<number, number[]>();

  begin(): void {
    this.length = 0;
  }

  byte(c: number): void {
    if (this.length === this.shape.length) {
      this.grow(1);
    }
    this.shape[this.length++] = c;
  }

  copy(b: Buffer, start: number, end: number): void {
    if (this.length + end - start > this.shape.length) {
      this.grow(end - start);
    }
    for (let i = start; i < end; i++) {
      this.shape[this.length++] = b[i] as number;
    }
  }

  /** The number of the shape just written (a new one is kept). */
  end(): number {
    const shape = this.shape;
    let hash = 0x811c9dc5;
    for (let i = 0; i < this.length; i++) {
      hash = Math.imul(hash ^ (shape[i] as number), 0x01000193);
    }
    const written = shape.subarray(0, this.length);
    const same = this.seen.get(hash);
    const known = same?.find(n => (this.all[n] as Buffer).equals(written));
    if (known !== undefined) {
      return known;
    }
    const number = this.all.push(Buffer.from(written)) - 1;
    if (same) {
      same.push(number);
    } else {
      this.seen.set(hash, [number]);
    }
    return number;
  }

  private grow(more: number): void {
    const grown = Buffer.allocUnsafe(
      Math.max(this.shape.length * 2, this.length + more)
    );
    this.shape.copy(grown, 0, 0, this.length);
    this.shape = grown;
  }
}
