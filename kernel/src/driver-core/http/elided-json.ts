/**
 * A bound on how many values of an answer are read, applied to its bytes before they are
 * parsed: JSON.parse turns every value into an object of the heap, ~65 bytes for a `{}` of 3
 * bytes, so an answer of tens of millions of tiny elements within the connection's byte cap
 * would take gigabytes (and end the kernel) before any row cap applies. Past the budget, the
 * remaining elements of the outermost array are left out of the text parsed (past twice the
 * budget, those of any container still open), and each container cut short is listed with how many it held, so what is shown
 * says what was not read.
 */

import {
  QUOTE,
  BACKSLASH,
  OPEN_OBJECT,
  CLOSE_OBJECT,
  OPEN_ARRAY,
  CLOSE_ARRAY,
  COMMA,
  COLON
} from '../../../../contracts/json-char-codes';

/** Values (array elements and object members, nested ones included) read of one answer. */
export const VALUE_BUDGET = 3_000_000;

/** Keys longer than this are cut where a path names them (a message, not a lookup). */
const KEY_CHARS = 200;

/** A container the budget cut short: where it is, and how many elements or members it had. */
export interface Elision {
  /** Keys and indices from the answer's root, as DocumentLayout's `at` names them. */
  path: (string | number)[];
  kept: number;
  total: number;
}

interface Frame {
  array: boolean;
  /** Inside a part being left out: nothing of it is counted or cut. */
  inert: boolean;
  /** The container holding this one, and this one's place in it: its path, built only for a message. */
  parent: Frame | undefined;
  step: string | number;
  /** Elements or members begun so far. */
  count: number;
  /** Of them, those kept. */
  kept: number;
  /** From where bytes are left out (the comma before the first member left out), once cutting. */
  cutFrom: number | undefined;
  /** The position of the last comma at this level. */
  comma: number;
  /** Where the object's last key starts and ends (its quotes excluded). */
  keyStart: number;
  keyEnd: number;
  /** Objects: the next string is a key. */
  expectKey: boolean;
}

/**
 * The answer with every value past `budget` left out, or undefined when it holds no more than
 * that (then it is parsed as it came). Answers shorter than twice the budget in bytes cannot
 * hold more (every value takes a byte and its comma), so they are not scanned at all.
 */
export function elideJson(
  bytes: Buffer,
  budget = VALUE_BUDGET
): { bytes: Buffer; elisions: Elision[] } | undefined {
  if (bytes.length < budget * 2) {
    return undefined;
  }
  const stack: Frame[] = [];
  const cuts: [from: number, to: number][] = [];
  const elisions: Elision[] = [];
  let left = budget;
  const length = bytes.length;
  /** A value or key begins at `at` in the innermost container. */
  const begin = (at: number): void => {
    const frame = stack[stack.length - 1];
    if (!frame || frame.inert) {
      return;
    }
    frame.count += 1;
    if (frame.cutFrom !== undefined) {
      return;
    }
    // Past the budget, whole elements of the outermost array are left out (whole documents,
    // not documents missing fields); a value begun is read on to twice the budget, past which
    // anything is cut.
    const keep =
      left > 0 ||
      (left > -budget && (!frame.array || frame !== outermostArray()));
    if (keep) {
      left -= 1;
      frame.kept += 1;
      return;
    }
    frame.cutFrom = frame.kept === 0 ? at : frame.comma;
  };
  const outermostArray = (): Frame | undefined => stack.find(f => f.array);
  const cutting = (): boolean => {
    const frame = stack[stack.length - 1];
    return frame !== undefined && (frame.inert || frame.cutFrom !== undefined);
  };
  for (let i = 0; i < length; i++) {
    const b = bytes[i] as number;
    if (b === QUOTE) {
      const start = i;
      for (i++; i < length; i++) {
        const c = bytes[i];
        if (c === QUOTE) {
          break;
        }
        if (c === BACKSLASH) {
          i++;
        }
      }
      const frame = stack[stack.length - 1];
      if (frame && !frame.array && frame.expectKey) {
        frame.expectKey = false;
        begin(start);
        if (!cutting()) {
          frame.keyStart = start + 1;
          frame.keyEnd = i;
        }
      } else if (frame?.array) {
        begin(start);
      }
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      const parent = stack[stack.length - 1];
      if (parent?.array) {
        begin(i);
      }
      const inert =
        parent !== undefined && (parent.inert || parent.cutFrom !== undefined);
      stack.push({
        array: b === OPEN_ARRAY,
        inert,
        parent,
        step:
          !parent || inert
            ? 0
            : parent.array
              ? parent.count - 1
              : bytes.toString(
                  'utf8',
                  parent.keyStart,
                  Math.min(parent.keyEnd, parent.keyStart + KEY_CHARS)
                ),
        count: 0,
        kept: 0,
        cutFrom: undefined,
        comma: i + 1,
        keyStart: 0,
        keyEnd: 0,
        expectKey: b === OPEN_OBJECT
      });
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      const frame = stack.pop();
      if (frame && !frame.inert && frame.cutFrom !== undefined) {
        cuts.push([frame.cutFrom, i]);
        elisions.push({
          path: pathOf(frame),
          kept: frame.kept,
          total: frame.count
        });
      }
    } else if (b === COMMA) {
      const frame = stack[stack.length - 1];
      if (frame) {
        frame.comma = i;
        frame.expectKey = !frame.array;
      }
    } else if (b === COLON) {
      // The member's value follows: its start was counted with its key.
    } else if (b > 0x20) {
      // A number, true, false or null: one value, read to its end.
      const frame = stack[stack.length - 1];
      if (frame?.array) {
        begin(i);
      }
      while (i + 1 < length) {
        const c = bytes[i + 1] as number;
        if (
          c === COMMA ||
          c === CLOSE_OBJECT ||
          c === CLOSE_ARRAY ||
          c <= 0x20
        ) {
          break;
        }
        i++;
      }
    }
  }
  if (cuts.length === 0) {
    return undefined;
  }
  // Inner containers close first, and every cut lies in a container still being read, so no two overlap.
  cuts.sort((a, b) => a[0] - b[0]);
  const parts: Buffer[] = [];
  let from = 0;
  for (const [start, end] of cuts) {
    parts.push(bytes.subarray(from, start));
    from = end;
  }
  parts.push(bytes.subarray(from));
  // Outermost first, as a message lists them.
  elisions.sort((a, b) => a.path.length - b.path.length);
  return { bytes: Buffer.concat(parts), elisions };
}

function pathOf(frame: Frame): (string | number)[] {
  const path: (string | number)[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) {
    path.unshift(f.step);
  }
  return path;
}

/** `hits.hits`, `[3].items`, `the answer itself`: where a container sits, for messages. */
export function pathText(path: readonly (string | number)[]): string {
  if (path.length === 0) {
    return 'the answer itself';
  }
  return path
    .map((step, i) =>
      typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`
    )
    .join('');
}

/** What the notice under such an answer says. */
export function elisionNotice(elisions: readonly Elision[]): string {
  const listed = elisions
    .slice(0, 3)
    .map(
      e =>
        `${pathText(e.path)} holds ${e.total} ${e.total === 1 ? 'value' : 'values'}, of which the first ${e.kept} ${e.kept === 1 ? 'was' : 'were'} read`
    );
  const more = elisions.length > 3 ? `; and ${elisions.length - 3} more` : '';
  return `The answer holds more than the ${VALUE_BUDGET} values searchbook reads of one answer, so the rest was left out before it was read: ${listed.join('; ')}${more}. Ask the engine for fewer documents, or fewer fields of each.`;
}
