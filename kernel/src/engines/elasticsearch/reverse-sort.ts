/**
 * A search's sort turned around, so the last rows of an order are one search away: the rows come
 * back last first, and the reader puts them back in place. Every clause flips, the tie-breaker
 * included; a field's clause also says outright what its forward order left to defaults, because
 * both defaults follow the direction: missing values go last in either direction, and a field with
 * several values sorts by its smallest going up and its largest going down. Kept as they were,
 * the reversed order would not be the forward order backwards.
 */
import type { JsonValue } from '../../console/cell';

/** Sort names that are no field: they take no `missing` nor `mode`. */
export const NOT_FIELDS = new Set([
  '_score',
  '_doc',
  '_shard_doc',
  '_index',
  '_id'
]);

type Direction = 'asc' | 'desc';

function flipped(order: Direction): Direction {
  return order === 'asc' ? 'desc' : 'asc';
}

function directionOf(value: JsonValue | undefined, name: string): Direction {
  if (value === 'asc' || value === 'desc') {
    return value;
  }
  // A clause without an order: `_score` goes down by default, everything else up.
  return name === '_score' ? 'desc' : 'asc';
}

/** One clause (`"field"`, `{ field: "asc" }` or `{ field: { order, ... } }`): its name, options and direction. */
function clauseParts(
  clause: JsonValue
):
  | { name: string; options: Record<string, JsonValue>; forward: Direction }
  | undefined {
  const [name, spec] =
    typeof clause === 'string'
      ? [clause, undefined]
      : clause !== null && typeof clause === 'object' && !Array.isArray(clause)
        ? (Object.entries(clause)[0] ?? [])
        : [];
  if (name === undefined) {
    return undefined;
  }
  const options: Record<string, JsonValue> =
    spec !== null && typeof spec === 'object' && !Array.isArray(spec)
      ? { ...spec }
      : {};
  const forward = directionOf(
    typeof spec === 'string' ? spec : options.order,
    name
  );
  return { name, options, forward };
}

/** One clause reversed. */
function reversedClause(clause: JsonValue): JsonValue {
  const parts = clauseParts(clause);
  if (!parts) {
    return clause;
  }
  const { name, options, forward } = parts;
  options.order = flipped(forward);
  if (!NOT_FIELDS.has(name)) {
    const missing = options.missing ?? '_last';
    options.missing =
      missing === '_last' ? '_first' : missing === '_first' ? '_last' : missing;
    options.mode ??= forward === 'asc' ? 'min' : 'max';
  }
  return { [name]: options };
}

/**
 * The sort with every field's place for missing values said outright (its default, last).
 * OpenSearch 2.19 skips a shard or a segment whose values all sort before a `search_after`
 * when the first clause leaves `missing` to its default, although the rows there lacking the
 * field sort after it: a page read on from a value would leave those rows out. Said outright,
 * every shard and segment is searched, and the order is the same.
 */
export function withMissingStated(sort: JsonValue[]): JsonValue[] {
  return sort.map(clause => {
    const parts = clauseParts(clause);
    if (!parts || NOT_FIELDS.has(parts.name)) {
      return clause;
    }
    const { name, options, forward } = parts;
    return {
      [name]: {
        ...options,
        order: forward,
        missing: options.missing ?? '_last'
      }
    };
  });
}

/** The whole sort reversed, clause by clause in the same order of precedence. */
export function reversedSort(sort: JsonValue[]): JsonValue[] {
  return sort.map(reversedClause);
}
