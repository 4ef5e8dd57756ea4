/**
 * Bytes of a large JSON answer, written from many small texts: they are joined in a short
 * string and encoded into one growing buffer every few kilobytes, so an answer of megabytes
 * is neither one huge string of many parts to flatten nor encoded again when it is sent.
 */
const FLUSH_AT = 16_384;

export class JsonSink {
  private buffer = Buffer.allocUnsafe(65_536);
  private length = 0;
  private pending = '';

  add(text: string): void {
    this.pending += text;
    if (this.pending.length >= FLUSH_AT) {
      this.flush();
    }
  }

  bytes(): Buffer {
    this.flush();
    return this.buffer.subarray(0, this.length);
  }

  private flush(): void {
    const text = this.pending;
    this.pending = '';
    // UTF-8 takes at most three bytes for each UTF-16 unit.
    const room = this.length + text.length * 3;
    if (room > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(room, this.buffer.length * 2));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(text, this.length);
  }
}
