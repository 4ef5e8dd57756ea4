/**
 * Typesense serialises through nlohmann::json, whose objects keep their keys sorted. Clients
 * never rely on it, but diffs and snapshot tests read better when the sandbox does the same.
 */

import { keepMarks, wholeDoubles } from './whole-doubles';

/** A 64-bit score that must reach the wire with all its digits. */
export class RawNumber {
  constructor(readonly digits: string) {}
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
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      out += (i > 0 ? ',' : '') + sortedJson(value[i]);
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
        : sortedJson(v);
    out += (first ? '' : ',') + JSON.stringify(k) + ':' + text;
    first = false;
  }
  return out + '}';
}

/** A copy with object keys sorted at every depth, so that plain JSON.stringify emits them in order. */
export function canonical<T>(value: T): T {
  if (Array.isArray(value)) {
    return value.map(v => canonical(v)) as T;
  }
  if (value !== null && typeof value === 'object') {
    const src = value as Record<string, unknown>;
    const dst: Record<string, unknown> = {};
    for (const k of Object.keys(src).sort()) {
      setField(dst, k, canonical(src[k]));
    }
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
