/**
 * Engine-neutral pieces of typing a grid edit on the way out: what is known about the field
 * written (from the grid's column and the mapping or schema of the row's own index or
 * collection), the refusal that names the cell, and readers for numbers, booleans and JSON
 * text with its line and column. Each driver types values by its own engine's types.
 */
import { isDeepStrictEqual } from 'node:util';
import type { JsonValue } from '../console/cell';
import { ownValue, setField } from '../../../contracts/own-fields';
import { asObject } from './document-columns';
import type { Column } from '../../../contracts/columns';
import type { FieldTree } from './field-tree';
import { resolveColumn } from './grid-view';
import { jsonFault } from './http/json-fault';
import { type ExactNumber, exactNumber } from '../../../contracts/exact-json';
import { exactInteger, parseExactJson } from '../json/exact-integers';
import { positionAt } from '../console/text-position';
import { valueRefusal } from '../console/refusal';

/** What typing a cell needs to know about its field. */
export interface FieldFacts {
  name: string;
  /** The engine's type (`integer`, `int32`, `date`, ...), or the JSON type of a field only documents hold (`number`, `string`, ...). */
  type: string;
  /** The cell holds JSON text (arrays, objects, nested parents, a field that held an array). */
  json: boolean;
  readOnly: boolean;
  /** The JSON column of the array of objects this leaf belongs to. */
  arrayParent?: string;
  /** A date field's formats (`yyyy-MM-dd||epoch_millis`), when the mapping names them. */
  format?: string;
}

/**
 * The field a cell writes to: the mapping or schema of the row's own index says its type (an
 * alias's union may say `long | keyword`); the grid's column says whether it showed JSON.
 */
export function fieldFacts(
  name: string,
  column: Column | undefined,
  tree: FieldTree | undefined
): FieldFacts {
  const resolved = resolveColumn(tree, name);
  const base: FieldFacts = column
    ? {
        name,
        type: column.type,
        json: column.json,
        readOnly: column.readOnly,
        ...(column.arrayParent ? { arrayParent: column.arrayParent } : {})
      }
    : { name, type: 'unknown', json: false, readOnly: false };
  switch (resolved.kind) {
    case 'leaf':
      return {
        ...base,
        type: resolved.node.type,
        json: base.json || Boolean(resolved.node.json),
        ...(resolved.node.format ? { format: resolved.node.format } : {}),
        ...(resolved.array
          ? { readOnly: true, arrayParent: resolved.array.path }
          : {})
      };
    case 'array':
      return { ...base, type: resolved.type, json: true };
    case 'object':
      return { ...base, type: 'object', json: true };
    case 'unknown':
      return base;
  }
}

/** The refusal of a read-only cell, or undefined. */
export function readOnlyRefusal(field: FieldFacts): string | undefined {
  if (field.arrayParent) {
    return arrayLeafRefusal(field.name, field.arrayParent);
  }
  if (field.readOnly) {
    return `${field.name} is read-only: the engine keeps it for the document (its id, index or score), so it cannot be written.`;
  }
  return undefined;
}

/** The refusal of a leaf under an array: one value per element, edited through the array's JSON column. */
export function arrayLeafRefusal(name: string, arrayParent: string): string {
  return `${name} lists one value per element of ${arrayParent} and is read-only: edit the array in its JSON column ${arrayParent}.`;
}

/** JSON text as typed into a cell; invalid JSON is refused with the line and column of the fault. */
export function parseJsonCell(field: FieldFacts, text: string): JsonValue {
  try {
    return parseExactJson(text);
  } catch {
    const fault = jsonFault(text) ?? { offset: text.length, what: 'not JSON' };
    const { line, column } = positionAt(text, fault.offset);
    const cut = text.trimEnd().endsWith('...')
      ? ' It ends in "...": a cut cell holds only the start of its value; load the whole value before editing it.'
      : '';
    throw valueRefusal(
      field.name,
      `${field.name} (${field.type}) takes JSON: ${fault.what} at line ${line}, column ${column}.${cut}`,
      { line, column }
    );
  }
}

export function numberCell(
  field: FieldFacts,
  text: string,
  whole: boolean
): number {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (
    trimmed === '' ||
    !Number.isFinite(value) ||
    !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)
  ) {
    throw valueRefusal(
      field.name,
      `${field.name} (${field.type}): "${text}" is not a number; write a number such as 42${whole ? '' : ' or 4.5'}.`
    );
  }
  if (whole && !Number.isInteger(value)) {
    throw valueRefusal(
      field.name,
      `${field.name} (${field.type}): "${text}" has a fraction, and ${field.type} holds whole numbers; write one such as ${Math.trunc(value)}.`
    );
  }
  return value;
}

/**
 * A number with a fraction, kept digit for digit where it has more digits than a double holds
 * (an engine keeps the document's text as sent: `0.12345678901234567` stays so).
 */
