/**
 * The engine's answer a payload keeps, as the Raw JSON view shows it: indented as
 * JSON.stringify(value, null, 2) lays a value out, but from the text itself, so every literal
 * reads as the engine wrote it: a long past 2^53, `4.0`, `-0.0`, `1e400`, a string's escapes.
 */
import { swapQuotes } from './answer-rows';
import { type KeptAnswer, swappedAnswerText } from './answer-format';

/** The answer's JSON text indented by two spaces, literals as sent; undefined when the payload keeps none. */
export function answerText(payload: KeptAnswer): string | undefined {
  const answer = swappedAnswerText(payload);
  if (answer === undefined) {
    return undefined;
  }
  const text = swapQuotes(answer);
  // Throws, as the view's reading always did, for text that is not JSON (a notebook edited by hand).
  JSON.parse(text);
  return indentedJson(text);
}

/** A string, one punctuation mark, or a literal (number, true, false, null) of JSON text. */
const TOKENS = /"(?:[^"\\]|\\.)*"|[{}[\],:]|[^\s{}[\],:"]+/g;

/**
 * JSON text laid out as JSON.stringify(value, null, 2) lays out its value (an empty object or
 * array stays `{}` / `[]`), each string and literal copied as written. The text must be JSON.
 */
export function indentedJson(text: string): string {
  const parts: string[] = [];
  const indents = ['\n'];
  const newline = (depth: number) =>
    (indents[depth] ??= `\n${'  '.repeat(depth)}`);
  let depth = 0;
  /** The last token opened an object or array: its first member (or its close) is next. */
  let opened = false;
  for (const [token] of text.matchAll(TOKENS)) {
    const first = token.charCodeAt(0);
    if (first === 0x7d || first === 0x5d) {
      depth--;
      parts.push(opened ? token : newline(depth) + token);
      opened = false;
      continue;
    }
    if (opened) {
      parts.push(newline(depth));
      opened = false;
    }
    if (first === 0x7b || first === 0x5b) {
      parts.push(token);
      depth++;
      opened = true;
    } else if (first === 0x2c) {
      parts.push(`,${newline(depth)}`);
    } else if (first === 0x3a) {
      parts.push(': ');
    } else {
      parts.push(token);
    }
  }
  return parts.join('');
}
