/**
 * An export page read straight from the bytes Elasticsearch sent: each hit's `_index`, `_id`
 * and `_source` are copied into a `{"_index","_id","_source"}` line as the engine wrote them,
 * without decoding them into objects and printing them again. That is several times cheaper
 * than JSON.parse + JSON.stringify of every hit, and exact: a long beyond 2^53 or a number
 * written `1.0` stays as the engine holds it, in a pretty-printed source too. The scan is also
 * this answer's check at the edge (in place of a zod schema, which would decode every hit):
 * bytes that are not a search answer whose hits have string `_index` and `_id` are refused.
 */
import {
  copyBytes,
  isBlank,
  skipBlanks,
  withoutBlanks
} from '../../json/json-bytes';
import type { JsonValue } from '../../console/cell';
import { isJsonObject } from '../../../../contracts/json';
import { parseExactJson } from '../../../../contracts/exact-json';
import { isUtf8 } from 'node:buffer';
import type {
  DocumentText,
  GridDocument
} from '../../driver-core/capabilities/export';
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
  CR
} from '../../../../contracts/json-char-codes';

export interface RawHitsPage {
  pitId: string | undefined;
  count: number;
  /**
   * One `{"_index","_id","_source"}` line a hit, each ending in a newline; made when first
   * read (a CSV export never reads it), valid until the next page is scanned.
   */
  readonly jsonl: Buffer;
  /**
   * Calls `visit` with each hit as the engine sent it (`_index`, `_id`, `_source` and the
   * rest), decoded straight from the answer's bytes a few hundred hits at a time: no line
   * is made and parsed again. Valid until the next page is scanned.
   */
  eachHit(visit: (hit: unknown) => void): void;
  /**
   * Calls `visit` with each hit's `_id`, `_index` and `_source` as JSON text in the answer's
   * bytes (`decoded` turns a hit as sent into its grid form, for a hit the text does not
   * settle); undefined when the answer is not valid UTF-8. Valid until the next page is scanned.
   */
  readonly eachHitText:
    | ((
        visit: (hit: DocumentText) => void,
        decoded: (hit: unknown) => GridDocument
      ) => void)
    | undefined;
  /** The last hit's `sort` values (where the next page starts). */
  lastSort: JsonValue[] | undefined;
  /** The failures of shards that did not answer (`_shards.failures`), when some did not. */
  shardFailures: string[];
}

const INDEX_KEY = Buffer.from('{"_index":');
const ID_KEY = Buffer.from(',"_id":');
const SOURCE_KEY = Buffer.from(',"_source":');
const LINE_END = Buffer.from('}\n');
const EMPTY_SOURCE = Buffer.from('{}');

/** Offsets a hit: start and end of `_index`, `_id`, `_source`, `sort` (-1 when absent), and of the hit itself. */
const SLOTS = 10;
const HIT_SLOT = 8;

/** Each hit's offsets (SLOTS a hit), in one typed array used again for every page: no garbage a hit. */
export class HitRanges {
  data = new Int32Array(SLOTS * 1024);
  /** Offsets in use: SLOTS times the hits read. */
  length = 0;

