/**
 * Answers over 64 KiB leave the kernel gzip-compressed in base64 (render/compressed-answers.ts),
 * and every reader gets the same swapped text back through one function
 * (contracts/answer-format.ts): any answer, wide characters, quotes and integers past 2^53
 * included, reads back exactly; smaller answers are left as they are.
 */
import fc from 'fast-check';
import { gunzipSync } from 'node:zlib';
import {
  ANSWER_FORMAT,
  type AnswerFormat,
  COMPRESSED_ANSWER_BYTES,
  COMPRESSED_ANSWER_FORMAT,
  swappedAnswerText
} from '../../contracts/answer-format';
import { swapQuotes } from '../../contracts/answer-rows';
import { answerText } from '../../contracts/answer-text';
import { HITS_MIME, JSON_MIME } from '../../contracts/mime-types';
import { serialise } from '../../kernel/src/protocol/encoded-string';
import { withLargeAnswersCompressed } from '../../kernel/src/render/compressed-answers';
import { swappedAnswer } from '../../kernel/src/render/swapped-answer';

interface Sent {
  answer: string;
  answerFormat: AnswerFormat;
}

/** The payload as a frontend receives it, the answer kept as the kernel keeps it. */
function received(text: string, mimeType = HITS_MIME): Sent {
  const bundle = withLargeAnswersCompressed({
    [mimeType]: {
      answer: swappedAnswer(Buffer.from(text, 'utf8')),
      answerFormat: ANSWER_FORMAT
    },
    'text/plain': 'fallback'
  });
  return (
    JSON.parse(serialise(bundle).toString('utf8')) as Record<string, Sent>
  )[mimeType] as Sent;
}

/** A JSON text of at least `bytes` bytes, each of its strings `value`. */
function answerOf(value: string, bytes: number): string {
  const one = JSON.stringify({ v: value, n: 1 });
  const count = Math.ceil(bytes / one.length);
  return JSON.stringify({
    hits: Array.from({ length: count }, (_, n) => ({ v: value, n }))
  });
}

test('any answer over 64 KiB is sent compressed and reads back as the swapped text of what the engine sent', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.integer({ min: 1, max: 3 }),
      (value, times) => {
        const text = answerOf(value, COMPRESSED_ANSWER_BYTES * times);
        const payload = received(text);
        expect(payload.answerFormat).toBe(COMPRESSED_ANSWER_FORMAT);
        expect(swappedAnswerText(payload)).toBe(swapQuotes(text));
        // base64 -d | gunzip, as a reader without searchbook would.
        expect(
          gunzipSync(Buffer.from(payload.answer, 'base64')).toString('utf8')
        ).toBe(swapQuotes(text));
      }
    ),
    { numRuns: 30 }
  );
});

test('integers past 2^53 in a compressed answer keep every digit in Raw JSON', () => {
  const text = answerOf('it\'s "quoted", ü and 😀', COMPRESSED_ANSWER_BYTES)
    .replace('"n":0', '"n":12345678901234567890')
    .replace('"n":1}', '"n":-9223372036854775809}');
  const payload = received(text, JSON_MIME);
  expect(payload.answerFormat).toBe(COMPRESSED_ANSWER_FORMAT);
  const raw = answerText(payload) ?? '';
  expect(raw).toContain('"n": 12345678901234567890');
  expect(raw).toContain('"n": -9223372036854775809');
});

test('an answer of 64 KiB or less is left plain, and a bundle holding no large answer is left as it is', () => {
  const text = JSON.stringify({ v: 'x'.repeat(COMPRESSED_ANSWER_BYTES - 8) });
  expect(Buffer.byteLength(text)).toBe(COMPRESSED_ANSWER_BYTES);
  const payload = received(text);
  expect(payload).toEqual({
    answer: swapQuotes(text),
    answerFormat: ANSWER_FORMAT
  });
  expect(swappedAnswerText(payload)).toBe(swapQuotes(text));
  const bundle = { [HITS_MIME]: { rows: [] }, 'text/plain': 'x' };
  expect(withLargeAnswersCompressed(bundle)).toBe(bundle);
});

test('a compressed answer changed by hand or cut says so instead of showing something else', () => {
  const payload = received(answerOf('x', COMPRESSED_ANSWER_BYTES * 2));
  for (const answer of [payload.answer.slice(0, -20), 'not base64 at all!']) {
    expect(() => swappedAnswerText({ ...payload, answer })).toThrow(
      /marked 'json, quotes swapped, gzip, base64' but does not read as that.*Run the cell again/
    );
  }
});
