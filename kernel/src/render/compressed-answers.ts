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
 * gzip's level, the fastest. For an answer of 1,000 hits (420 KB), 1 took 1.4 ms and gave 104 KB
 * of base64, 6 took 3.6 ms for 80 KB; at 10,000 hits 16 ms against 47. Level 6's quarter fewer
 * bytes save the server and the browser about 0.3 ms an answer on each open, not worth a cell of
 * 1,000 hits taking a quarter longer in the kernel (14 ms), or one of 10,000 hits a third.
 */
const LEVEL = 1;

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
