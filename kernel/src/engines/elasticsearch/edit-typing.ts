/**
 * A grid cell's text as the JSON value an Elasticsearch field takes, by its mapping type:
 * whole numbers in the integer types' ranges, numbers, true/false, dates in the mapping's
 * format, JSON for objects, nested arrays and fields that held arrays.
 */
import type { JsonValue } from '../../console/cell';
import {
  booleanCell,
  documentFieldCell,
  type FieldFacts,
  decimalCell,
  parseJsonCell,
  wholeNumberCell
} from '../../driver-core/edit-values';
import { valueRefusal } from '../../console/refusal';
import { dateMisfit } from './date-format';

const WHOLE: Record<string, { min: bigint; max: bigint }> = {
  byte: { min: -128n, max: 127n },
  short: { min: -32768n, max: 32767n },
  integer: { min: -(2n ** 31n), max: 2n ** 31n - 1n },
  long: { min: -(2n ** 63n), max: 2n ** 63n - 1n },
  unsigned_long: { min: 0n, max: 2n ** 64n - 1n }
};
const DECIMAL = new Set(['float', 'double', 'half_float', 'scaled_float']);
const DATE = new Set(['date', 'date_nanos']);
const JSON_TYPES = new Set([
  'object',
  'nested',
  'flattened',
  'geo_shape',
  'shape',
  'dense_vector',
  'sparse_vector',
  'rank_features',
  'integer_range',
  'long_range',
  'float_range',
  'double_range',
  'date_range',
  'ip_range',
  'histogram',
  'aggregate_metric_double'
]);
/** Fields a document only holds (no mapping says their type): typed by the JSON type the column showed. */
const DOCUMENT_TYPES = new Set([
  'unknown',
  'number',
  'string',
  'boolean',
  'array',
  'object',
  'null'
]);

export function typeElasticsearchValue(
  field: FieldFacts,
  text: string
): JsonValue {
  const type = field.type;
  // A cleared number, boolean or date cell stores null (a keyword or text cell keeps "").
  if (
    text.trim() === '' &&
    (type in WHOLE || DECIMAL.has(type) || DATE.has(type) || type === 'boolean')
  ) {
    return null;
  }
  if (field.json || JSON_TYPES.has(type)) {
    const value = parseJsonCell(field, text);
    if (Array.isArray(value)) {
      for (const element of value) {
        checkElement(field, element);
      }
    }
    return value;
  }
  const whole = WHOLE[type];
  if (whole) {
    return wholeNumberCell(field, text, whole);
  }
  if (DECIMAL.has(type)) {
    return decimalCell(field, text);
  }
  if (type === 'boolean') {
    return booleanCell(field, text);
  }
  if (DATE.has(type)) {
    const misfit = dateMisfit(text.trim(), field.format);
    if (misfit) {
      throw valueRefusal(
        field.name,
        `${field.name} (${type}): "${text}" does not fit the mapping's format ${misfit}; write a date such as 2024-05-17 or 2024-05-17T09:30:00Z${misfit.includes('epoch_millis') ? ', or milliseconds since 1970' : ''}.`
      );
    }
    return text.trim();
  }
  // "lat,lon" and geohashes are text; the object and array forms are JSON.
  if (type === 'geo_point') {
    return /^\s*[[{]/.test(text) ? parseJsonCell(field, text) : text;
  }
  if (DOCUMENT_TYPES.has(type)) {
    return documentFieldCell(field, text);
  }
  return text;
}

/** An array in a whole-number field: each number whole (the engine would cut fractions silently). */
function checkElement(field: FieldFacts, element: JsonValue): void {
  if (
    field.type in WHOLE &&
    typeof element === 'number' &&
    !Number.isInteger(element)
  ) {
    throw valueRefusal(
      field.name,
      `${field.name} (${field.type}): ${element} has a fraction, and ${field.type} holds whole numbers; write whole numbers in the array.`
    );
  }
}
