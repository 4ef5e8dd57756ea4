/**
 * CSV lines made straight from a document's JSON text, without decoding it: each value the
 * grid would place goes into its header column as the bytes the engine sent, where those bytes
 * are what the decoded value prints as (a string without escapes, a number a double prints the
 * same, an array of such values written without blanks). Anything else is decoded, the value
 * alone or, where the placing itself needs decoded values, the whole document by the caller:
 * the lines are byte for byte those of the decoded way (csv.ts and fieldPlacer), several times
 * cheaper, with no object a document to collect.
 */
import { copyBytes, isBlank, skipBlanks } from '../json/json-bytes';
import type { DocumentText } from '../driver-core/capabilities/export';
import type { JsonValue } from '../console/cell';
import { parseExactJson } from '../../../contracts/exact-json';
import type { FieldPlacement } from '../../../contracts/answer-rows';
import { isJsonObject } from '../../../contracts/json';
import { csvField } from './csv';
import type { PageBytes } from './page-bytes';
import {
  QUOTE,
  BACKSLASH,
  OPEN_OBJECT,
  CLOSE_OBJECT,
  OPEN_ARRAY,
  CLOSE_ARRAY,
  COMMA,
  COLON,
  LF,
  CR,
  MINUS,
  POINT,
  ZERO,
  NINE
} from '../../../contracts/json-char-codes';

/** What a column of the line being made holds. */
const EMPTY = 0;
/** Bytes copied as they are. */
const BYTES = 1;
/** Bytes copied between quotes (they hold a comma, no quote). */
const QUOTED = 2;
/** Bytes copied between quotes, each quote doubled (JSON text of an array). */
const QUOTED_DOUBLED = 3;
/** A field already written as CSV text (a decoded value). */
const TEXT = 4;

/** More significant digits than this and a double may print a number otherwise. */
const EXACT_DIGITS = 15;
/** A double below 1e-6 prints in exponent form: at most this many zeros after the point. */
const MAX_LEADING_ZEROS = 5;
/** Paths known at most: past them, a document with a new path is decoded. */
const MAX_PATHS = 10_000;

/** The text needs the decoded way: thrown inside a line, caught by `line`. */
class NeedsDecoding extends Error {}
const needsDecoding = new NeedsDecoding();
/** A field comes for a column the line already went past: thrown inside a line, which is made again staged. */
const columnPassed = new NeedsDecoding();
/** How reading a document's fields ended: read, to be decoded, or to be read again staged. */
const READ = 0;
const DECODE = 1;
const AGAIN = 2;

/** A document path: its column and how the grid places a value there; children by key bytes. */
class PathNode {
  private children: Map<number, PathNode> | undefined;
  /** The next child of the parent with the same key hash. */
  private sibling: PathNode | undefined;
  /** The document that last held this path: a second time is a repeated key, decoded (the last one counts). */
  seenBy = 0;
  /**
   * The key the last document wrote first in this object, and the one it wrote after this
   * key: documents of one index mostly write their keys in the same order, so the next key
   * is checked against these before it is looked up.
   */
  first: PathNode | undefined;
  next: PathNode | undefined;

  constructor(
    readonly path: string,
    private readonly key: Buffer,
    readonly column: number,
    readonly whole: boolean,
    readonly arrayLeaves: boolean,
    readonly mappedLeaves: boolean
  ) {}

  child(b: Buffer, start: number, end: number, lines: CsvTextLines): PathNode {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) {
      hash = Math.imul(hash ^ (b[i] as number), 0x01000193);
    }
    const first = this.children?.get(hash);
    for (let node = first; node; node = node.sibling) {
      if (node.holds(b, start, end)) {
        return node;
      }
    }
    if (!lines.remember()) {
      // Documents whose keys are ids would otherwise grow the paths without end.
      throw needsDecoding;
    }
    const key = b.toString('utf8', start, end);
    const made = lines.node(this.path ? `${this.path}.${key}` : key, key);
    made.sibling = first;
    (this.children ??= new Map()).set(hash, made);
    return made;
  }

  get keyLength(): number {
    return this.key.length;
  }

  /**
   * Whether the string opening at `at` is this key: its bytes, then the closing quote. A key
   * is known only once read without escapes, so it holds no quote or backslash, and the first
   * quote after its bytes ends the string; one compare instead of a scan and a compare.
   */
  isKeyAt(b: Buffer, at: number): boolean {
    const key = this.key;
    const start = at + 1;
    for (let k = 0; k < key.length; k++) {
      if (key[k] !== b[start + k]) {
        return false;
      }
    }
    return b[start + key.length] === QUOTE;
  }

  holds(b: Buffer, start: number, end: number): boolean {
    const key = this.key;
    if (key.length !== end - start) {
      return false;
    }
    for (let i = 0; i < key.length; i++) {
      if (key[i] !== b[start + i]) {
        return false;
      }
    }
    return true;
  }
}

