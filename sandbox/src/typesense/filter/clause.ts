/**
 * One `field:value` clause turned into a predicate over stored documents, with the engine's
 * per-type grammar: numbers take comparators, ranges and lists; bools take `true`/`false`;
 * strings take `:` (token match), `:=` (exact), `:!=`, `:!` and a trailing `*` prefix.
 */
import { ApiError } from '../errors';
import type { JsonObject } from '../json';
import { scalarsAt } from '../paths';
import type { FieldDef } from '../field-def';
import { baseType } from '../schema';
import { tokenize } from '../text';
import { splitValues, unquote } from './tokens';

export type Predicate = (doc: JsonObject) => boolean;

export interface ClauseContext {
  field(name: string): FieldDef | undefined;
  /** false: unknown fields are ignored instead of refused (28+ `validate_field_names=false`). */
  validateFieldNames: boolean;
}

const ALWAYS: Predicate = () => true;

export function compileClause(
  expression: string,
  ctx: ClauseContext
): Predicate {
  const colon = expression.indexOf(':');
  if (colon < 0) {
    throw new ApiError(400, 'Could not parse the filter query.');
  }
  const name = expression.slice(0, colon).trim();
  let raw = expression.slice(colon + 1).trim();

  if (name === 'id') {
    return idClause(raw);
  }

  const field = ctx.field(name);
  if (!field) {
    if (!ctx.validateFieldNames) {
      return ALWAYS;
    }
    throw new ApiError(
      404,
      `Could not find a filter field named \`${name}\` in the schema.`
    );
  }
  const t = baseType(field.type);
  if (t !== 'string' && raw.startsWith('=')) {
    raw = raw.slice(1).trimStart();
  }

  if (t === 'int32' || t === 'int64' || t === 'float') {
    return numericClause(field, t, raw);
  }
  if (t === 'bool') {
    return boolClause(field, raw);
  }
  if (t === 'geopoint') {
    return geoClause(field, raw);
  }
  if (t === 'string') {
    return stringClause(field, raw);
  }
  throw new ApiError(
    400,
    `Error with filter field \`${field.name}\`: Unidentified field data type, see docs for supported data types.`
  );
}

function idClause(raw: string): Predicate {
  const empty = 'Error with filter field `id`: Filter value cannot be empty.';
  if (raw === '') {
    throw new ApiError(400, empty);
  }
  let negate = false;
  if (raw.startsWith('!=')) {
    negate = true;
    raw = raw.slice(2).trimStart();
  } else if (raw.startsWith('=')) {
    raw = raw.slice(1).trimStart();
  }
  if (raw === '') {
    throw new ApiError(400, empty);
  }
  const ids =
    raw.startsWith('[') && raw.endsWith(']')
      ? splitValues(raw.slice(1, -1))
      : splitValues(raw);
  if (ids.length === 0) {
    throw new ApiError(400, empty);
  }
  if (ids.includes('*')) {
    return negate ? () => false : ALWAYS;
  }
  const set = new Set(ids);
  return negate ? d => !set.has(d.id as string) : d => set.has(d.id as string);
}

type NumTest = (x: number) => boolean;

function validateNumber(field: FieldDef, t: string, s: string): number {
  const v = s.trim();
  if (t === 'int32') {
    if (!/^-?\d+$/.test(v)) {
      throw new ApiError(
        400,
        `Error with filter field \`${field.name}\`: Not an int32.`
      );
    }
    const n = Number(v);
    if (n > 2147483647 || n < -2147483648) {
      throw new ApiError(
        400,
        `Error with filter field \`${field.name}\`: \`${v}\` exceeds the range of an int32.`
      );
    }
    return n;
  }
  if (t === 'int64') {
    if (!/^-?\d+$/.test(v)) {
      throw new ApiError(
        400,
        `Error with filter field \`${field.name}\`: Not an int64.`
      );
    }
    return Number(v);
  }
  if (v === '' || !Number.isFinite(Number(v))) {
    throw new ApiError(
      400,
      `Error with filter field \`${field.name}\`: Not a float.`
    );
  }
  return Number(v);
}

/** `>5`, `<=3`, `!=4`, `2..9`, `7`: one numeric comparison. */
function numericTest(field: FieldDef, t: string, raw: string): NumTest {
  const s = raw.trim();
  const isNumber = /^-?\d+(\.\d+)?$/.test(s);
  const comparator = isNumber
    ? '='
    : s.startsWith('<=')
      ? '<='
      : s.startsWith('>=')
        ? '>='
        : s.startsWith('!=')
          ? '!='
          : s.startsWith('<')
            ? '<'
            : s.startsWith('>')
              ? '>'
              : s.includes('..')
                ? '..'
                : null;
  if (comparator === null) {
    throw new ApiError(
      400,
      `Error with filter field \`${field.name}\`: Numerical field has an invalid comparator.`
    );
  }
  if (comparator === '..') {
    const [lo, hi] = s.split('..').map(p => validateNumber(field, t, p));
    const low = lo as number;
    const high = hi as number;
    return x => x >= low && x <= high;
  }
  const n = validateNumber(
    field,
    t,
    comparator === '=' ? s : s.slice(comparator.length)
  );
  switch (comparator) {
    case '<=':
      return x => x <= n;
    case '>=':
      return x => x >= n;
    case '<':
      return x => x < n;
    case '>':
      return x => x > n;
    case '!=':
      return x => x !== n;
    default:
      return x => x === n;
  }
}

