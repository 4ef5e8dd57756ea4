/**
 * The grid's rows rebuilt from the engine's answer kept in the notebook, so each answer is
 * stored once. The kernel (fallbacks, tests) and the extension (grids) both read rows through
 * here, so they cannot disagree.
 */
import type { JsonValue } from './json';
import { fieldRecord, ownValue } from './own-fields';
import type { Column, DocumentLayout, HitsPayload, TablePayload } from './mime-types';

type JsonObject = { [key: string]: JsonValue };
export type Row = Record<string, JsonValue>;

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects flatten to dotted paths; arrays stay whole (they render as JSON). The rows of tables. */
export function flattenDocument(doc: JsonObject, prefix = '', into: Row = fieldRecord()): Row {
  for (const [key, value] of Object.entries(doc)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isObject(value) && Object.keys(value).length > 0) flattenDocument(value, path, into);
    else into[path] = value;
  }
  return into;
}

/** One table row per element of an array answer (or of JSONL lines). */
export function tableRows(answer: JsonValue): Row[] {
  return (Array.isArray(answer) ? answer : [answer]).map((value) => (isObject(value) ? flattenDocument(value) : { value }));
}

/** The value at a path; through an array, the list of each element's value. */
export function valueAt(value: JsonValue | undefined, path: readonly (string | number)[]): JsonValue | undefined {
  let current = value;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string | number;
    if (Array.isArray(current)) {
      if (typeof key === 'number') current = current[key];
      else return current.map((element) => valueAt(element, path.slice(i)) ?? null);
    } else if (isObject(current)) current = ownValue(current, String(key));
    else return undefined;
  }
  return current;
}

/** The documents array an answer holds under `layout.at` (an object there is one document). */
export function documentsOf(answer: JsonValue, layout: Pick<DocumentLayout, 'at'>): JsonValue[] {
  const at = valueAt(answer, layout.at);
  return Array.isArray(at) ? at : isObject(at) ? [at] : [];
}

/**
 * One row per document: the leading columns from the element, then the document's fields by
 * column name. A field with a column of its own keeps its whole value (and the columns that
 * list its elements' leaves get one entry per element); other objects flatten to dotted names.
 */
export function documentRows(answer: JsonValue, layout: DocumentLayout, columns: readonly Column[], limit = Number.POSITIVE_INFINITY): Row[] {
  const documents = documentsOf(answer, layout);
  return (limit < documents.length ? documents.slice(0, limit) : documents).map(documentRow(layout, columns));
}

/** Builds the row of one element of the documents array (see documentRows). */
export function documentRow(layout: DocumentLayout, columns: readonly Column[]): (element: JsonValue) => Row {
  const names = new Set(columns.map((c) => c.name));
  const leaves = new Map<string, { name: string; path: string[] }[]>();
  for (const c of columns) {
    if (c.arrayParent === undefined) continue;
    const list = leaves.get(c.arrayParent) ?? [];
    list.push({ name: c.name, path: c.name.slice(c.arrayParent.length + 1).split('.') });
    leaves.set(c.arrayParent, list);
  }
  const meta = Object.entries(layout.meta);
  const walk = (object: JsonObject, prefix: string, row: Row): void => {
    for (const [key, value] of Object.entries(object)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (names.has(path)) {
        row[path] = value;
        const elements = Array.isArray(value) ? value : isObject(value) ? [value] : undefined;
        for (const leaf of (elements && leaves.get(path)) ?? []) {
          row[leaf.name] = (elements as JsonValue[]).map((element) => valueAt(element, leaf.path) ?? null);
        }
      } else if (isObject(value)) walk(value, path, row);
      else row[path] = value;
    }
  };
  return (element) => {
    const row: Row = fieldRecord();
    for (const [name, path] of meta) row[name] = valueAt(element, path) ?? null;
    const source = valueAt(element, layout.source) ?? {};
    if (isObject(source)) walk(source, '', row);
    else row.value = source;
    return row;
  };
}

/**
 * Whether rows rebuilt by column name would differ from the grid the driver built: a column
 * named like an object that holds other columns (`a` beside `a.b`) that do not list its
 * elements. Such answers keep their rows in the notebook instead.
 */
export function columnsNestOddly(columns: readonly Column[]): boolean {
  const names = new Set(columns.map((c) => c.name));
  return columns.some((c) => {
    for (let dot = c.name.lastIndexOf('.'); dot > 0; dot = c.name.lastIndexOf('.', dot - 1)) {
      const parent = c.name.slice(0, dot);
      if (names.has(parent) && c.arrayParent !== parent) return true;
    }
    return false;
  });
}

const DOUBLE = 0x22;
const SINGLE = 0x27;

/**
 * Swaps every `"` and `'` of a text (its own inverse). Both are ASCII, so swapping UTF-8
 * bytes is safe; a byte loop is several times faster than a regular expression here.
 */
export function swapQuotes(text: string): string {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === DOUBLE) bytes[i] = SINGLE;
    else if (b === SINGLE) bytes[i] = DOUBLE;
  }
  return new TextDecoder().decode(bytes);
}

/** The engine's answer a payload keeps, as a JSON value. */
export function answerValue(payload: { answer?: string | undefined }): JsonValue | undefined {
  return payload.answer === undefined ? undefined : (JSON.parse(swapQuotes(payload.answer)) as JsonValue);
}

/** The rows of a hits payload: stored (older notebooks, answers too large to keep) or rebuilt from its answer. */
export function hitsPayloadRows(payload: HitsPayload): Row[] {
  if (payload.rows) return payload.rows as Row[];
  const answer = answerValue(payload);
  return answer !== undefined && payload.documents ? documentRows(answer, payload.documents, payload.columns) : [];
}

/** The rows of a table payload, stored or rebuilt from its answer. */
export function tablePayloadRows(payload: TablePayload): Row[] {
  if (payload.rows) return payload.rows as Row[];
  const answer = answerValue(payload);
  return answer !== undefined ? tableRows(answer) : [];
}
