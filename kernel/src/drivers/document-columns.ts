import type { JsonValue } from '../console/cell';
import type { GridColumn } from './driver';

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects flatten to dotted paths; arrays stay whole (they render as JSON). */
export function flattenDocument(doc: JsonObject, prefix = '', into: Record<string, JsonValue> = {}): Record<string, JsonValue> {
  for (const [key, value] of Object.entries(doc)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isObject(value) && Object.keys(value).length > 0) flattenDocument(value, path, into);
    else into[path] = value;
  }
  return into;
}

/**
 * Columns seen in the rows, in first-seen order, after the leading read-only ones. Used
 * when no mapping or schema is known (console output before the structure is loaded).
 */
export function columnsFromRows(rows: Record<string, JsonValue>[], leading: GridColumn[]): GridColumn[] {
  const columns = new Map<string, GridColumn>(leading.map((c) => [c.name, c]));
  for (const row of rows) {
    for (const [name, value] of Object.entries(row)) {
      if (columns.has(name)) continue;
      columns.set(name, { name, type: jsonType(value), readOnly: false, json: typeof value === 'object' && value !== null });
    }
  }
  return [...columns.values()];
}

function jsonType(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}
