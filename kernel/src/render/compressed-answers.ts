/**
 * Answers over COMPRESSED_ANSWER_BYTES kept gzip-compressed and base64-encoded in their payload
 * (contracts/answer-format.ts), done last, on the bundle as it is sent: secrets are masked in the
 * answer's text before, where they can still be found.
 */
import { gzipSync } from 'node:zlib';
import {
  ANSWER_FORMAT,
  COMPRESSED_ANSWER_BYTES,
  COMPRESSED_ANSWER_FORMAT
} from '../../../contracts/answer-format';
import {
  HITS_MIME,
  JSON_MIME,
  TABLE_MIME
} from '../../../contracts/mime-types';
import { EncodedString } from '../protocol/encoded-string';

/** The payloads that may keep an answer. */
const ANSWER_MIME_TYPES = [HITS_MIME, TABLE_MIME, JSON_MIME];

/**
 * gzip's level: 1 costs about 1.6 ms per 400 KB answer in the kernel and 6 about 3.7 ms, for a
 * text a quarter smaller (docs/benchmarks.md). Opening the notebook costs less at 6, the cell
 * little more.
 */
const LEVEL = 6;

const BACKSLASH = 0x5c;
const QUOTE = Buffer.from('"');

/** The bundle with each large answer compressed (a copy), or the bundle itself when it keeps none. */
export function withLargeAnswersCompressed<T extends Record<string, unknown>>(
  bundle: T
): T {
  let copy: Record<string, unknown> | undefined;
  for (const mimeType of ANSWER_MIME_TYPES) {
    const payload = bundle[mimeType];
    if (typeof payload !== 'object' || payload === null) {
      continue;
    }
    const { answer, answerFormat } = payload as {
      answer?: unknown;
      answerFormat?: unknown;
    };
    const text =
      answerFormat === ANSWER_FORMAT ? answerBytes(answer) : undefined;
    if (text === undefined || text.length <= COMPRESSED_ANSWER_BYTES) {
      continue;
    }
    const base64 = gzipSync(text, { level: LEVEL }).toString('base64');
    copy ??= { ...bundle };
    copy[mimeType] = {
      ...payload,
      answer: new EncodedString(
        Buffer.concat([QUOTE, Buffer.from(base64, 'latin1'), QUOTE])
      ),
      answerFormat: COMPRESSED_ANSWER_FORMAT
    };
  }
  return (copy as T | undefined) ?? bundle;
}

/**
 * The answer's swapped text in UTF-8, read without decoding when its literal holds no escape;
 * undefined for an answer at most COMPRESSED_ANSWER_BYTES long, whose literal is no longer.
 */
function answerBytes(answer: unknown): Buffer | undefined {
  if (typeof answer === 'string') {
    return Buffer.from(answer, 'utf8');
  }
  if (!(answer instanceof EncodedString)) {
    return undefined;
  }
  const { json } = answer;
  // A literal is at least as long as the text's bytes: each escape is longer than what it stands for.
  if (json.length - 2 <= COMPRESSED_ANSWER_BYTES) {
    return undefined;
  }
  return json.includes(BACKSLASH)
    ? Buffer.from(answer.value, 'utf8')
    : json.subarray(1, json.length - 1);
}