  /** Room for one more hit, its offsets -1; returns where they start. */
  addHit(): number {
    if (this.length + SLOTS > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const at = this.length;
    // Ten stores cost less than a call into fill, once a hit.
    const data = this.data;
    for (let k = at; k < at + SLOTS; k++) {
      data[k] = -1;
    }
    this.length += SLOTS;
    return at;
  }
}

/** What a cursor keeps from one page to the next: the offsets, and where page lines are written. */
export interface ScanScratch {
  ranges: HitRanges;
  /** `size` bytes for a page's lines, valid until the page after next (pages alternate). */
  output(size: number): Buffer;
}

/** Thrown inside the scanner when the bytes are not the search answer they should be. */
class NotASearchPage extends Error {}

function expectByte(b: Buffer, at: number, byte: number): number {
  at = skipBlanks(b, at);
  if (b[at] !== byte) {
    throw new NotASearchPage();
  }
  return at + 1;
}

/** Strings are stepped through for this many bytes before a native search takes over. */
const SHORT_STRING = 32;

/** `at` is an opening quote; returns the index just past the closing one. */
function stringEnd(b: Buffer, at: number): number {
  // Keys, ids and index names are short: a loop costs less than a call into indexOf.
  const near = Math.min(b.length, at + 1 + SHORT_STRING);
  for (let i = at + 1; i < near; i++) {
    const c = b[i];
    if (c === QUOTE) {
      return i + 1;
    }
    if (c === BACKSLASH) {
      i++;
    }
  }
  let from = at + 1;
  for (;;) {
    const quote = b.indexOf(QUOTE, from);
    if (quote === -1) {
      throw new NotASearchPage();
    }
    let slashes = 0;
    while (b[quote - 1 - slashes] === BACKSLASH) {
      slashes++;
    }
    if (slashes % 2 === 0) {
      return quote + 1;
    }
    from = quote + 1;
  }
}

/** What each byte is to the scan of an object or array: most bytes are none of these. */
const PLAIN = 0;
const OPENS = 1;
const CLOSES = 2;
const STRING = 3;
const BYTE_KIND = new Uint8Array(256);
BYTE_KIND[OPEN_OBJECT] = OPENS;
BYTE_KIND[OPEN_ARRAY] = OPENS;
BYTE_KIND[CLOSE_OBJECT] = CLOSES;
BYTE_KIND[CLOSE_ARRAY] = CLOSES;
BYTE_KIND[QUOTE] = STRING;

/** `at` starts a value (blanks skipped); returns the index just past it. */
function valueEnd(b: Buffer, at: number): number {
  const first = b[at];
  if (first === QUOTE) {
    return stringEnd(b, at);
  }
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    // The hot loop of an export (every byte of every _source): a table look-up a byte, and
    // strings (short, mostly) stepped through here rather than with a native indexOf call each.
    let depth = 0;
    const length = b.length;
    for (let i = at; i < length; i++) {
      const kind = BYTE_KIND[b[i] as number];
      if (kind === PLAIN) {
        continue;
      }
      if (kind === STRING) {
        for (i++; i < length; i++) {
          const c = b[i];
          if (c === BACKSLASH) {
            i++;
          } else if (c === QUOTE) {
            break;
          }
        }
      } else if (kind === OPENS) {
        depth++;
      } else if (--depth === 0) {
        return i + 1;
      }
    }
    throw new NotASearchPage();
  }
  let i = at;
  while (
    i < b.length &&
    b[i] !== COMMA &&
    b[i] !== CLOSE_OBJECT &&
    b[i] !== CLOSE_ARRAY &&
    !isBlank(b[i])
  ) {
    i++;
  }
  if (i === at) {
    throw new NotASearchPage();
  }
  return i;
}

/** Whether the key between quotes at [start, end) is `name` (ASCII), compared without decoding. */
function keyIs(b: Buffer, start: number, end: number, name: string): boolean {
  if (end - start - 2 !== name.length) {
    return false;
  }
  for (let k = 0; k < name.length; k++) {
    if (b[start + 1 + k] !== name.charCodeAt(k)) {
      return false;
    }
  }
  return true;
}

/**
 * Calls `member` for each key of the object opening at `at` (blanks skipped) with the key's
 * range (quotes included) and the value's start; `member` returns where the value ends.
 * Returns the index just past the object.
 */
function eachMember(
  b: Buffer,
  at: number,
  member: (keyStart: number, keyEnd: number, valueStart: number) => number
): number {
  let i = expectByte(b, at, OPEN_OBJECT);
  i = skipBlanks(b, i);
  if (b[i] === CLOSE_OBJECT) {
    return i + 1;
  }
  for (;;) {
    i = skipBlanks(b, i);
    if (b[i] !== QUOTE) {
      throw new NotASearchPage();
    }
    const keyEnd = stringEnd(b, i);
    const valueStart = skipBlanks(b, expectByte(b, keyEnd, COLON));
    i = skipBlanks(b, member(i, keyEnd, valueStart));
    if (b[i] === CLOSE_OBJECT) {
      return i + 1;
    }
    if (b[i] !== COMMA) {
      throw new NotASearchPage();
    }
    i++;
  }
}

const decode = (b: Buffer, start: number, end: number): JsonValue =>
  parseExactJson(b.toString('utf8', start, end)) as JsonValue;

/** A `_source` holding line breaks (a document indexed pretty-printed) is put on one line, its bytes otherwise as sent. */
function oneLine(b: Buffer, start: number, end: number): Buffer {
  for (let i = start; i < end; i++) {
    if (b[i] === LF || b[i] === CR) {
      return withoutBlanks(b, start, end);
    }
  }
  return b.subarray(start, end);
}

