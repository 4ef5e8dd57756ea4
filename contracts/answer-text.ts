/**
 * The engine's answer a payload keeps, as the Raw JSON view shows it: indented, and with every
 * number a double cannot hold (an ES|QL `long` or `unsigned_long`, a `long` in a document)
 * printed with the digits the engine sent, where JSON.parse would round it to the nearest double.
 */
import { swapQuotes } from './answer-rows';
import { exactJson, parseExactJson } from './exact-json';
import { type KeptAnswer, swappedAnswerText } from './answer-format';

/** The answer's JSON text indented by two spaces, numbers exact; undefined when the payload keeps none. */
export function answerText(payload: KeptAnswer): string | undefined {
  const answer = swappedAnswerText(payload);
  return answer === undefined
    ? undefined
    : exactJson(parseExactJson(swapQuotes(answer)), 2);
}
