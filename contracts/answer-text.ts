/**
 * The engine's answer a payload keeps, as the Raw JSON view shows it: indented, and with every
 * whole number past 2^53 (an ES|QL `long` or `unsigned_long`, a `long` in a document) printed
 * with the digits the engine sent, where JSON.parse would round it to the nearest double.
 */
import { swapQuotes } from './answer-rows';

/** Strings and numbers of JSON text, each whole, so a number is only ever read from its start. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** A mark no answer holds: drawn per page, it stands for a number while the text is indented. */
const MARK = `\u0001${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}:`;
const PRINTED_MARK = new RegExp(
  `"${JSON.stringify(MARK)
    .slice(1, -1)
    .replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}(-?\\d+)"`,
  'g'
);

/** The answer's JSON text indented by two spaces, whole numbers exact; undefined when the payload keeps none. */
export function answerText(payload: {
  answer?: string | undefined;
}): string | undefined {
  if (payload.answer === undefined) {
    return undefined;
  }
  const text = swapQuotes(payload.answer);
  if (!/\d{16}/.test(text)) {
    return JSON.stringify(JSON.parse(text), null, 2);
  }
  const marked = text.replace(TOKEN, token =>
    token.startsWith('"') ||
    /[.eE]/.test(token) ||
    Number.isSafeInteger(Number(token))
      ? token
      : JSON.stringify(MARK + token)
  );
  return JSON.stringify(JSON.parse(marked), null, 2).replace(
    PRINTED_MARK,
    '$1'
  );
}