/** Where the string opening at `at` ends (past its quote), and whether it holds an escape, a comma or a control byte. */
let stringEscapes = false;
let stringComma = false;

/** What a byte inside a string is to stringEnd: most are none of these (a table look-up a byte). */
const ENDS_STRING = 1;
const ESCAPES_NEXT = 2;
const IS_COMMA = 3;
const IS_CONTROL = 4;
const IN_STRING = new Uint8Array(256);
IN_STRING.fill(IS_CONTROL, 0, 0x20);
IN_STRING[QUOTE] = ENDS_STRING;
IN_STRING[BACKSLASH] = ESCAPES_NEXT;
IN_STRING[COMMA] = IS_COMMA;

function stringEnd(b: Buffer, at: number): number {
  let escapes = false;
  let comma = false;
  const length = b.length;
  for (let i = at + 1; i < length; i++) {
    const kind = IN_STRING[b[i] as number];
    if (kind === 0) {
      continue;
    }
    if (kind === ENDS_STRING) {
      stringEscapes = escapes;
      stringComma = comma;
      return i + 1;
    }
    if (kind === ESCAPES_NEXT) {
      escapes = true;
      i++;
    } else if (kind === IS_COMMA) {
      comma = true;
    } else {
      // A control byte is not JSON: decoding says so as the decoded way would.
      escapes = true;
    }
  }
  throw needsDecoding;
}

/** The bytes that end a number, `true`, `false` or `null`: a comma, a closing bracket, a blank. */
const ENDS_LITERAL = new Uint8Array(256);
for (const c of [COMMA, CLOSE_OBJECT, CLOSE_ARRAY, 0x20, LF, CR, 0x09]) {
  ENDS_LITERAL[c] = 1;
}

/** Where a number, `true`, `false` or `null` starting at `at` ends. */
function literalEnd(b: Buffer, at: number): number {
  const length = b.length;
  let i = at;
  while (i < length && ENDS_LITERAL[b[i] as number] === 0) {
    i++;
  }
  if (i === at) {
    throw needsDecoding;
  }
  return i;
}

const isDigit = (c: number | undefined): boolean =>
  c !== undefined && c >= ZERO && c <= NINE;

/**
 * Whether the number literal in [start, end) is what a double prints for it: an integer or a
 * decimal of at most 15 significant digits, in plain notation, without a trailing zero, `-0`,
 * or (below 1e-6) a form a double prints with an exponent.
 */
function printsAsWritten(b: Buffer, start: number, end: number): boolean {
  let i = start;
  if (b[i] === MINUS) {
    i++;
  }
  let digits = 0;
  const zeroInteger = b[i] === ZERO;
  if (zeroInteger) {
    i++;
  } else {
    if (!isDigit(b[i])) {
      return false;
    }
    while (isDigit(b[i])) {
      i++;
      digits++;
    }
  }
  if (i === end) {
    // `-0` prints as 0.
    return !(zeroInteger && b[start] === MINUS) && digits <= EXACT_DIGITS;
  }
  if (b[i] !== POINT) {
    return false;
  }
  i++;
  let zeros = 0;
  while (zeroInteger && b[i] === ZERO && i < end) {
    zeros++;
    i++;
  }
  if (zeros > MAX_LEADING_ZEROS || !isDigit(b[i])) {
    return false;
  }
  while (i < end && isDigit(b[i])) {
    i++;
    digits++;
  }
  return i === end && b[end - 1] !== ZERO && digits <= EXACT_DIGITS;
}

