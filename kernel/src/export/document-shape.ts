/**
 * A document's shape, read from its JSON text: its keys as written and where each value is
 * a string, a plain number, `true`, `false`, `null`, an array or an object, with the values
 * themselves left out. The CSV header's columns depend on the documents' shapes only (which
 * paths they hold, which hold objects, arrays or null, which type a path's first value has),
 * so a document of a shape already seen adds no column and need not be decoded for them.
 */
import {
  isBlank,
  literalEnd,
  plainNumber,
  stringClose
} from '../json/json-bytes';
import {
  QUOTE,
  OPEN_OBJECT,
  CLOSE_OBJECT,
  OPEN_ARRAY,
  CLOSE_ARRAY,
  COMMA,
  COLON,
  ZERO
} from '../../../contracts/json-char-codes';

/** Stands for any string value, and for any plain number. */
const STRING_VALUE = QUOTE;
const NUMBER_VALUE = ZERO;

/**
 * The shapes met so far. A shape is written as bytes into one buffer used again, hashed, and
 * compared byte for byte with the shapes of the same hash: no string a document.
 */
export class DocumentShapes {
  private shape = Buffer.allocUnsafe(256);
  private length = 0;
  private readonly seen = new Map<number, Buffer[]>();
  /** The shape of the last document read. */
  private last: Buffer | undefined;
  /** Per open array or object, whether it is an object. */
  private readonly inObject: boolean[] = [];

  /**
   * Whether the JSON text in [start, end) of `b` has a shape not met before (it is then
   * remembered); also true for text this reading does not follow (decoded, as every document
   * used to be).
   */
  isNew(b: Buffer, start: number, end: number): boolean {
    if (!this.read(b, start, end)) {
      return true;
    }
    // Documents of one index mostly follow one another in one shape: the last one is tried
    // first, without a hash.
    if (this.last && this.holds(this.last)) {
      return false;
    }
    let hash = 0x811c9dc5;
    const shape = this.shape;
    for (let i = 0; i < this.length; i++) {
      hash = Math.imul(hash ^ (shape[i] as number), 0x01000193);
    }
    const same = this.seen.get(hash);
    for (const known of same ?? []) {
      if (this.holds(known)) {
        this.last = known;
        return false;
      }
    }
    const kept = Buffer.from(shape.subarray(0, this.length));
    if (same) {
      same.push(kept);
    } else {
      this.seen.set(hash, [kept]);
    }
    this.last = kept;
    return true;
  }

  /** Whether the shape just read is `known`, compared in place (no view of it made). */
  private holds(known: Buffer): boolean {
    const length = this.length;
    if (known.length !== length) {
      return false;
    }
    const shape = this.shape;
    for (let i = 0; i < length; i++) {
      if (known[i] !== shape[i]) {
        return false;
      }
    }
    return true;
  }

  /** Writes the shape of [start, end) into `shape`; false where the text is not followed. */
  private read(b: Buffer, start: number, end: number): boolean {
    this.length = 0;
    const inObject = this.inObject;
    inObject.length = 0;
    /** Whether the next string is a key (inside an object, before its colon). */
    let expectKey = false;
    let i = start;
    while (i < end) {
      const c = b[i] as number;
      if (isBlank(c)) {
        i++;
        continue;
      }
      if (c === QUOTE) {
        const close = stringClose(b, i, end);
        if (close === -1) {
          return false;
        }
        // Keys as written (two spellings of one key only cost a decoding); values by kind.
        if (expectKey) {
          this.copy(b, i, close + 1);
        } else {
          this.byte(STRING_VALUE);
        }
        i = close + 1;
        continue;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        inObject.push(c === OPEN_OBJECT);
        expectKey = c === OPEN_OBJECT;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        inObject.pop();
        expectKey = false;
      } else if (c === COLON) {
        expectKey = false;
      } else if (c === COMMA) {
        expectKey = inObject[inObject.length - 1] === true;
      } else {
        // A literal: true, false, null or a number.
        const j = literalEnd(b, i, end);
        if (plainNumber(b, i, j)) {
          this.byte(NUMBER_VALUE);
        } else {
          this.copy(b, i, j);
        }
        i = j;
        continue;
      }
      this.byte(c);
      i++;
    }
    return inObject.length === 0;
  }

  private byte(c: number): void {
    if (this.length === this.shape.length) {
      this.grow(1);
    }
    this.shape[this.length++] = c;
  }

  private copy(b: Buffer, start: number, end: number): void {
    if (this.length + end - start > this.shape.length) {
      this.grow(end - start);
    }
    for (let i = start; i < end; i++) {
      this.shape[this.length++] = b[i] as number;
    }
  }

  private grow(more: number): void {
    const grown = Buffer.allocUnsafe(
      Math.max(this.shape.length * 2, this.length + more)
    );
    this.shape.copy(grown, 0, 0, this.length);
    this.shape = grown;
  }
}
