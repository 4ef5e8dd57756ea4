/**
 * A grid about to be built has its answer decompressed ahead by the platform's own gzip: what
 * the grid then reads must be exactly what its own decompression gives, and a damaged answer
 * must still say so when read.
 */
import { gzipSync } from 'node:zlib';
import {
  answerToInflate,
  COMPRESSED_ANSWER_FORMAT,
  swappedAnswerText
} from '../../contracts/answer-format';
import { swapQuotes } from '../../contracts/answer-rows';
import { prefetchAnswer } from '../../extension/src/mime/answer-prefetch';

/** A payload keeping `text` as the kernel keeps a large answer: quotes swapped, gzip, base64. */
function compressed(text: string) {
  return {
    answer: gzipSync(Buffer.from(swapQuotes(text), 'utf8')).toString('base64'),
    answerFormat: COMPRESSED_ANSWER_FORMAT
  } as const;
}

test('an answer decompressed ahead reads back as the same text, and a damaged one still says so', async () => {
  for (const value of ['x', 'é "quoted" \'single\' 😀', '\\u0000']) {
    const text = JSON.stringify({
      hits: Array.from({ length: 3000 }, (_, n) => ({ v: value, n }))
    });
    const payload = compressed(text);
    expect(answerToInflate(payload)).toBe(payload.answer);
    await prefetchAnswer(payload);
    // Offered: the read takes that text instead of inflating the answer itself.
    expect(answerToInflate(payload)).toBeUndefined();
    expect(swappedAnswerText(payload)).toBe(swapQuotes(text));
  }
  const damaged = compressed(JSON.stringify({ hits: ['y'.repeat(100_000)] }));
  for (const answer of [damaged.answer.slice(0, -20), 'not base64 at all!']) {
    await prefetchAnswer({ ...damaged, answer });
    expect(() => swappedAnswerText({ ...damaged, answer })).toThrow(
      /marked 'json, quotes swapped, gzip, base64' but does not read as that/
    );
  }
});
