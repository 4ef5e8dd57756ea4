import type { JsonValue } from '../console/cell';
import { type JsonObject, isJsonObject } from '../../../contracts/json';

function isObject(value: JsonValue | undefined): value is JsonObject {
  return isJsonObject(value);
}

export function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}