const FIXED_BYTES =
  INDEX_KEY.length + ID_KEY.length + SOURCE_KEY.length + LINE_END.length;

/** The lines, byte-copied into one buffer (the usual case: an answer on one line). */
function linesCopied(
  b: Buffer,
  ranges: HitRanges,
  output: (size: number) => Buffer
): Buffer {
  let size = 0;
  for (let h = 0; h < ranges.length; h += SLOTS) {
    const source = ranges.data[h + 4] as number;
    size +=
      FIXED_BYTES +
      (ranges.data[h + 1] as number) -
      (ranges.data[h] as number) +
      (ranges.data[h + 3] as number) -
      (ranges.data[h + 2] as number) +
      (source === -1
        ? EMPTY_SOURCE.length
        : (ranges.data[h + 5] as number) - source);
  }
  const out = output(size);
  let at = 0;
  for (let h = 0; h < ranges.length; h += SLOTS) {
    at = copyBytes(INDEX_KEY, 0, INDEX_KEY.length, out, at);
    at = copyBytes(
      b,
      ranges.data[h] as number,
      ranges.data[h + 1] as number,
      out,
      at
    );
    at = copyBytes(ID_KEY, 0, ID_KEY.length, out, at);
    at = copyBytes(
      b,
      ranges.data[h + 2] as number,
      ranges.data[h + 3] as number,
      out,
      at
    );
    at = copyBytes(SOURCE_KEY, 0, SOURCE_KEY.length, out, at);
    const source = ranges.data[h + 4] as number;
    at =
      source === -1
        ? copyBytes(EMPTY_SOURCE, 0, EMPTY_SOURCE.length, out, at)
        : copyBytes(b, source, ranges.data[h + 5] as number, out, at);
    at = copyBytes(LINE_END, 0, LINE_END.length, out, at);
  }
  return out;
}

/** The lines of an answer holding line breaks (pretty-printed sources), each source put on one line. */
function linesRebuilt(b: Buffer, ranges: HitRanges): Buffer {
  const parts: Buffer[] = [];
  for (let h = 0; h < ranges.length; h += SLOTS) {
    const r = (k: number) => ranges.data[h + k] as number;
    parts.push(
      INDEX_KEY,
      b.subarray(r(0), r(1)),
      ID_KEY,
      b.subarray(r(2), r(3)),
      SOURCE_KEY
    );
    parts.push(r(4) === -1 ? EMPTY_SOURCE : oneLine(b, r(4), r(5)), LINE_END);
  }
  return Buffer.concat(parts);
}

/**
 * Reads a `_search` answer's hits; undefined when the bytes are not a search answer with
 * `hits.hits` whose hits carry string `_index` and `_id` (the caller reports it).
 */
export function readRawHits(
  b: Buffer,
  scratch: ScanScratch
): RawHitsPage | undefined {
  try {
    return scan(b, scratch);
  } catch (err) {
    if (err instanceof NotASearchPage || err instanceof SyntaxError) {
      return undefined;
    }
    throw err;
  }
}

