/**
 * Outputs stay readable by Python's notebook tools. nbformat turns each output into nested
 * NotebookNodes recursively, about two Python frames a level, so under Python's default
 * recursion limit (1,000) an output nested some 490 levels deep makes nbclient, nbconvert and
 * nbformat.read fail with RecursionError. The kernel reads answers up to 1,000 levels
 * (MAX_ANSWER_DEPTH), so the values an output carries are cut at MAX_OUTPUT_DEPTH levels, well
 * under that, and what was cut says so in its place; the text forms of the output show the
 * answer as text, which nests nothing.
 */
import { setField } from '../../../contracts/own-fields';
import type { MimeBundle } from './mime-bundle';

/** The deepest a value in a notebook output nests, counted from the bundle's MIME type. */
export const MAX_OUTPUT_DEPTH = 200;

export const CUT_DEEPER = `searchbook: nested deeper than ${MAX_OUTPUT_DEPTH} levels, left out here so Python's notebook tools can read the notebook`;

/** Arrays and objects written as literals: what JSON.parse makes and payloads are built of. */
function isContainer(value: unknown): value is object {
  if (Array.isArray(value)) {
    return true;
  }
  if (value === null || typeof value !== 'object') {
    return false;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Whether some array or object in `value` lies deeper than `limit` levels. */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (!isContainer(current)) {
      continue;
    }
    if (depth >= limit) {
      return true;
    }
    for (const child of Object.values(current)) {
      stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** `value` with each array or object below `limit` levels replaced by CUT_DEEPER. */
function cut(value: unknown, limit: number): unknown {
  if (!isContainer(value)) {
    return value;
  }
  if (limit === 0) {
    return CUT_DEEPER;
  }
  if (Array.isArray(value)) {
    return value.map(item => cut(item, limit - 1));
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    setField(out, key, cut(item, limit - 1));
  }
  return out;
}

/** The bundle as a notebook can keep it: unchanged unless some value nests deeper than MAX_OUTPUT_DEPTH. */
export function withinOutputDepth(bundle: MimeBundle): MimeBundle {
  if (!Object.values(bundle).some(v => deeperThan(v, MAX_OUTPUT_DEPTH))) {
    return bundle;
  }
  const out: MimeBundle = {};
  for (const [mime, value] of Object.entries(bundle)) {
    out[mime] = cut(value, MAX_OUTPUT_DEPTH);
  }
  return out;
}
