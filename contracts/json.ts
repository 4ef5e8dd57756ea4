/** JSON as both halves hold it: what the console parsed, what engines answered, what payloads carry. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonObject = { [key: string]: JsonValue };