/** Whether [start, end) is `true` or `false`. */
function isBoolean(b: Buffer, start: number, end: number): boolean {
  const length = end - start;
  return (
    (length === 4 &&
      b[start] === 0x74 &&
      b[start + 1] === 0x72 &&
      b[start + 2] === 0x75 &&
      b[start + 3] === 0x65) ||
    (length === 5 &&
      b[start] === 0x66 &&
      b[start + 1] === 0x61 &&
      b[start + 2] === 0x6c &&
      b[start + 3] === 0x73 &&
      b[start + 4] === 0x65)
  );
}

function isNull(b: Buffer, start: number, end: number): boolean {
  return (
    end - start === 4 &&
    b[start] === 0x6e &&
    b[start + 1] === 0x75 &&
    b[start + 2] === 0x6c &&
    b[start + 3] === 0x6c
  );
}

/**
 * Where the array opening at `at` ends when its text is what JSON.stringify prints for it
 * (strings without escapes, numbers a double prints as written, `true`, `false`, `null` and
 * arrays of those, no blanks); -1 otherwise.
 */
function printedArrayEnd(b: Buffer, at: number): number {
  let i = at + 1;
  if (b[i] === CLOSE_ARRAY) {
    return i + 1;
  }
  for (;;) {
    const c = b[i];
    if (c === QUOTE) {
      i = stringEnd(b, i);
      if (stringEscapes) {
        return -1;
      }
    } else if (c === OPEN_ARRAY) {
      i = printedArrayEnd(b, i);
      if (i === -1) {
        return -1;
      }
    } else if (c === OPEN_OBJECT || c === undefined || isBlank(c)) {
      return -1;
    } else {
      const end = literalEnd(b, i);
      if (
        !printsAsWritten(b, i, end) &&
        !isBoolean(b, i, end) &&
        !isNull(b, i, end)
      ) {
        return -1;
      }
      i = end;
    }
    if (b[i] === CLOSE_ARRAY) {
      return i + 1;
    }
    if (b[i] !== COMMA) {
      return -1;
    }
    i++;
  }
}

/** Where any JSON value starting at `at` ends. */
function valueEnd(b: Buffer, at: number): number {
  const first = b[at];
  if (first === QUOTE) {
    return stringEnd(b, at);
  }
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    return literalEnd(b, at);
  }
  let depth = 0;
  for (let i = at; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) {
      i = stringEnd(b, i) - 1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
    } else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) {
      return i + 1;
    }
  }
  throw needsDecoding;
}

function decode(b: Buffer, start: number, end: number): JsonValue {
  try {
    return parseExactJson(b.toString('utf8', start, end)) as JsonValue;
  } catch {
    // Not JSON: the decoded way of the whole document fails as it always did.
    throw needsDecoding;
  }
}

/**
 * JSON text as a CSV field into `out` at `at`: between quotes, each quote doubled, when it
 * holds a quote or a comma. Where the field ends.
 */
function quotedJson(
  b: Buffer,
  start: number,
  end: number,
  out: Buffer,
  at: number
): number {
  let plain = true;
  for (let i = start; i < end && plain; i++) {
    plain = b[i] !== QUOTE && b[i] !== COMMA;
  }
  if (plain) {
    return copyBytes(b, start, end, out, at);
  }
  out[at++] = QUOTE;
  for (let i = start; i < end; i++) {
    const c = b[i] as number;
    out[at++] = c;
    if (c === QUOTE) {
      out[at++] = QUOTE;
    }
  }
  out[at++] = QUOTE;
  return at;
}

/**
 * The CSV lines of documents given as JSON text, under a fixed header and the grid's placing.
 * `line` writes one document's line, or returns false (writing nothing) for a document the
 * caller writes the decoded way.
 */
export class CsvTextLines {
  private readonly kinds: Uint8Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly texts: (string | undefined)[];
  /** The document that last set each column from its own fields (a second time needs decoding). */
  private readonly setBy: Int32Array;
  private document = 0;
  /** Bytes the line being made may take, from the fields set so far (store). */
  private most = 0;
  /**
   * Whether fields go straight into the line: a document's fields mostly come in the header's
   * order, each then written as it is read, with no second pass over the columns. The first
   * field out of that order ends it; the rest are staged and written by `write`.
   */
  private direct = false;
  /** The columns before this one are in the line. */
  private next = 0;
  /** The line's buffer and where its next byte goes, while fields go straight into it. */
  private lineBuffer: Buffer = Buffer.alloc(0);
  private at = 0;
  private bytes: Buffer = Buffer.alloc(0);
  private readonly root: PathNode;
  private paths = 0;
  /** Fields without a header column met in this document, noted once it is written. */
  private readonly missing: string[] = [];
  private metaOf: DocumentText['meta'] | undefined;
  private metaAt: number[] = [];

