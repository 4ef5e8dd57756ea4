/**
 * Reading on from a row that lacks the field a grid is sorted by. Such rows (a keyword's sort
 * value is then null) come after every row holding a value, in either direction, among
 * themselves in the tie-breaker's order. So the rows after one of them are the rows lacking
 * the field whose tie-breaker values come after its own: a search of those rows sorted by the
 * tie-breaker alone, from the tie-breaker values alone, reads them without sending the null back
 * (OpenSearch 2.19 fails a `search_after` holding one with a null pointer error; Elasticsearch
 * takes it, one request a block, and is left to). Going backwards the rows lacking the field come
 * first, and the rows holding one follow from the last of them.
 */
import type { JsonValue } from '../../console/cell';
import { NOT_FIELDS } from './reverse-sort';
import { rowsWithValue, within } from './sorted-places';

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
