import type { JsonValue } from '../console/cell';

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects flatten to dotted paths; arrays stay whole (they render as JSON). For tables; grids use grid-columns.ts. */
export function flattenDocument(doc: JsonObject, prefix = '', into: Record<string, JsonValue> = {}): Record<string, JsonValue> {
  for (const [key, value] of Object.entries(doc)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isObject(value) && Object.keys(value).length > 0) flattenDocument(value, path, into);
    else into[path] = value;
  }
  return into;
}

export function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}