  constructor(
    /** The header's columns, and the place of each name among them. */
    columns: number,
    private readonly headerIndex: ReadonlyMap<string, number>,
    private readonly placement: FieldPlacement,
    private readonly leftOut: Set<string>
  ) {
    const n = columns;
    this.kinds = new Uint8Array(n);
    this.starts = new Int32Array(n);
    this.ends = new Int32Array(n);
    this.texts = new Array<string | undefined>(n).fill(undefined);
    this.setBy = new Int32Array(n);
    this.root = this.node('', '');
  }

  /** The node of a path (made by PathNode.child). */
  node(path: string, key: string): PathNode {
    const { whole, arrayLeaves, mappedLeaves } = this.placement;
    return new PathNode(
      path,
      Buffer.from(key),
      this.headerIndex.get(path) ?? -1,
      whole.has(path),
      arrayLeaves.has(path),
      mappedLeaves.has(path)
    );
  }

  /** Whether there is room for one more path. */
  remember(): boolean {
    return ++this.paths <= MAX_PATHS;
  }

  /** Writes the document's line into `out`; false when it needs the decoded way (nothing written). */
  line(text: DocumentText, out: PageBytes): boolean {
    this.bytes = text.bytes;
    let read = this.fields(text, out, true);
    if (read === AGAIN) {
      // Made again with every field staged: a field for a column the line already holds (a
      // leading value the document replaces) then replaces it before anything is written.
      read = this.fields(text, out, false);
    }
    if (read !== READ) {
      return false;
    }
    this.write(out);
    for (const name of this.missing) {
      this.leftOut.add(name);
    }
    return true;
  }

  /**
   * Reads the document's fields into their columns, `direct`ly into the line where they come in
   * the header's order: READ, DECODE (the document needs the decoded way) or AGAIN (a field
   * came for a column already written).
   */
  private fields(text: DocumentText, out: PageBytes, direct: boolean): number {
    const b = this.bytes;
    // 2^31 documents a writer: no export comes near, so stamps never repeat.
    this.document++;
    // Setting an array's length is a call into the runtime: only when there is something to drop.
    if (this.missing.length !== 0) {
      this.missing.length = 0;
    }
    this.direct = direct;
    this.next = 0;
    if (direct) {
      // Room for every field written as it is read: each is a part of the document's text,
      // doubled and quoted at most, with its comma.
      let textBytes = text.start === -1 ? 0 : text.end - text.start;
      for (const { start, end } of text.meta) {
        textBytes += end - start;
      }
      this.lineBuffer = out.reserve(2 * textBytes + 3 * this.kinds.length + 2);
      this.at = out.size;
    }
    try {
      // The leading values first: a document field of the same name replaces one, as in the grid.
      const meta = text.meta;
      const columns = this.metaColumns(meta);
      for (let m = 0; m < meta.length; m++) {
        const { name, start, end } = meta[m] as DocumentText['meta'][number];
        const column = columns[m] as number;
        if (column === -1) {
          this.missing.push(name);
        } else {
          if (b[start] === QUOTE && stringEnd(b, start) !== end) {
            throw needsDecoding;
          }
          this.value(column, start, end);
        }
      }
      if (text.start !== -1) {
        const at = skipBlanks(b, text.start);
        if (b[at] !== OPEN_OBJECT) {
          // A source that is not an object shows in a `value` column.
          throw needsDecoding;
        }
        this.object(at, this.root);
      }
    } catch (err) {
      this.clear();
      if (err === columnPassed) {
        return AGAIN;
      }
      if (err === needsDecoding) {
        return DECODE;
      }
      throw err;
    }
    return READ;
  }

