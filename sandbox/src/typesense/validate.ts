/**
 * Type checks and value coercion for documents, with the engine's error texts. The
 * `dirty_values` policy decides between refusing, coercing and dropping a wrong value:
 * collections with an auto (`.*`) field default to coerce_or_reject, the others to reject.
 */
import { ApiError } from './errors';
import { isPlainObject, type JsonObject, mergeExact } from './json';
import type { FieldDef } from './field-def';
import { baseType, isArrayType } from './schema';
import { checkDimensions } from './vector-fields';

export type DirtyValues =
  'reject' | 'drop' | 'coerce_or_reject' | 'coerce_or_drop';

export function parseDirtyValues(
  raw: string | undefined,
  fallback: DirtyValues
): DirtyValues {
  switch (raw?.toLowerCase()) {
    case 'reject':
    case 'drop':
    case 'coerce_or_reject':
    case 'coerce_or_drop':
      return raw.toLowerCase() as DirtyValues;
    default:
      return fallback;
  }
}

const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;
const DROP = Symbol('drop');

const ARTICLE: Record<string, string> = {
  string: 'a',
  int32: 'an',
  int64: 'an',
  float: 'a',
  bool: 'a'
};

function typeError(field: FieldDef, t: string, array: boolean): ApiError {
  const suffix = array ? 'an array of' : (ARTICLE[t] ?? 'a');
  return new ApiError(400, `Field \`${field.name}\` must be ${suffix} ${t}.`);
}

/**
 * Checks one field's value, returning the value to store (possibly coerced) or DROP.
 * Throws the engine's 400 when the policy refuses it.
 */
function checkValue(
  field: FieldDef,
  value: unknown,
  dirty: DirtyValues
): unknown {
  const t = baseType(field.type);
  if (t === 'object') {
    const ok = isArrayType(field.type)
      ? Array.isArray(value) && value.every(v => isPlainObject(v))
      : isPlainObject(value);
    if (!ok) {
      throw new ApiError(400, `Field \`${field.name}\` has an incorrect type.`);
    }
    return value;
  }
  if (t === 'geopoint') {
    const isPoint = (p: unknown): boolean =>
      Array.isArray(p) && p.length === 2 && p.every(x => typeof x === 'number');
    if (isArrayType(field.type)) {
      if (!Array.isArray(value) || !value.every(isPoint)) {
        throw new ApiError(
          400,
          `Field \`${field.name}\` must contain 2 element arrays: [ [lat, lng],... ].`
        );
      }
    } else if (!isPoint(value)) {
      throw new ApiError(
        400,
        `Field \`${field.name}\` must be a 2 element array: [lat, lng].`
      );
    }
    return value;
  }
  if (t === 'auto' || t === 'string*' || t === 'image') {
    return value;
  }

  if (isArrayType(field.type) || (field.nested && Array.isArray(value))) {
    if (!Array.isArray(value)) {
      if (field.nested) {
        throw new ApiError(
          400,
          `Field \`${field.name}\` has an incorrect type. Hint: field inside an array of objects must be an array type as well.`
        );
      }
      throw new ApiError(400, `Field \`${field.name}\` must be an array.`);
    }
    const out: unknown[] = [];
    for (const el of value) {
      const v = checkScalar(field, t, el, dirty, true);
      if (v !== DROP) {
        out.push(v);
      }
    }
    // The digits of int64s past 2^53 stay with their elements.
    if (out.length === value.length) {
      mergeExact(out, value);
    }
    return out;
  }
  return checkScalar(field, t, value, dirty, false);
}

