/**
 * Range field types (integer_range, long_range, float_range, double_range, date_range):
 * each value is an interval `{gt|gte, lt|lte}`. A `term` query matches the documents whose
 * interval holds the value; a `range` query those whose interval intersects its own
 * (the default relation). Both are constant-score, as in Elasticsearch.
 */
import { isObject, type Json } from '../json-value';
import type { ResolvedField } from '../mapping';
import { parseWithFormat } from './date-format';
import { resolveDate } from './date-math';
import { NO_MATCH, type Scorer } from './scorer';
import { rawValues } from './values';

export const RANGE_TYPES = new Set([
  'integer_range',
  'long_range',
  'float_range',
  'double_range',
  'date_range'
]);

export function isRangeType(type: string): boolean {
  return RANGE_TYPES.has(type);
}

interface Interval {
  low: number;
  high: number;
}

function bound(field: ResolvedField, v: Json | undefined): number | undefined {
  if (v === undefined || v === null) {
    return undefined;
  }
  if (field.type === 'date_range') {
    return parseWithFormat(v, field.format);
  }
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** The closed interval a stored value covers (exclusive ends moved in by one unit for integers and dates). */
function intervalOf(field: ResolvedField, v: Json): Interval | undefined {
  if (!isObject(v)) {
    return undefined;
  }
  const integral =
    field.type !== 'float_range' && field.type !== 'double_range';
  const step = integral ? 1 : 0;
  const gte = bound(field, v['gte'] ?? v['from']);
  const gt = bound(field, v['gt']);
  const lte = bound(field, v['lte'] ?? v['to']);
  const lt = bound(field, v['lt']);
  return {
    low: gte ?? (gt !== undefined ? gt + step : -Infinity),
    high: lte ?? (lt !== undefined ? lt - step : Infinity)
  };
}

function intervalsOf(
  field: ResolvedField,
  view: Parameters<Scorer>[0]
): Interval[] {
  return rawValues(view, field)
    .map(v => intervalOf(field, v))
    .filter((i): i is Interval => i !== undefined);
}

export function rangeFieldTerm(
  field: ResolvedField,
  value: Json | undefined,
  boost: number
): Scorer {
  const at =
    field.type === 'date_range'
      ? resolveDate(value, false, Date.now(), field.format)
      : bound(field, value);
  const score = Math.fround(boost);
  return view =>
    at !== undefined &&
    intervalsOf(field, view).some(i => i.low <= at && at <= i.high)
      ? score
      : NO_MATCH;
}

export function rangeFieldQuery(
  field: ResolvedField,
  bounds: { gt?: Json; gte?: Json; lt?: Json; lte?: Json },
  boost: number
): Scorer {
  const conv = (v: Json | undefined, up: boolean): number | undefined =>
    v === undefined
      ? undefined
      : field.type === 'date_range'
        ? resolveDate(v, up, Date.now(), field.format)
        : bound(field, v);
  const low = conv(bounds.gte, false) ?? conv(bounds.gt, true) ?? -Infinity;
  const high = conv(bounds.lte, true) ?? conv(bounds.lt, false) ?? Infinity;
  const score = Math.fround(boost);
  return view =>
    intervalsOf(field, view).some(i => i.low <= high && low <= i.high)
      ? score
      : NO_MATCH;
}
