import {
  answerToInflate,
  compressedAnswerBytes,
  type KeptAnswer,
  offerAnswerText
} from '@searchbook/contracts/answer-format';

/**
 * Decompresses a payload's answer ahead of the grid that will read it, by the browser's own
 * gzip (DecompressionStream): the grid then reads its rows at once, where the first answer a
 * page reads otherwise runs the JavaScript inflater unoptimized, tens of milliseconds of the
 * first grid of a notebook opening. Does nothing for a plain answer, one at hand, or where the
 * browser cannot; an answer that does not decompress is left to the grid's read, which says why.
 */
export function prefetchAnswer(payload: KeptAnswer): Promise<void> {
  const compressed = answerToInflate(payload);
  if (compressed === undefined || typeof DecompressionStream === 'undefined') {
    return Promise.resolve();
  }
  let inflated = inflating.get(compressed);
  if (!inflated) {
    inflated = inflate(compressed).finally(() => inflating.delete(compressed));
    inflating.set(compressed, inflated);
  }
  return inflated;
}

async function inflate(compressed: string): Promise<void> {
  try {
    const bytes = compressedAnswerBytes(compressed);
    // A stream of the bytes themselves, not a Blob's: a Blob's is read through the browser.
    const gzip = new ReadableStream<BufferSource>({
      start(controller) {
        controller.enqueue(bytes as Uint8Array<ArrayBuffer>);
        controller.close();
      }
    });
    const text = await new Response(
      gzip.pipeThrough(new DecompressionStream('gzip'))
    ).text();
    offerAnswerText(compressed, text);
  } catch {
    // The grid's own read decompresses it again and says what is wrong.
  }
}

/** Answers being decompressed: outputs of the same answer wait for the one decompression. */
const inflating = new Map<string, Promise<void>>();