function scan(b: Buffer, scratch: ScanScratch): RawHitsPage {
  let pitId: string | undefined;
  let shardFailures: string[] = [];
  let found = false;
  // Per hit: the start and end of _index, _id and _source (-1: no _source), then of sort.
  const ranges = scratch.ranges;
  ranges.length = 0;
  const mayBreakLines = b.indexOf(LF) !== -1 || b.indexOf(CR) !== -1;
  const end = eachMember(b, 0, (keyStart, keyEnd, at) => {
    if (keyIs(b, keyStart, keyEnd, 'hits')) {
      return eachMember(b, at, (innerStart, innerEnd, hitsAt) => {
        if (!keyIs(b, innerStart, innerEnd, 'hits')) {
          return valueEnd(b, hitsAt);
        }
        found = true;
        return hitArray(b, hitsAt, ranges);
      });
    }
    const after = valueEnd(b, at);
    if (keyIs(b, keyStart, keyEnd, 'pit_id')) {
      const id = decode(b, at, after);
      if (typeof id === 'string') {
        pitId = id;
      }
    } else if (keyIs(b, keyStart, keyEnd, '_shards')) {
      shardFailures = failuresOf(decode(b, at, after));
    }
    return after;
  });
  if (!found || skipBlanks(b, end) !== b.length) {
    throw new NotASearchPage();
  }
  const count = ranges.length / SLOTS;
  let jsonl: Buffer | undefined;
  const last = ranges.length - SLOTS;
  const lastSort =
    count > 0 && (ranges.data[last + 6] as number) !== -1
      ? decode(
          b,
          ranges.data[last + 6] as number,
          ranges.data[last + 7] as number
        )
      : undefined;
  if (count > 0 && !Array.isArray(lastSort)) {
    throw new NotASearchPage();
  }
  return {
    pitId,
    count,
    get jsonl(): Buffer {
      return (jsonl ??= mayBreakLines
        ? linesRebuilt(b, ranges)
        : linesCopied(b, ranges, scratch.output));
    },
    eachHit: visit => eachHitOf(b, ranges, visit),
    // Bytes that are not UTF-8 become text only by decoding (each bad sequence a U+FFFD).
    eachHitText: isUtf8(b)
      ? (visit, decoded) => eachHitTextOf(b, ranges, visit, decoded)
      : undefined,
    lastSort: lastSort as JsonValue[] | undefined,
    shardFailures
  };
}

/** Hits decoded together: strings below V8's large-object size, so young and cheap to collect. */
const CHUNK_BYTES = 1 << 16;

function eachHitOf(
  b: Buffer,
  ranges: HitRanges,
  visit: (hit: unknown) => void
): void {
  const data = ranges.data;
  for (let first = 0; first < ranges.length;) {
    // Hits from `first` up to about CHUNK_BYTES (at least one, however long), as the answer's
    // array holds them: only commas and blanks lie between two.
    const start = data[first + HIT_SLOT] as number;
    let next = first + SLOTS;
    while (
      next < ranges.length &&
      (data[next + HIT_SLOT + 1] as number) - start <= CHUNK_BYTES
    ) {
      next += SLOTS;
    }
    const end = data[next - SLOTS + HIT_SLOT + 1] as number;
    const hits = parseExactJson(
      `[${b.toString('utf8', start, end)}]`
    ) as unknown[];
    for (const hit of hits) {
      visit(hit);
    }
    first = next;
  }
}

/** One hit's text, the object reused for every hit of a page. */
class HitText implements DocumentText {
  private readonly id = { name: '_id', start: 0, end: 0 };
  private readonly index = { name: '_index', start: 0, end: 0 };
  /** In the order a hit's grid form holds them. */
  readonly meta = [this.id, this.index];
  start = -1;
  end = -1;
  private hitStart = 0;
  private hitEnd = 0;

  constructor(
    readonly bytes: Buffer,
    private readonly decode: (hit: unknown) => GridDocument
  ) {}

  at(data: Int32Array, h: number): this {
    const { id, index } = this;
    id.start = data[h + 2] as number;
    id.end = data[h + 3] as number;
    index.start = data[h] as number;
    index.end = data[h + 1] as number;
    this.start = data[h + 4] as number;
    this.end = data[h + 5] as number;
    this.hitStart = data[h + HIT_SLOT] as number;
    this.hitEnd = data[h + HIT_SLOT + 1] as number;
    return this;
  }

  decoded(): GridDocument {
    return this.decode(
      parseExactJson(this.bytes.toString('utf8', this.hitStart, this.hitEnd))
    );
  }
}

function eachHitTextOf(
  b: Buffer,
  ranges: HitRanges,
  visit: (hit: DocumentText) => void,
  decoded: (hit: unknown) => GridDocument
): void {
  const text = new HitText(b, decoded);
  for (let h = 0; h < ranges.length; h += SLOTS) {
    visit(text.at(ranges.data, h));
  }
}

/** Which of a hit's ranges a key fills (its slot in `ranges`), or -1 for keys the line leaves out. */
function slotOf(b: Buffer, keyStart: number, keyEnd: number): number {
  switch (keyEnd - keyStart - 2) {
    case 6:
      return keyIs(b, keyStart, keyEnd, '_index') ? 0 : -1;
    case 3:
      return keyIs(b, keyStart, keyEnd, '_id') ? 2 : -1;
    case 7:
      return keyIs(b, keyStart, keyEnd, '_source') ? 4 : -1;
    case 4:
      return keyIs(b, keyStart, keyEnd, 'sort') ? 6 : -1;
    default:
      return -1;
  }
}

