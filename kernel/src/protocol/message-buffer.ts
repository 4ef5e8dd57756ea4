/**
 * Bytes that travel as a buffer of the message (a frame after its four JSON parts), where the
 * JSON part holds only the buffer's index. An engine's answer read by searchbook's Python
 * magics goes this way: Python parses the engine's own bytes at once, where a JSON string
 * inside the message would be copied, escaped and signed on the way out, and decoded,
 * unswapped and copied again on the way in. Buffers are not signed (the Jupyter protocol signs
 * the four JSON parts only).
 */
export class MessageBuffer {
  constructor(readonly bytes: Buffer) {}

  toJSON(): number {
    if (!gathering) {
      throw new Error(
        'A message buffer is written only into a message (encode), which carries its bytes.'
      );
    }
    return gathering.push(this.bytes) - 1;
  }
}

let gathering: Buffer[] | undefined;

/**
 * Runs `write` (which serialises a message's parts, synchronously) with every MessageBuffer it
 * meets written as its index; returns what `write` made and the buffers, in index order.
 */
export function withBuffers<T>(write: () => T): {
  value: T;
  buffers: Buffer[];
} {
  const buffers: Buffer[] = [];
  const outer = gathering;
  gathering = buffers;
  try {
    return { value: write(), buffers };
  } finally {
    gathering = outer;
  }
}
