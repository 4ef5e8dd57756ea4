/**
 * A grid cell's text as the JSON value a Typesense field takes, by its schema type:
 * `int32` / `int64` whole numbers in range, `float` numbers, `bool` true or false,
 * arrays, objects and geopoints as parsed JSON. A collection without `.*` refuses `"5"` for an
 * int32 field (only an auto-schema collection coerces it), so values are typed here, never
 * left to the engine.
 */
import type { JsonValue } from '../../console/cell';
import { exactJson, isIntegerLiteral } from '../../json/exact-integers';
import { ExactNumber } from '../../../../contracts/exact-json';
import {
  booleanCell,
  documentFieldCell,
  type FieldFacts,
  decimalCell,
  parseJsonCell,
  wholeNumberCell
} from '../../driver-core/edit-values';
import { valueRefusal } from '../../console/refusal';

const WHOLE: Record<string, { min: bigint; max: bigint }> = {
  int32: { min: -(2n ** 31n), max: 2n ** 31n - 1n },
  int64: { min: -(2n ** 63n), max: 2n ** 63n - 1n }
};
const SCALAR = new Set(['int32', 'int64', 'float', 'bool']);
const JSON_TYPES = new Set([
  'object',
  'object[]',
  'geopoint',
  'geopoint[]',
  'float[]',
  'int32[]',
  'int64[]',
  'bool[]',
  'string[]',
  'auto[]'
]);
const DOCUMENT_TYPES = new Set([
  'unknown',
  'auto',
  'string*',
  'number',
  'string',
  'boolean',
  'array',
  'object',
  'null'
]);

export function typeTypesenseValue(field: FieldFacts, text: string): JsonValue {
  const type = field.type;
  // A cleared number or bool cell removes the value (null), as the engine's update does.
  if (text.trim() === '' && SCALAR.has(type)) {
    return null;
  }
  if (field.json || JSON_TYPES.has(type)) {
    const value = parseJsonCell(field, text);
    const element = type.endsWith('[]') ? type.slice(0, -2) : undefined;
    if (element && Array.isArray(value)) {
      for (const item of value) {
        checkElement(field, element, item);
      }
    }
    return value;
  }
  const whole = WHOLE[type];
  if (whole) {
    return wholeNumberCell(field, text, whole);
  }
  if (type === 'float') {
    return decimalCell(field, text);
  }
  if (type === 'bool') {
    return booleanCell(field, text);
  }
  if (type === 'string') {
    return text;
  }
  if (DOCUMENT_TYPES.has(type)) {
    return documentFieldCell(field, text);
  }
  return text;
}

function checkElement(
  field: FieldFacts,
  element: string,
  item: JsonValue
): void {
  // A whole number past 2^53 is held as a marked string until sent: a number here, told by its digits.
  const literal = isIntegerLiteral(item);
  const shown = exactJson(item);
  const wrong = (what: string) =>
    valueRefusal(
      field.name,
      `${field.name} (${field.type}): ${shown} is not ${what}; every element of a ${field.type} field must be ${what}.`
    );
  const isNumber = item instanceof ExactNumber || typeof item === 'number';
  const range = Object.hasOwn(WHOLE, element) ? WHOLE[element] : undefined;
  if (range) {
    if (!literal && !(typeof item === 'number' && Number.isInteger(item))) {
      throw wrong('a whole number');
    }
    const digits = typeof item === 'number' ? BigInt(item) : BigInt(shown);
    if (digits < range.min || digits > range.max) {
      throw valueRefusal(
        field.name,
        `${field.name} (${field.type}): ${shown} is outside ${range.min}..${range.max}, the range of ${element}.`
      );
    }
  }
  if (element === 'float' && !isNumber) {
    throw wrong('a number');
  }
  if (element === 'bool' && typeof item !== 'boolean') {
    throw wrong('true or false');
  }
  if (element === 'string' && (literal || typeof item !== 'string')) {
    throw wrong('a string');
  }
}
