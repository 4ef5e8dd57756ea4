/**
 * How a payload keeps the engine's answer (its `answerFormat`), and the one way to read it back:
 * every reader of a payload's `answer` (grid rows, Raw JSON, copies, Python's readers in their
 * own language) goes through swappedAnswerText, so no reader meets a compressed answer as text.
 */
import { gunzipSync } from 'fflate';

/** The answer's JSON text with every `"` and `'` swapped, as the notebook line holding it needs almost no escapes. */
export const ANSWER_FORMAT = 'json, quotes swapped';

/**
 * The same swapped text gzip-compressed and base64-encoded (`base64 -d | gunzip` reads it back),
 * for answers over COMPRESSED_ANSWER_BYTES: a notebook of large answers is several times
 * smaller, and the Jupyter server reads, checks and sends it, and the browser parses it, that
 * much faster.
 */
export const COMPRESSED_ANSWER_FORMAT = 'json, quotes swapped, gzip, base64';

/** Answers up to this many bytes (UTF-8) stay plain text, readable in the .ipynb as they are. */
export const COMPRESSED_ANSWER_BYTES = 64 * 1024;

export const ANSWER_FORMATS = [
  ANSWER_FORMAT,
  COMPRESSED_ANSWER_FORMAT
] as const;
export type AnswerFormat = (typeof ANSWER_FORMATS)[number];

/** What a payload holding an answer has: notebooks saved before `answerFormat` existed have none (plain). */
export interface KeptAnswer {
  answer?: string | undefined;
  answerFormat?: AnswerFormat | undefined;
}

/**
 * The last few answers decompressed, by their compressed text: an output reads its answer to
 * build its grid, again for Raw JSON, and again when a grid let go of its rows is scrolled back
 * to. Few, so the page holds no more than the grids it builds.
 */
const recent: [compressed: string, text: string][] = [];
const RECENT = 4;

/** The answer's swapped JSON text whatever its format; undefined when the payload keeps none. */
export function swappedAnswerText(payload: KeptAnswer): string | undefined {
  const { answer } = payload;
  if (
    answer === undefined ||
    payload.answerFormat !== COMPRESSED_ANSWER_FORMAT
  ) {
    return answer;
  }
  const known = recent.find(([compressed]) => compressed === answer);
  if (known) {
    return known[1];
  }
  const ahead = prefetched.findIndex(([compressed]) => compressed === answer);
  const text =
    ahead >= 0
      ? (prefetched.splice(ahead, 1)[0]?.[1] ?? '')
      : new TextDecoder().decode(gunzipped(base64Bytes(answer)));
  recent.unshift([answer, text]);
  recent.length = Math.min(recent.length, RECENT);
  return text;
}

/** Answers decompressed ahead of their first read (offerAnswerText), until that read takes them. */
const prefetched: [compressed: string, text: string][] = [];
const PREFETCHED_CHARS = 8_000_000;

/**
 * The compressed answer of a payload whose text is not at hand yet: what a page may decompress
 * ahead of the first read (by the platform's own gzip) and offer with offerAnswerText.
 */
export function answerToInflate(payload: KeptAnswer): string | undefined {
  const { answer } = payload;
  return answer === undefined ||
    payload.answerFormat !== COMPRESSED_ANSWER_FORMAT ||
    recent.some(([compressed]) => compressed === answer) ||
    prefetched.some(([compressed]) => compressed === answer)
    ? undefined
    : answer;
}

/**
 * The swapped text of a compressed answer (answerToInflate), decompressed ahead of its first
 * read: that read takes it instead of running the JavaScript inflater, which the first time in
 * a page runs unoptimized, tens of milliseconds. The oldest offered go first past
 * PREFETCHED_CHARS, so answers never read hold no memory long.
 */
export function offerAnswerText(compressed: string, text: string): void {
  if (
    answerToInflate({
      answer: compressed,
      answerFormat: COMPRESSED_ANSWER_FORMAT
    }) === undefined
  ) {
    return;
  }
  prefetched.push([compressed, text]);
  let chars = prefetched.reduce((sum, [, held]) => sum + held.length, 0);
  while (prefetched.length > 1 && chars > PREFETCHED_CHARS) {
    chars -= prefetched.shift()?.[1].length ?? 0;
  }
}

/** A compressed answer's gzip bytes (its base64 read); throws a SyntaxError saying the answer is damaged. */
export function compressedAnswerBytes(compressed: string): Uint8Array {
  return base64Bytes(compressed);
}

const DAMAGED = `This answer is marked '${COMPRESSED_ANSWER_FORMAT}' but does not read as that: the notebook's output was changed by hand or cut. Run the cell again to get it back.`;

function gunzipped(bytes: Uint8Array): Uint8Array {
  try {
    return gunzipSync(bytes);
  } catch {
    throw new SyntaxError(DAMAGED);
  }
}

/** The platform's own base64 decoder where it has one (browsers since 2025). */
const fromBase64 = (Uint8Array as { fromBase64?: (text: string) => Uint8Array })
  .fromBase64;

function base64Bytes(text: string): Uint8Array {
  if (fromBase64) {
    // A loop over a hundred thousand characters runs unoptimized the first time a notebook
    // decodes an answer, as it opens: several milliseconds, where this takes a fraction of one.
    try {
      return fromBase64(text);
    } catch {
      throw new SyntaxError(DAMAGED);
    }
  }
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new SyntaxError(DAMAGED);
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}