  /**
   * The header column of each leading value (-1 for none): a page gives every document the
   * same list of names, so they are looked up once a page, not once a document.
   */
  private metaColumns(meta: DocumentText['meta']): number[] {
    if (meta !== this.metaOf) {
      this.metaOf = meta;
      this.metaAt = meta.map(({ name }) => this.headerIndex.get(name) ?? -1);
    }
    return this.metaAt;
  }

  /** Walks the members of the object opening at `at` as fieldPlacer walks them; returns where it ends. */
  private object(at: number, node: PathNode): number {
    const b = this.bytes;
    let i = skipBlanks(b, at + 1);
    if (b[i] === CLOSE_OBJECT) {
      return i + 1;
    }
    let previous: PathNode | undefined;
    for (;;) {
      if (b[i] !== QUOTE) {
        throw needsDecoding;
      }
      const expected = previous ? previous.next : node.first;
      let child: PathNode;
      let keyEnd: number;
      if (expected?.isKeyAt(b, i) === true) {
        child = expected;
        keyEnd = i + expected.keyLength + 2;
      } else {
        keyEnd = stringEnd(b, i);
        // An escaped key is decoded; an index-like key comes first in a decoded object's order.
        if (stringEscapes || isDigit(b[i + 1])) {
          throw needsDecoding;
        }
        child = node.child(b, i + 1, keyEnd - 1, this);
      }
      // Stored only when they change: documents of one order then write nothing here.
      if (previous) {
        if (previous.next !== child) {
          previous.next = child;
        }
      } else if (node.first !== child) {
        node.first = child;
      }
      previous = child;
      if (child.seenBy === this.document) {
        throw needsDecoding;
      }
      child.seenBy = this.document;
      i = skipBlanks(b, keyEnd);
      if (b[i] !== COLON) {
        throw needsDecoding;
      }
      i = skipBlanks(b, this.member(skipBlanks(b, i + 1), child));
      if (b[i] === CLOSE_OBJECT) {
        return i + 1;
      }
      if (b[i] !== COMMA) {
        throw needsDecoding;
      }
      i = skipBlanks(b, i + 1);
    }
  }

  /** Places the value at `at` under `node`'s path; returns where it ends. */
  private member(at: number, node: PathNode): number {
    const b = this.bytes;
    const first = b[at];
    if (first === OPEN_OBJECT) {
      if (node.whole) {
        if (node.arrayLeaves) {
          // An object where an array of objects is mapped: its leaves get an entry each.
          throw needsDecoding;
        }
        const end = valueEnd(b, at);
        this.text(node, csvField(decode(b, at, end)));
        return end;
      }
      const inside = skipBlanks(b, at + 1);
      if (b[inside] === CLOSE_OBJECT) {
        this.text(node, '{}');
        return inside + 1;
      }
      return this.object(at, node);
    }
    if (first === OPEN_ARRAY) {
      if (node.whole && node.arrayLeaves) {
        throw needsDecoding;
      }
      const printed = printedArrayEnd(b, at);
      if (printed !== -1) {
        // No object inside, so no leaves to fill; brackets and commas, quotes when it holds strings.
        this.set(node, QUOTED_DOUBLED, at, printed);
        return printed;
      }
      const end = valueEnd(b, at);
      const value = decode(b, at, end);
      if (
        node.mappedLeaves &&
        (value as JsonValue[]).some(element => isJsonObject(element))
      ) {
        throw needsDecoding;
      }
      this.text(node, csvField(value));
      return end;
    }
    const end = first === QUOTE ? stringEnd(b, at) : literalEnd(b, at);
    if (node.column === -1) {
      this.missing.push(node.path);
      return end;
    }
    this.mark(node.column);
    this.value(node.column, at, end);
    return end;
  }

  /**
   * A string or literal value in [start, end) into `column`; a string's flags are those of the
   * last stringEnd, which was its own.
   */
  private value(column: number, start: number, end: number): void {
    const b = this.bytes;
    if (b[start] === QUOTE) {
      if (stringEscapes) {
        this.store(column, TEXT, 0, 0, csvField(decode(b, start, end)));
      } else {
        this.store(column, stringComma ? QUOTED : BYTES, start + 1, end - 1);
      }
    } else if (isNull(b, start, end)) {
      this.store(column, EMPTY, 0, 0);
    } else if (printsAsWritten(b, start, end) || isBoolean(b, start, end)) {
      this.store(column, BYTES, start, end);
    } else {
      this.store(column, TEXT, 0, 0, csvField(decode(b, start, end)));
    }
  }

