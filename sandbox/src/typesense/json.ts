/**
 * Typesense serialises through nlohmann::json, whose objects keep their keys sorted. Clients
 * never rely on it, but diffs and snapshot tests read better when the sandbox does the same.
 */

import { keepMarks, wholeDoubles } from './whole-doubles';

/** A 64-bit score that must reach the wire with all its digits. */
export class RawNumber {
  constructor(readonly digits: string) {}
}

/**
 * The digits of whole numbers past 2^53 a document (or array) holds, by key or index: the
 * engine keeps an int64 exactly, a JavaScript number would round it. Enumerable, so a spread
 * copy keeps it; JSON.stringify and Object.keys skip symbols. Printed only while the field
 * still holds that number, so a later write of another value is not undone.
 */
export const EXACT = Symbol('exact digits');
type Exact = Record<string, string>;

function exactOf(value: object): Exact | undefined {
  return (value as { [EXACT]?: Exact })[EXACT];
}

function setExact(value: object, exact: Exact | undefined): void {
  if (exact !== undefined) {
    Object.defineProperty(value, EXACT, {
      value: exact,
      writable: true,
      enumerable: true,
      configurable: true
    });
  }
}

/** `into` keeps the digits `from` holds, over its own. */
export function mergeExact(into: object, from: object): void {
  const exact = exactOf(from);
  if (exact !== undefined) {
    setExact(into, { ...exactOf(into), ...exact });
  }
}

const UNSAFE_INTEGER = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const MARK = '\u0000int64:';

/** JSON.parse, whole numbers past 2^53 kept as their digits beside the (rounded) number. */
export function parseExactJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!/\d{16}/.test(text)) {
    return value;
  }
  const marked = text.replace(UNSAFE_INTEGER, token =>
    token.startsWith('"') ||
    /[.eE]/.test(token) ||
    Number.isSafeInteger(Number(token))
      ? token
      : JSON.stringify(MARK + token)
  );
  return unmark(JSON.parse(marked));
}

function unmark(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const record = value as Record<string, unknown>;
  const exact: Exact = {};
  let found = false;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (typeof v === 'string' && v.startsWith(MARK)) {
      exact[key] = v.slice(MARK.length);
      found = true;
      setField(record, key, Number(exact[key]));
    } else {
      unmark(v);
    }
  }
  if (found) {
    setExact(record, exact);
  }
  return value;
}

export function sortedJson(value: unknown): string {
  if (value === null || value === undefined) {
    return 'null';
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return 'null';
  }
  if (value instanceof RawNumber) {
    return value.digits;
  }
  // One growing string (V8 joins the pieces lazily) costs a third of an array of parts: pages are written per request.
  const exact = exactOf(value);
  const item = (v: unknown, key: string): string => {
    const digits = exact?.[key];
    return digits !== undefined && typeof v === 'number' && Number(digits) === v
      ? digits
      : sortedJson(v);
  };
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      out += (i > 0 ? ',' : '') + item(value[i], String(i));
    }
    return out + ']';
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  // Stored documents keep their keys sorted already; sort only when they are not.
  for (let i = 1; i < keys.length; i++) {
    if ((keys[i - 1] as string) > (keys[i] as string)) {
      keys.sort();
      break;
    }
  }
  const whole = wholeDoubles(obj);
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = obj[k];
    if (v === undefined) {
      continue;
    }
    const text =
      typeof v === 'number' && Number.isInteger(v) && whole.has(k)
        ? `${v}.0`
        : item(v, k);
    out += (first ? '' : ',') + JSON.stringify(k) + ':' + text;
    first = false;
  }
  return out + '}';
}

/** A copy with object keys sorted at every depth, so that plain JSON.stringify emits them in order. */
export function canonical<T>(value: T): T {
  if (Array.isArray(value)) {
    const copy = value.map(v => canonical(v));
    setExact(copy, exactOf(value));
    return copy as T;
  }
  if (value !== null && typeof value === 'object') {
    const src = value as Record<string, unknown>;
    const dst: Record<string, unknown> = {};
    for (const k of Object.keys(src).sort()) {
      setField(dst, k, canonical(src[k]));
    }
    setExact(dst, exactOf(src));
    return keepMarks(src, dst) as T;
  }
  return value;
}

export type JsonObject = Record<string, unknown>;

/**
 * Sets an own field, as JSON.parse does: documents may hold a field named `__proto__`, which an
 * assignment would take for the object's prototype.
 */
export function setField(
  object: Record<string, unknown>,
  key: string,
  value: unknown
): void {
  Object.defineProperty(object, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true
  });
}

export function isPlainObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
