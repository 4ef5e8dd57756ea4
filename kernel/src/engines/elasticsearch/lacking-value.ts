/**
 * Reading on from a row that lacks the field a grid is sorted by. Such rows (a keyword's sort
 * value is then null) come after every row holding a value, in either direction, among
 * themselves in the tie-breaker's order. So the rows after one of them are the rows lacking
 * the field whose tie-breaker values come after its own: a search of those rows sorted by the
 * tie-breaker alone, from the tie-breaker values alone, reads them without sending the null back
 * (OpenSearch 2.19 fails a `search_after` holding one with a null pointer error; Elasticsearch
 * takes it, one request a block, and is left to). Going backwards the rows lacking the field come
 * first, and the rows holding one follow from the last of them.
 *
 * A number or date field's missing rows carry a stand-in instead of null: the type's largest
 * value going up, its smallest going down (2147483647, Long.MAX_VALUE as exact digits,
 * "Infinity"). OpenSearch 2.19 answers a `search_after` from one with no rows at all past it
 * while the clause leaves `missing` to its default (it skips every segment whose values all sort
 * before the stand-in: reverse-sort.ts), so the rows after such a row are read the same way: the
 * rows whose sort value is that stand-in (lacking the field, or holding nothing but that
 * extreme, which ties with them), by the tie-breaker alone.
 */
import type { JsonValue } from '../../console/cell';
import { literalDigits } from '../../json/exact-integers';
import { NOT_FIELDS } from './reverse-sort';
import { rowsWithValue, within, type RankedSort } from './sorted-places';

/** The field of a sort of one plain field clause (`{ field: { order } }`); undefined for anything else. */
export function onlySortField(sort: JsonValue[]): string | undefined {
  const [clause] = sort;
  if (
    sort.length !== 1 ||
    clause === null ||
    typeof clause !== 'object' ||
    Array.isArray(clause)
  ) {
    return undefined;
  }
  const entries = Object.entries(clause);
  const [name, spec] = entries[0] ?? [];
  const plain =
    spec === 'asc' ||
    spec === 'desc' ||
    (spec !== null &&
      typeof spec === 'object' &&
      !Array.isArray(spec) &&
      Object.keys(spec).every(key => key === 'order'));
  return entries.length === 1 &&
    name !== undefined &&
    !NOT_FIELDS.has(name) &&
    plain
    ? name
    : undefined;
}

/** The view's rows lacking `field` (`lacking`), or holding it. */
export function rowsLacking(
  query: JsonValue | undefined,
  field: string,
  lacking: boolean
): JsonValue {
  return within(query, rowsWithValue({ field }), lacking);
}

/**
 * The sort value a row lacking the field gets, by the field's type, going up and going down:
 * Lucene's missing value for the type's sort (an int's, a long's, a float's or double's).
 * A field of the type can hold no value past it, so the rows sorting at it are easy to tell.
 */
const STAND_INS: Record<string, readonly [unknown, unknown]> = {
  integer: [2147483647, -2147483648],
  short: [2147483647, -2147483648],
  byte: [2147483647, -2147483648],
  long: ['9223372036854775807', '-9223372036854775808'],
  date: ['9223372036854775807', '-9223372036854775808'],
  double: ['Infinity', '-Infinity'],
  float: ['Infinity', '-Infinity'],
  half_float: ['Infinity', '-Infinity'],
  scaled_float: ['Infinity', '-Infinity']
};

/** Whether `value` is the sort value of a row lacking the field the grid is sorted by. */
export function isMissingStandIn(
  value: JsonValue | undefined,
  rank: RankedSort
): boolean {
  const standIns = STAND_INS[rank.type];
  if (value === undefined || !standIns) {
    return false;
  }
  // Going up the missing rows sort last at the largest value, going down at the smallest.
  const standIn = rank.order === 'asc' ? standIns[0] : standIns[1];
  return value === standIn || literalDigits(value) === standIn;
}

/**
 * The view's rows whose sort value is `standIn` (`atStandIn`), or the others: a date has no
 * value at the stand-in, so those are the rows lacking it; a number's are the rows with no
 * value before the stand-in in the sort (holding none, or only the extreme itself).
 */
export function rowsAtStandIn(
  query: JsonValue | undefined,
  rank: RankedSort,
  standIn: JsonValue,
  atStandIn: boolean
): JsonValue {
  if (rank.date) {
    return rowsLacking(query, rank.field, atStandIn);
  }
  const before: Record<string, JsonValue> =
    rank.order === 'asc' ? { lt: standIn } : { gt: standIn };
  return within(query, { range: { [rank.field]: before } }, atStandIn);
}
