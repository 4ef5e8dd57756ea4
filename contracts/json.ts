import { ExactNumber } from './exact-json';

/**
 * JSON as both halves hold it: what the console parsed, what engines answered, what payloads
 * carry. A number a JavaScript number cannot hold exactly is an ExactNumber (exact-json.ts).
 */
export type JsonValue =
  | null
  | boolean
  | number
  | ExactNumber
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };

/** Whether a value is a JSON object: not null, an array or an ExactNumber. */
export function isJsonObject(
  value: JsonValue | undefined
): value is JsonObject {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof ExactNumber)
  );
}