function checkScalar(
  field: FieldDef,
  t: string,
  v: unknown,
  dirty: DirtyValues,
  inArray: boolean
): unknown {
  let ok: boolean;
  switch (t) {
    case 'string':
      ok = typeof v === 'string';
      break;
    case 'int32':
    case 'int64':
      ok = typeof v === 'number' && Number.isInteger(v);
      break;
    case 'float':
      ok = typeof v === 'number';
      break;
    case 'bool':
      ok = typeof v === 'boolean';
      break;
    default:
      ok = true;
  }
  let out: unknown = v;
  if (!ok) {
    const fail = (): unknown => {
      if ((dirty === 'drop' || dirty === 'coerce_or_drop') && field.optional) {
        return DROP;
      }
      throw typeError(field, t, inArray);
    };
    if (dirty === 'reject' || dirty === 'drop') {
      return fail();
    }
    const coerced = coerce(t, v);
    if (coerced === undefined) {
      return fail();
    }
    out = coerced;
  }
  if (t === 'int32' && typeof out === 'number' && out > INT32_MAX) {
    if (field.optional && (dirty === 'drop' || dirty === 'coerce_or_reject')) {
      return DROP;
    }
    throw new ApiError(
      400,
      `Field \`${field.name}\` exceeds maximum value of int32.`
    );
  }
  return out;
}

function coerce(t: string, v: unknown): unknown {
  switch (t) {
    case 'string':
      if (typeof v === 'number') {
        return String(v);
      }
      if (typeof v === 'boolean') {
        return v ? 'true' : 'false';
      }
      return undefined;
    case 'int32':
    case 'int64':
      if (typeof v === 'number') {
        return Math.trunc(v);
      }
      if (typeof v === 'boolean') {
        return v ? 1 : 0;
      }
      if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) {
        const n = Number(v);
        if (t === 'int32' && (n > INT32_MAX || n < INT32_MIN)) {
          return undefined;
        }
        return n;
      }
      return undefined;
    case 'float':
      if (typeof v === 'boolean') {
        return v ? 1 : 0;
      }
      if (
        typeof v === 'string' &&
        v.trim() !== '' &&
        Number.isFinite(Number(v))
      ) {
        return Number(v);
      }
      return undefined;
    case 'bool':
      if (v === 'true' || v === 1) {
        return true;
      }
      if (v === 'false' || v === 0) {
        return false;
      }
      return undefined;
    default:
      return undefined;
  }
}

export interface ValidateOptions {
  /** create/upsert need every required field; update (and emplace of an existing document) only checks what is sent. */
  partial: boolean;
  dirty: DirtyValues;
  defaultSortingField: string;
}

/**
 * Validates a document against the declared (non-pattern) fields, coercing in place where
 * the policy allows. Nested leaves are checked but left as sent.
 */
export function validateDocument(
  doc: JsonObject,
  fields: readonly FieldDef[],
  opts: ValidateOptions,
  read: (d: JsonObject, p: string) => unknown
): void {
  if (doc.id !== undefined && typeof doc.id !== 'string') {
    throw new ApiError(400, "Document's `id` field should be a string.");
  }
  if (
    !opts.partial &&
    opts.defaultSortingField !== '' &&
    read(doc, opts.defaultSortingField) === undefined
  ) {
    throw new ApiError(
      400,
      `Field \`${opts.defaultSortingField}\` has been declared as a default sorting field, but is not found in the document.`
    );
  }
  for (const field of fields) {
    if (field.dynamic) {
      continue;
    }
    const topLevel = Object.prototype.hasOwnProperty.call(doc, field.name);
    const value = topLevel ? doc[field.name] : read(doc, field.name);
    if (value === undefined || value === null) {
      if (value === null && field.optional && topLevel && !opts.partial) {
        delete doc[field.name];
      }
      // An embedded field is the engine's to compute from other fields.
      if (field.optional || opts.partial || field.embed !== undefined) {
        continue;
      }
      if (field.nested || baseType(field.type) === 'object') {
        if (value === undefined && field.nested) {
          continue;
        }
      }
      throw new ApiError(
        400,
        `Field \`${field.name}\` has been declared in the schema, but is not found in the document.`
      );
    }
    const checked = checkValue(field, value, opts.dirty);
    checkDimensions(field, checked);
    if (!topLevel) {
      continue;
    }
    if (checked === DROP) {
      delete doc[field.name];
    } else {
      doc[field.name] = checked;
    }
  }
}