/** Each hit's ranges go into `ranges` (SLOTS numbers a hit); returns the index past the array. */
function hitArray(b: Buffer, at: number, ranges: HitRanges): number {
  let i = skipBlanks(b, expectByte(b, at, OPEN_ARRAY));
  if (b[i] === CLOSE_ARRAY) {
    return i + 1;
  }
  for (;;) {
    const hit = ranges.addHit();
    ranges.data[hit + HIT_SLOT] = i;
    i = skipBlanks(b, hitMembers(b, i, ranges.data, hit));
    if (b[i] === CLOSE_ARRAY) {
      return i + 1;
    }
    if (b[i] !== COMMA) {
      throw new NotASearchPage();
    }
    i = skipBlanks(b, i + 1);
  }
}

/** Reads the members of the hit opening at `at` into its slots; returns past its closing brace. */
function hitMembers(
  b: Buffer,
  at: number,
  data: Int32Array,
  hit: number
): number {
  let i = skipBlanks(b, expectByte(b, at, OPEN_OBJECT));
  while (b[i] !== CLOSE_OBJECT) {
    if (b[i] !== QUOTE) {
      throw new NotASearchPage();
    }
    const keyEnd = stringEnd(b, i);
    const valueAt = skipBlanks(b, expectByte(b, keyEnd, COLON));
    const after = valueEnd(b, valueAt);
    const slot = slotOf(b, i, keyEnd);
    if (slot !== -1) {
      data[hit + slot] = valueAt;
      data[hit + slot + 1] = after;
    }
    i = nextMember(b, after);
  }
  // _index and _id must be strings: they are copied into the line as they are.
  if (
    b[data[hit] as number] !== QUOTE ||
    b[data[hit + 2] as number] !== QUOTE
  ) {
    throw new NotASearchPage();
  }
  data[hit + HIT_SLOT + 1] = i + 1;
  return i + 1;
}

/** From just past a member's value: the next key, or the object's closing brace. */
function nextMember(b: Buffer, after: number): number {
  const i = skipBlanks(b, after);
  if (b[i] === COMMA) {
    return skipBlanks(b, i + 1);
  }
  if (b[i] !== CLOSE_OBJECT) {
    throw new NotASearchPage();
  }
  return i;
}

function failuresOf(shards: JsonValue): string[] {
  const object = isJsonObject(shards) ? shards : undefined;
  const failed = object?.failed;
  if (typeof failed !== 'number' || failed === 0) {
    return [];
  }
  const failures = Array.isArray(object?.failures) ? object.failures : [];
  const reasons = failures.map(f => {
    const reason = isJsonObject(f) ? f.reason : undefined;
    const text = isJsonObject(reason) ? reason.reason : reason;
    return typeof text === 'string' ? text : JSON.stringify(f);
  });
  return reasons.length > 0 ? reasons : [`${failed} shard(s) failed`];
}

const SORT_KEY = Buffer.from('"sort":[');
const PAGE_END = /^\s*\}\s*\]\s*\}\s*\}\s*$/;
const PIT_HEAD = /^\{\s*"pit_id"\s*:\s*"([^"\\]*)"/;

/**
 * Where the next page starts, read from the answer's two ends only: its last hit's `sort`
 * values (the answer ends with them) and its `pit_id` (it begins with it). A guess, made so
 * the next page can be asked for before this one is read; the caller checks it against the
 * page once read. Undefined when the ends are not of that shape.
 */
export function guessNextPage(
  b: Buffer
): { after: JsonValue[]; pitId: string | undefined } | undefined {
  const key = b.lastIndexOf(SORT_KEY);
  if (key === -1) {
    return undefined;
  }
  const open = key + SORT_KEY.length - 1;
  const close = b.indexOf(CLOSE_ARRAY, open);
  if (close === -1 || !PAGE_END.test(b.toString('latin1', close + 1))) {
    return undefined;
  }
  let after: JsonValue;
  try {
    after = decode(b, open, close + 1);
  } catch {
    return undefined;
  }
  if (!Array.isArray(after)) {
    return undefined;
  }
  return {
    after,
    pitId: PIT_HEAD.exec(b.toString('latin1', 0, Math.min(b.length, 4096)))?.[1]
  };
}
