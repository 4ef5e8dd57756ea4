/**
 * The bytes of one page of an export file, written into one buffer used again page after
 * page: no page becomes a string of megabytes (V8 keeps such strings among its large objects
 * until a full collection), and a million documents allocate a buffer or two, not a few
 * hundred megabytes. The file layer has written a page before the next one is made, so one
 * buffer is enough.
 */
import { copyBytes } from '../json/json-bytes';

const INITIAL_BYTES = 1 << 16;

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
    this.length = copyBytes(from, start, end, this.buffer, this.length);
  }

  /**
   * Room for `more` bytes, and the buffer and length to write them at, for a writer that puts a
   * whole line in place (one check a line, not one a byte); `wrote` then sets the new length.
   */
  reserve(more: number): Buffer {
    this.room(more);
    return this.buffer;
  }

  get size(): number {
    return this.length;
  }

  wrote(length: number): void {
    this.length = length;
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