export function decimalCell(
  field: FieldFacts,
  text: string
): number | ExactNumber {
  const value = numberCell(field, text, false);
  const trimmed = text.trim();
  return JSON_NUMBER.test(trimmed) ? exactNumber(trimmed) : value;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A whole number within [min, max]. Past 2^53 a JavaScript number is no longer exact: such a
 * number is kept as its digits and sent as a JSON number literal with every digit.
 */
export function wholeNumberCell(
  field: FieldFacts,
  text: string,
  range: { min: bigint; max: bigint }
): number | ExactNumber {
  const value = numberCell(field, text, true);
  const digits = exactWhole(text.trim());
  if (digits === undefined) {
    throw valueRefusal(
      field.name,
      `${field.name} (${field.type}): "${text}" has a fraction, and ${field.type} holds whole numbers; write one such as ${Math.trunc(value)}.`
    );
  }
  if (digits < range.min || digits > range.max) {
    throw valueRefusal(
      field.name,
      `${field.name} (${field.type}): ${text.trim()} is outside ${range.min}..${range.max}, the range of ${field.type}.`
    );
  }
  return exactInteger(digits);
}

/**
 * The whole number a decimal text names, read from its digits (`9007199254740993.0`,
 * `9.007199254740993e15`); undefined when it has a fraction. Past 2^53 a JavaScript number
 * rounds both the digits and the fraction away.
 */
function exactWhole(text: string): bigint | undefined {
  const [, sign = '', whole = '', fraction = '', exponent = '0'] =
    /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text) ?? [];
  const digits = BigInt(`${sign === '-' ? '-' : ''}${whole}${fraction}`);
  // Zero, whatever its exponent: `0e99999999` must not be multiplied out.
  if (digits === 0n) {
    return 0n;
  }
  const scale = fraction.length - Number(exponent);
  // The caller's finite number bounds a growing exponent; a shrinking one past the digits leaves a fraction.
  if (scale <= 0) {
    return digits * 10n ** BigInt(-scale);
  }
  if (scale > whole.length + fraction.length) {
    return undefined;
  }
  const divisor = 10n ** BigInt(scale);
  return digits % divisor === 0n ? digits / divisor : undefined;
}

export function booleanCell(field: FieldFacts, text: string): boolean {
  const lower = text.trim().toLowerCase();
  if (lower === 'true') {
    return true;
  }
  if (lower === 'false') {
    return false;
  }
  throw valueRefusal(
    field.name,
    `${field.name} (${field.type}): write true or false, not "${text}".`
  );
}

/**
 * A field known only from the documents: typed by what the column held (its JSON type), and
 * otherwise as the text itself.
 */
export function documentFieldCell(field: FieldFacts, text: string): JsonValue {
  switch (field.type) {
    case 'number': {
      const value = numberCell(field, text, false);
      return /^[-+]?\d+$/.test(text.trim()) && !Number.isSafeInteger(value)
        ? exactInteger(BigInt(text.trim()))
        : value;
    }
    case 'boolean':
      return booleanCell(field, text);
    case 'array':
    case 'object':
      return parseJsonCell(field, text);
    default:
      return field.json ? parseJsonCell(field, text) : text;
  }
}

/**
 * Fields as the document to write holds them: each column name at its key path, nested by
 * default (`address.city` → `{address: {city}}`); `keys` names another path for a field, such
 * as `["a.b"]` for one stored under a flat dotted key.
 */
export function nestFields(
  fields: Record<string, JsonValue>,
  keys: (name: string) => string[] = name => name.split('.')
): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(fields)) {
    const parts = keys(name);
    let level = out;
    for (const part of parts.slice(0, -1)) {
      const next = ownValue(level, part);
      if (typeof next !== 'object' || next === null || Array.isArray(next)) {
        setField(level, part, {});
      }
      level = ownValue(level, part) as Record<string, JsonValue>;
    }
    setField(level, parts[parts.length - 1] as string, value);
  }
  return out;
}

/**
 * Every key path in a document whose keys, joined with dots, make the column name: `["a", "b"]`
 * for `{"a": {"b": 1}}`, `["a.b"]` for a flat dotted key `{"a.b": 1}` (common in ingested logs),
 * both when the document holds both.
 */
export function storedKeyPaths(
  document: JsonValue | undefined,
  name: string
): string[][] {
  const object = asObject(document);
  if (!object) {
    return [];
  }
  const paths: string[][] = [];
  for (const key of Object.keys(object)) {
    if (key === name) {
      paths.push([key]);
    } else if (name.startsWith(`${key}.`)) {
      for (const rest of storedKeyPaths(
        object[key],
        name.slice(key.length + 1)
      )) {
        paths.push([key, ...rest]);
      }
    }
  }
  return paths;
}

/**
 * The column of an array the name's path crosses in this document: `a` for `a.b` in
 * `{"a": [{"b": 1}]}`. An object mapping takes arrays of objects, so only the document tells;
 * written as `{"a": {"b": …}}`, the value would replace the whole array.
 */
export function arrayOnPath(
  document: JsonValue | undefined,
  name: string,
  prefix = ''
): string | undefined {
  const object = asObject(document);
  if (!object) {
    return undefined;
  }
  for (const key of Object.keys(object)) {
    if (!name.startsWith(`${key}.`)) {
      continue;
    }
    const child = ownValue(object, key);
    const column = prefix ? `${prefix}.${key}` : key;
    const inner = Array.isArray(child)
      ? column
      : arrayOnPath(child, name.slice(key.length + 1), column);
    if (inner !== undefined) {
      return inner;
    }
  }
  return undefined;
}

/** A key path as the JSON shape that holds it: `{"a": {"b": …}}`. */
export function keyPathShape(path: string[]): string {
  return path.reduceRight(
    (inner, key) => `{${JSON.stringify(key)}: ${inner}}`,
    '…'
  );
}

/** Whether a grid row holds `value` in `column`; a field the document lacks holds null. */
export function holdsValue(
  row: Record<string, JsonValue>,
  column: string,
  value: unknown
): boolean {
  // A whole number past 2^53 reads back as an ExactNumber, as it was typed.
  return isDeepStrictEqual(ownValue(row, column) ?? null, value);
}

/** Whether a grid row already holds each of these values (dotted column names, typed). */
export function holdsFields(
  row: Record<string, JsonValue>,
  fields: Record<string, JsonValue>
): boolean {
  return Object.entries(fields).every(([column, value]) =>
    holdsValue(row, column, value)
  );
}
