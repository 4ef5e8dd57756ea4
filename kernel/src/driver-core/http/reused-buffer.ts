/**
 * A buffer used again page after page (exports): it grows to the largest page and stays. A
 * million documents then allocate a few buffers, not a few hundred megabytes that the garbage
 * collector would let pile up before collecting them (it waits for tens of megabytes of
 * outside-the-heap memory), so the kernel's memory stays flat whatever the export's size.
 */
export class ReusedBuffer {
  private buffer = Buffer.alloc(0);

  /** `size` bytes to write into; what a previous take or fill returned is overwritten. */
  take(size: number): Buffer {
    if (this.buffer.length < size) {
      this.buffer = Buffer.allocUnsafe(Math.max(size, this.buffer.length * 2));
    }
    return this.buffer.subarray(0, size);
  }

  /** The chunks (a response body) copied one after the other; overwrites what was there. */
  async fill(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
    let length = 0;
    for await (const chunk of chunks) {
      if (length + chunk.length > this.buffer.length) {
        const grown = Buffer.allocUnsafe(
          Math.max(length + chunk.length, this.buffer.length * 2)
        );
        this.buffer.copy(grown, 0, 0, length);
        this.buffer = grown;
      }
      chunk.copy(this.buffer, length);
      length += chunk.length;
    }
    return this.buffer.subarray(0, length);
  }
}