function numericClause(field: FieldDef, t: string, raw: string): Predicate {
  const name = field.name;
  const anyOf =
    (tests: NumTest[]): Predicate =>
    d => {
      for (const v of scalarsAt(d, name)) {
        if (typeof v === 'number' && tests.some(test => test(v))) {
          return true;
        }
      }
      return false;
    };
  if (raw.startsWith('[') && raw.endsWith(']')) {
    return anyOf(
      raw
        .slice(1, -1)
        .split(',')
        .map(p => numericTest(field, t, p))
    );
  }
  if (
    raw.startsWith('!=') &&
    raw.slice(2).trim().startsWith('[') &&
    raw.endsWith(']')
  ) {
    const inner = raw.slice(2).trim();
    const inList = anyOf(
      inner
        .slice(1, -1)
        .split(',')
        .map(p => numericTest(field, t, p))
    );
    return d => !inList(d);
  }
  if (raw.startsWith('!=')) {
    // Not-equals is "every document but the equal ones", so documents without the field match.
    const eq = anyOf([numericTest(field, t, raw.slice(2))]);
    return d => !eq(d);
  }
  return anyOf([numericTest(field, t, raw)]);
}

function boolClause(field: FieldDef, raw: string): Predicate {
  let negate = false;
  if (raw.startsWith('!=')) {
    negate = true;
    raw = raw.slice(2).trimStart();
  }
  if (raw === '') {
    throw new ApiError(
      400,
      `Error with filter field \`${field.name}\`: Filter value cannot be empty.`
    );
  }
  let wanted: boolean[];
  if (raw.startsWith('[') && raw.endsWith(']')) {
    wanted = raw
      .slice(1, -1)
      .split(',')
      .map(v => {
        if (v !== 'true' && v !== 'false') {
          throw new ApiError(
            400,
            `Values of filter field \`${field.name}\`: must be \`true\` or \`false\`.`
          );
        }
        return v === 'true';
      });
  } else {
    if (raw !== 'true' && raw !== 'false') {
      throw new ApiError(
        400,
        `Value of filter field \`${field.name}\` must be \`true\` or \`false\`.`
      );
    }
    wanted = [raw === 'true'];
  }
  const hit: Predicate = d =>
    scalarsAt(d, field.name).some(
      v => typeof v === 'boolean' && wanted.includes(v)
    );
  return negate ? d => !hit(d) : hit;
}

function geoClause(field: FieldDef, raw: string): Predicate {
  const m =
    /^\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*(km|mi)\s*\)$/.exec(
      raw
    );
  if (!m) {
    throw new ApiError(
      400,
      `Value of filter field \`${field.name}\`: must be in the \`(-44.50, 170.29, 0.75 km)\` or (56.33, -65.97, 23.82, -127.82) format.`
    );
  }
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  const km = Number(m[3]) * (m[4] === 'mi' ? 1.60934 : 1);
  return d => {
    const v = d[field.name];
    const points =
      Array.isArray(v) && Array.isArray(v[0]) ? (v as unknown[]) : [v];
    return points.some(
      p =>
        Array.isArray(p) &&
        haversineKm(lat, lng, Number(p[0]), Number(p[1])) <= km
    );
  };
}

function haversineKm(
  lat1: number,
  lng1: number,
  lat2: number,
  lng2: number
): number {
  const r = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * r) / 2) ** 2 +
    Math.cos(lat1 * r) *
      Math.cos(lat2 * r) *
      Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

type StrTest = (valueTokens: string[]) => boolean;

function stringTest(rawValue: string, exact: boolean): StrTest {
  const { value, prefix } = unquote(rawValue);
  const want = tokenize(value);
  if (want.length === 0) {
    return () => false;
  }
  const last = want.length - 1;
  const tokenEq = (have: string, i: number): boolean =>
    i === last && prefix
      ? have.startsWith(want[i] as string)
      : have === want[i];
  if (exact) {
    return vt =>
      (prefix ? vt.length >= want.length : vt.length === want.length) &&
      want.every((_, i) => tokenEq(vt[i] as string, i));
  }
  // A token match: the value's tokens appear side by side somewhere in the field.
  return vt => {
    for (let start = 0; start + want.length <= vt.length; start++) {
      let ok = true;
      for (let i = 0; i < want.length && ok; i++) {
        ok = tokenEq(vt[start + i] as string, i);
      }
      if (ok) {
        return true;
      }
    }
    return false;
  };
}

function stringClause(field: FieldDef, raw: string): Predicate {
  let exact = false;
  let negate = false;
  if (raw.startsWith('=')) {
    exact = true;
    raw = raw.slice(1).trimStart();
  } else if (raw.length >= 2 && raw.startsWith('!')) {
    negate = true;
    if (raw[1] === '=') {
      exact = true;
      raw = raw.slice(2).trimStart();
    } else {
      raw = raw.slice(1).trimStart();
    }
  }
  if (raw === '') {
    throw new ApiError(
      400,
      `Error with filter field \`${field.name}\`: Filter value cannot be empty.`
    );
  }
  const rawValues =
    raw.startsWith('[') && raw.endsWith(']')
      ? splitValues(raw.slice(1, -1))
      : [raw];
  const tests = rawValues.map(v => stringTest(v, exact));
  const name = field.name;
  const hit: Predicate = d => {
    for (const v of scalarsAt(d, name)) {
      if (typeof v !== 'string') {
        continue;
      }
      const vt = tokenize(v);
      for (const test of tests) {
        if (test(vt)) {
          return true;
        }
      }
    }
    return false;
  };
  return negate ? d => !hit(d) : hit;
}
