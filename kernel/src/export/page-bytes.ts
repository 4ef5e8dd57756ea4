/**
 * The bytes of one page of an export file, written into one buffer used again page after
 * page: no page becomes a string of megabytes (V8 keeps such strings among its large objects
 * until a full collection), and a million documents allocate a buffer or two, not a few
 * hundred megabytes. The file layer has written a page before the next one is made, so one
 * buffer is enough.
 */
const INITIAL_BYTES = 1 << 16;
const QUOTE = 0x22;
/** Copies of at most this many bytes are made byte by byte. */
const SHORT_COPY = 32;

export class PageBytes {
  private buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  private length = 0;

  /** Starts a new page: what the last `bytes()` returned is overwritten from here on. */
  reset(): void {
    this.length = 0;
  }

  /** Appends text as UTF-8. */
  text(text: string): void {
    // A UTF-16 unit never takes more than three UTF-8 bytes.
    this.room(text.length * 3);
    this.length += this.buffer.write(text, this.length);
  }

  /** Appends bytes [start, end) of `from`. */
  copy(from: Buffer, start: number, end: number): void {
    this.room(end - start);
    if (end - start > SHORT_COPY) {
      this.length += from.copy(this.buffer, this.length, start, end);
      return;
    }
    // A CSV field is a few bytes: a loop costs less than a call into Buffer.copy.
    const buffer = this.buffer;
    let at = this.length;
    for (let i = start; i < end; i++) {
      buffer[at++] = from[i] as number;
    }
    this.length = at;
  }

  /** Appends bytes [start, end) of `from` between quotes, each quote doubled (a CSV field). */
  quoted(from: Buffer, start: number, end: number): void {
    this.room(2 * (end - start) + 2);
    const buffer = this.buffer;
    let at = this.length;
    buffer[at++] = QUOTE;
    for (let i = start; i < end; i++) {
      const c = from[i] as number;
      buffer[at++] = c;
      if (c === QUOTE) {
        buffer[at++] = QUOTE;
      }
    }
    buffer[at++] = QUOTE;
    this.length = at;
  }

  /** Appends one byte. */
  byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  /** The page so far, valid until the next reset. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private room(more: number): void {
    if (this.length + more <= this.buffer.length) {
      return;
    }
    const grown = Buffer.allocUnsafe(
      Math.max(this.length + more, this.buffer.length * 2)
    );
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
