import type { JsonValue } from '../../../contracts/json';
import { ExactNumber, exactJson } from '../../../contracts/exact-json';

/** A cell's text as every fallback shows it: strings as they are, everything else as JSON. */
export function cellText(value: JsonValue | undefined): string {
  if (value === undefined) {
    return '';
  }
  if (typeof value === 'string') {
    return value;
  }
  // What JSON.stringify writes for them (a parsed number is always finite), without its machinery.
  if (
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value === null ||
    value instanceof ExactNumber
  ) {
    return String(value);
  }
  return exactJson(value);
}
