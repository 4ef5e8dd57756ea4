/**
 * How deep arrays and objects nest in an answer, checked once on its bytes before anything
 * walks it: JSON.parse copes with any depth, but JSON.stringify and every recursive walk of
 * the answer (rows, fallbacks, the grid) overflow the stack somewhere past 4,000 levels.
 * 1,000 leaves room for the kernel's own frames above them, and no search answer comes near
 * it (a document's fields nest a few levels, its envelope four more).
 */

import {
  QUOTE,
  BACKSLASH,
  OPEN_OBJECT,
  CLOSE_OBJECT,
  OPEN_ARRAY,
  CLOSE_ARRAY
} from '../../../../contracts/json-char-codes';
export const MAX_ANSWER_DEPTH = 1_000;

/** The deepest nesting in JSON (or JSONL) text, counting no further than `limit + 1`. */
export function nestingDepth(bytes: Buffer, limit = MAX_ANSWER_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  const length = bytes.length;
  for (let i = 0; i < length; i++) {
    const b = bytes[i] as number;
    if (b === QUOTE) {
      // Through the string: brackets inside it do not count.
      for (i++; i < length; i++) {
        const c = bytes[i];
        if (c === QUOTE) {
          break;
        }
        if (c === BACKSLASH) {
          i++;
        }
      }
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) {
          return deepest;
        }
      }
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      depth--;
    }
  }
  return deepest;
}
