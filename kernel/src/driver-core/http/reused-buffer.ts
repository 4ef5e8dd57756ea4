/**
 * A buffer used again page after page (exports): it grows to the largest page and stays. A
 * million documents then allocate a few buffers, not a few hundred megabytes that the garbage
 * collector would let pile up before collecting them (it waits for tens of megabytes of
 * outside-the-heap memory), so the kernel's memory stays flat whatever the export's size.
 */
export class ReusedBuffer {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly allocate: Allocate = Buffer.allocUnsafe) {}

  /** `size` bytes to write into; what a previous take or fill returned is overwritten. */
  take(size: number): Buffer {
    if (this.buffer.length < size) {
      this.buffer = this.allocate(Math.max(size, this.buffer.length * 2));
    }
    return this.buffer.subarray(0, size);
  }

  /**
   * The chunks (a response body) copied one after the other; overwrites what was there.
   * `expected`: the body's length when the answer said (content-length), room made for it at
   * once rather than by doubling as chunks come.
   */
  async fill(
    chunks: AsyncIterable<Buffer>,
    expected?: number
  ): Promise<Buffer> {
    if (
      expected !== undefined &&
      Number.isSafeInteger(expected) &&
      expected > this.buffer.length
    ) {
      this.buffer = this.allocate(expected);
    }
    let length = 0;
    for await (const chunk of chunks) {
      if (length + chunk.length > this.buffer.length) {
        const grown = this.allocate(
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

/** Where a buffer's bytes are allocated. */
export type Allocate = (size: number) => Buffer;

/**
 * Bytes another thread reads or writes in place: posted to a worker thread, a view of shared
 * memory is neither copied nor moved, so a buffer used again page after page stays one buffer.
 */
export const sharedBytes: Allocate = size =>
  Buffer.from(new SharedArrayBuffer(size));