  private set(node: PathNode, kind: number, start: number, end: number): void {
    if (node.column === -1) {
      this.missing.push(node.path);
      return;
    }
    this.mark(node.column);
    this.store(node.column, kind, start, end);
  }

  private text(node: PathNode, text: string): void {
    if (node.column === -1) {
      this.missing.push(node.path);
      return;
    }
    this.mark(node.column);
    this.store(node.column, TEXT, 0, 0, text);
  }

  /** A column set twice by one document (a dotted key and an object, a repeated key) is settled by decoding. */
  private mark(column: number): void {
    if (this.setBy[column] === this.document) {
      throw needsDecoding;
    }
    this.setBy[column] = this.document;
  }

  private store(
    column: number,
    kind: number,
    start: number,
    end: number,
    text?: string
  ): void {
    if (column < this.next) {
      throw columnPassed;
    }
    if (this.direct) {
      if (column === this.next && kind !== TEXT) {
        this.writeField(column, kind, start, end);
        return;
      }
      this.direct = false;
    }
    this.kinds[column] = kind;
    this.starts[column] = start;
    this.ends[column] = end;
    this.texts[column] = text;
    // The most the field can take: copied bytes doubled and quoted, a UTF-16 unit of text three
    // bytes. Counted as fields are set (a field set again counts twice: still enough room).
    this.most +=
      kind === TEXT
        ? (text as string).length * 3
        : kind === EMPTY
          ? 0
          : 2 * (end - start) + 2;
  }

  /** The field of the line's next column, written in place (its room was reserved with the line). */
  private writeField(
    column: number,
    kind: number,
    start: number,
    end: number
  ): void {
    const buffer = this.lineBuffer;
    let at = this.at;
    if (column > 0) {
      buffer[at++] = COMMA;
    }
    if (kind === BYTES) {
      at = copyBytes(this.bytes, start, end, buffer, at);
    } else if (kind === QUOTED) {
      buffer[at++] = QUOTE;
      at = copyBytes(this.bytes, start, end, buffer, at);
      buffer[at++] = QUOTE;
    } else if (kind === QUOTED_DOUBLED) {
      at = quotedJson(this.bytes, start, end, buffer, at);
    }
    this.at = at;
    this.next = column + 1;
  }

  private write(out: PageBytes): void {
    const b = this.bytes;
    const kinds = this.kinds;
    const starts = this.starts;
    const ends = this.ends;
    const first = this.next;
    if (first > 0) {
      // The columns written as they were read.
      out.wrote(this.at);
    }
    this.next = 0;
    // The most the rest of the line can take: its fields', the commas and the line end.
    let buffer = out.reserve(this.most + kinds.length + 2);
    this.most = 0;
    let at = out.size;
    for (let i = first; i < kinds.length; i++) {
      if (i > 0) {
        buffer[at++] = COMMA;
      }
      const kind = kinds[i];
      if (kind === EMPTY) {
        continue;
      }
      kinds[i] = EMPTY;
      const start = starts[i] as number;
      const end = ends[i] as number;
      if (kind === BYTES || kind === QUOTED) {
        if (kind === QUOTED) {
          buffer[at++] = QUOTE;
        }
        at = copyBytes(b, start, end, buffer, at);
        if (kind === QUOTED) {
          buffer[at++] = QUOTE;
        }
      } else if (kind === QUOTED_DOUBLED) {
        at = quotedJson(b, start, end, buffer, at);
      } else {
        // Text is written by PageBytes, which may move the line to a larger buffer (it was
        // reserved for, so it does not).
        out.wrote(at);
        out.text(this.texts[i] as string);
        this.texts[i] = undefined;
        buffer = out.reserve(0);
        at = out.size;
      }
    }
    buffer[at++] = CR;
    buffer[at++] = LF;
    out.wrote(at);
  }

  private clear(): void {
    this.most = 0;
    this.next = 0;
    this.direct = false;
    this.kinds.fill(EMPTY);
    this.texts.fill(undefined);
  }
}
