/**
 * Reading field values out of _source for queries, sorting and aggregations, including
 * the "inside one nested object" view used by `nested` queries.
 */
import type { Json, JsonObject } from '../json-value';
import { isNumericType, type ResolvedField } from '../mapping';
import { parseWithFormat } from './date-format';
import { numberOf } from '../long-json';

export interface DocView {
  source: JsonObject;
  id?: string;
  /** The document's sequence number, when read from an indexed snapshot: the key of its token-index entries. */
  seq?: number;
  /** Set while evaluating inside a `nested` query: the one nested object under test. */
  nestedPath?: string;
  nested?: JsonObject;
}

function collect(
  node: Json | undefined,
  path: string[],
  i: number,
  out: Json[]
): void {
  if (node === undefined || node === null) {
    return;
  }
  if (Array.isArray(node)) {
    for (const item of node) {
      collect(item, path, i, out);
    }
    return;
  }
  if (i === path.length) {
    out.push(node);
    return;
  }
  if (typeof node !== 'object') {
    return;
  }
  // Only the object's own field: a document without `constructor` has no value there.
  const key = path[i] as string;
  if (Object.hasOwn(node, key)) {
    collect((node as JsonObject)[key], path, i + 1, out);
  }
}

/** Raw values of a field. Fields inside nested objects are only visible from a nested view. */
export function rawValues(view: DocView, field: ResolvedField): Json[] {
  const out: Json[] = [];
  // Inside a nested object the parent's own fields live in another Lucene document.
  if (view.nestedPath !== undefined && field.nestedPath === undefined) {
    return out;
  }
  if (field.nestedPath !== undefined) {
    if (
      view.nestedPath === undefined ||
      !(
        field.nestedPath === view.nestedPath ||
        field.nestedPath.startsWith(view.nestedPath + '.')
      )
    ) {
      return out;
    }
    const depth = view.nestedPath.split('.').length;
    collect(view.nested, field.sourcePath, depth, out);
    return out;
  }
  collect(view.source, field.sourcePath, 0, out);
  return out;
}

/** Raw values at a source path regardless of mapping (for `exists` on objects). */
export function pathValues(source: JsonObject, path: string[]): Json[] {
  const out: Json[] = [];
  collect(source, path, 0, out);
  return out;
}

/** Values as the field's doc values see them: keyword strings, numbers, epoch millis, 0/1. */
export function docValues(
  view: DocView,
  field: ResolvedField
): (string | number)[] {
  const raw = rawValues(view, field);
  const out: (string | number)[] = [];
  const t = field.type;
  for (const v of raw) {
    if (isObject(v)) {
      continue;
    }
    if (isNumericType(t)) {
      const n = numberOf(v);
      if (Number.isFinite(n)) {
        out.push(
          t === 'long' || t === 'integer' || t === 'short' || t === 'byte'
            ? Math.trunc(n)
            : n
        );
      }
    } else if (t === 'date' || t === 'date_nanos') {
      const d = parseWithFormat(v, field.format);
      if (d !== undefined) {
        out.push(d);
      }
    } else if (t === 'boolean') {
      out.push(v === true || v === 'true' ? 1 : 0);
    } else {
      const s = typeof v === 'string' ? v : String(v);
      if (field.ignoreAbove !== undefined && s.length > field.ignoreAbove) {
        continue;
      }
      out.push(s);
    }
  }
  return out;
}

function isObject(v: Json): boolean {
  return typeof v === 'object' && v !== null;
}
