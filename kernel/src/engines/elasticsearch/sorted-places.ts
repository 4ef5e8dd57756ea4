/**
 * Where a row sits in a grid sorted by one number or date field, found by counting instead of
 * walking. The rows before a threshold are a `range` clause: going up, every row whose smallest
 * value is below it (`lt`: a document with any value below it sorts by one); going down, every
 * row whose largest value is above it (`gt`). Counted on the point in time under the view's own
 * filter, that clause is exactly the first rows of the order, and its negation (`must_not`)
 * exactly the rest, rows without a value included (they sort last either way). So row `k` is
 * read by a search of the rest from `k - count`, once thresholds have narrowed `count` to within
 * the result window of `k`. Pure: the reader sends the counts and the searches.
 *
 * Thresholds are worked out on one axis that grows with the order (the value going up, its
 * negation going down), so both directions narrow the same way.
 */
import type { JsonValue } from '../../console/cell';

/** The one sort clause a grid's rows can be placed by, and how its values count. */
export interface RankedSort {
  field: string;
  order: 'asc' | 'desc';
  /** `integer`: whole numbers (and dates as epoch milliseconds); `number`: any double. */
  values: 'integer' | 'number';
  /** Dates: thresholds are sent as epoch milliseconds. */
  date: boolean;
  /** The field's mapped type (`integer`, `long`, `double`, `date` …). */
  type: string;
}

/**
 * Thresholds asked for in one request: a few spread evenly (each round narrows the span to a
 * 1/(SPREAD+1) part whatever the values), and two either side of where the row would be were
 * the values spread evenly, half a window apart, which usually settles it in one round.
 */
export const SPREAD = 3;
/** Rounds before giving up and walking from the nearest counted row. */
export const MAX_ROUNDS = 12;

/** The rows strictly before `threshold` (on the axis) in the order. */
export function rowsBefore(rank: RankedSort, threshold: number): JsonValue {
  const bound: Record<string, JsonValue> =
    rank.order === 'asc' ? { lt: threshold } : { gt: axisValue(threshold) };
  return {
    range: {
      [rank.field]: rank.date ? { ...bound, format: 'epoch_millis' } : bound
    }
  };
}

/** The rows holding a value at all; the rest sort last in both directions. */
export function rowsWithValue(rank: Pick<RankedSort, 'field'>): JsonValue {
  return { exists: { field: rank.field } };
}

/** The view's filter narrowed to `part`, or to the rows not in `part`. */
export function within(
  query: JsonValue | undefined,
  part: JsonValue,
  negated: boolean
): JsonValue {
  return {
    bool: {
      ...(query !== undefined ? { filter: [query] } : {}),
      [negated ? 'must_not' : 'filter']: [part]
    }
  };
}

/** A value on the axis, or back (its own inverse). Zero stays zero, not -0. */
export function axisValue(value: number): number {
  return -value || 0;
}

/** The lowest and highest axis values of the view's rows, from the field's min and max. */
export function axisSpan(
  rank: RankedSort,
  min: number,
  max: number
): { low: number; high: number } | undefined {
  const usable = (v: number) =>
    rank.values === 'integer'
      ? Number.isSafeInteger(v)
      : Number.isFinite(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER;
  if (!usable(min) || !usable(max) || min > max) {
    return undefined;
  }
  return rank.order === 'asc'
    ? { low: min, high: max }
    : { low: axisValue(max), high: axisValue(min) };
}

/**
 * Thresholds strictly above `low`, strictly below `high` (none: unbounded), and at most `top`
 * (the highest axis value), rising; empty when none fits. `share` (0..1) is how far through
 * the rows between `low` and `high` the row sits, `margin` half a window as a share of them.
 */
export function probes(
  rank: RankedSort,
  bracket: { low: number; high: number | undefined; top: number },
  share: number,
  margin: number
): number[] {
  const { low, high, top } = bracket;
  const end = high ?? top;
  const span = end - low;
  const raw = [
    ...Array.from(
      { length: SPREAD },
      (_, k) =>
        low + (span * (k + 1)) / (high === undefined ? SPREAD : SPREAD + 1)
    ),
    low + span * (share - margin),
    low + span * (share + margin)
  ];
  const fits = (v: number) =>
    Number.isFinite(v) && v > low && (high === undefined ? v <= top : v < high);
  const values = raw
    .map(v => (rank.values === 'integer' ? Math.floor(v) : v))
    .filter(fits)
    .sort((a, b) => a - b);
  return values.filter((v, i) => i === 0 || v !== values[i - 1]);
}

/**
 * How row `row` (0-based) is reached: `rest`, the `skip`th row (0-based, within the result
 * window) of the rows not in `part`; `after`, the `rows` rows in `part` come first, the rest is
 * walked from the last of them. Undefined: the counts place nothing (values past what a double
 * holds exactly, counts that disagree), and the grid walks as before.
 */
export type SortedPlace =
  | { kind: 'rest'; part: JsonValue; skip: number }
  | { kind: 'after'; part: JsonValue; rows: number }
  | undefined;

export interface SortedCounts {
  /** The view's rows in each part, counted in one request. */
  count(parts: JsonValue[]): Promise<number[]>;
  /** The field's smallest and largest value over the view's rows, and how many rows hold one. */
  span(): Promise<{ min: number | null; max: number | null; present: number }>;
}

export async function placeRow(
  rank: RankedSort,
  row: number,
  window: number,
  counts: SortedCounts
): Promise<SortedPlace> {
  const { min, max, present } = await counts.span();
  const placed = (part: JsonValue, before: number): SortedPlace =>
    row - before < window
      ? { kind: 'rest', part, skip: row - before }
      : before > 0
        ? { kind: 'after', part, rows: before }
        : undefined;
  if (!Number.isSafeInteger(present)) {
    return undefined;
  }
  if (row >= present) {
    return placed(rowsWithValue(rank), present);
  }
  const span =
    min === null || max === null ? undefined : axisSpan(rank, min, max);
  if (!span) {
    return undefined;
  }
  // Invariant: the rows before `low` number `before` ≤ row; those before `high` (unbounded: every row with a value) more.
  let low = span.low;
  let before = 0;
  let high: number | undefined;
  let beforeHigh = present;
  for (let round = 0; round < MAX_ROUNDS && row - before >= window; round++) {
    const between = beforeHigh - before;
    const thresholds = probes(
      rank,
      { low, high, top: span.high },
      (row - before + 0.5) / between,
      window / 2 / between
    );
    if (thresholds.length === 0) {
      // One value held by more rows than the window: they are walked in the tie-breaker's order.
      break;
    }
    const found = await counts.count(thresholds.map(t => rowsBefore(rank, t)));
    let previous = before;
    for (const [i, threshold] of thresholds.entries()) {
      const n = found[i];
      // Counts must rise with the threshold between the two known ones; anything else proves nothing.
      if (
        n === undefined ||
        !Number.isSafeInteger(n) ||
        n < previous ||
        n > beforeHigh
      ) {
        return undefined;
      }
      previous = n;
      if (n <= row) {
        low = threshold;
        before = n;
      } else if (high === undefined || threshold < high) {
        high = threshold;
        beforeHigh = n;
        break;
      }
    }
  }
  return placed(rowsBefore(rank, low), before);
}
