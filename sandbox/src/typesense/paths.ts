/**
 * Reading dotted field names out of documents. A name is first tried as a literal key
 * (Typesense allows dots in flat field names), then walked through objects; arrays of
 * objects fan out, which is how `variants.sku` yields one value per variant.
 */
import { canonical, isPlainObject, type JsonObject, setField } from './json';
import { keepMarks } from './whole-doubles';

export function valueAt(doc: JsonObject, path: string): unknown {
  if (Object.prototype.hasOwnProperty.call(doc, path)) {
    return doc[path];
  }
  if (!path.includes('.')) {
    return undefined;
  }
  let current: unknown = doc;
  let fannedOut = false;
  for (const part of path.split('.')) {
    if (Array.isArray(current)) {
      fannedOut = true;
      const next: unknown[] = [];
      for (const el of current) {
        if (!isPlainObject(el)) {
          continue;
        }
        const v = Object.hasOwn(el, part) ? el[part] : undefined;
        if (Array.isArray(v)) {
          next.push(...v);
        } else if (v !== undefined && v !== null) {
          next.push(v);
        }
      }
      current = next;
    } else if (isPlainObject(current)) {
      current = Object.hasOwn(current, part) ? current[part] : undefined;
    } else {
      return undefined;
    }
  }
  if (fannedOut && Array.isArray(current) && current.length === 0) {
    return undefined;
  }
  return current;
}

/** The values of a field as a flat list of primitives; missing and null give none. */
export function scalarsAt(doc: JsonObject, path: string): unknown[] {
  const v = valueAt(doc, path);
  if (v === undefined || v === null) {
    return [];
  }
  return Array.isArray(v) ? v.filter(x => x !== null && x !== undefined) : [v];
}

/** A document pruned to `include_fields` and stripped of `exclude_fields` (dotted paths allowed). */
export function pruneDocument(
  doc: JsonObject,
  include: string[] | null,
  exclude: string[] | null
): JsonObject {
  let out: JsonObject = doc;
  if (include && include.length > 0) {
    out = {};
    for (const path of include) {
      copyPath(doc, out, path.split('.'));
    }
  }
  if (exclude && exclude.length > 0) {
    // canonical, not structuredClone: a copy keeps the digits of int64s past 2^53 (json.ts).
    out = out === doc ? canonical(doc) : out;
    for (const path of exclude) {
      removePath(out, path.split('.'));
    }
  }
  return out === doc ? out : keepMarks(doc, out);
}

function copyPath(src: JsonObject, dst: JsonObject, parts: string[]): void {
  const [head, ...rest] = parts;
  if (head === undefined || !Object.hasOwn(src, head)) {
    return;
  }
  const v = src[head];
  if (rest.length === 0) {
    setField(dst, head, v);
  } else if (isPlainObject(v)) {
    const held = Object.hasOwn(dst, head) ? dst[head] : undefined;
    const child = isPlainObject(held) ? held : {};
    copyPath(v, child, rest);
    if (Object.keys(child).length > 0) {
      setField(dst, head, child);
    }
  } else if (Array.isArray(v)) {
    setField(
      dst,
      head,
      v.map(el => {
        if (!isPlainObject(el)) {
          return el;
        }
        const child: JsonObject = {};
        copyPath(el, child, rest);
        return child;
      })
    );
  }
}

function removePath(obj: JsonObject, parts: string[]): void {
  const [head, ...rest] = parts;
  if (head === undefined || !Object.hasOwn(obj, head)) {
    return;
  }
  if (rest.length === 0) {
    delete obj[head];
    return;
  }
  const v = obj[head];
  if (isPlainObject(v)) {
    removePath(v, rest);
  } else if (Array.isArray(v)) {
    for (const el of v) {
      if (isPlainObject(el)) {
        removePath(el, rest);
      }
    }
  }
}
