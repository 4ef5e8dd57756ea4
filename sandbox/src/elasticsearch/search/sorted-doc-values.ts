/**
 * A numeric or date field's doc values of one snapshot, sorted, as Lucene's points answer a
 * count: how many documents a one-sided range holds is a binary search, not a pass over the
 * documents. Each document counts once, by its smallest value (below a bound) or its largest
 * (above one); documents without a value are in neither list. Built on first use per snapshot
 * and field, so a write shows in the next refreshed snapshot's own copy.
 */
import type { ResolvedField } from '../mapping';
import type { IndexedView } from './field-indexes';
import { NO_VALUE, SEVERAL_VALUES, type NumericColumn } from './numeric-column';
import { docValues } from './values';

/** The bounds of a range on numbers (dates as epoch millis), as the range query resolved them. */
export interface NumericBounds {
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

/** A field's extremes and how many values it holds, over some documents. */
export interface FieldSummary {
  readonly min: number | null;
  readonly max: number | null;
  readonly values: number;
}

export class SortedDocValues implements FieldSummary {
  constructor(
    /** Each valued document's smallest value, ascending. */
    private readonly lows: Float64Array,
    /** Each valued document's largest value, ascending. */
    private readonly highs: Float64Array,
    /** Documents holding more than one value. */
    private readonly several: number,
    /** Values over all documents, each value of a document counted. */
    readonly values: number
  ) {}

  /** Documents holding a value. */
  get present(): number {
    return this.lows.length;
  }

  get min(): number | null {
    return this.lows.length > 0 ? (this.lows[0] as number) : null;
  }

  get max(): number | null {
    return this.highs.length > 0
      ? (this.highs[this.highs.length - 1] as number)
      : null;
  }

  /**
   * Documents with a value within the bounds; undefined when sorted values cannot tell (two
   * bounds while some document holds several values: its values may straddle the range).
   */
  count(bounds: NumericBounds): number | undefined {
    const { gt, gte, lt, lte } = bounds;
    const below = lt !== undefined || lte !== undefined;
    const above = gt !== undefined || gte !== undefined;
    if (below && above) {
      if (this.several > 0) {
        return undefined;
      }
      // One value per document: lows are the values.
      const from =
        gt !== undefined
          ? firstAbove(this.lows, gt, false)
          : firstAbove(this.lows, gte as number, true);
      const to =
        lt !== undefined
          ? firstAbove(this.lows, lt, true)
          : firstAbove(this.lows, lte as number, false);
      return Math.max(0, to - from);
    }
    if (below) {
      return lt !== undefined
        ? firstAbove(this.lows, lt, true)
        : firstAbove(this.lows, lte as number, false);
    }
    if (above) {
      return (
        this.highs.length -
        (gt !== undefined
          ? firstAbove(this.highs, gt, false)
          : firstAbove(this.highs, gte as number, true))
      );
    }
    return this.present;
  }
}

/** The first position holding a value above `bound` (or at it, when `inclusive`). */
function firstAbove(
  sorted: Float64Array,
  bound: number,
  inclusive: boolean
): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid] as number;
    if (inclusive ? v >= bound : v > bound) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

const built = new WeakMap<IndexedView, Map<string, SortedDocValues>>();

/** The sorted doc values of `field` (read through its column) over `snapshot`'s documents. */
export function sortedDocValues(
  snapshot: IndexedView,
  column: NumericColumn,
  field: ResolvedField
): SortedDocValues {
  let byField = built.get(snapshot);
  if (!byField) {
    built.set(snapshot, (byField = new Map()));
  }
  let sorted = byField.get(field.name);
  if (!sorted) {
    byField.set(field.name, (sorted = build(snapshot, column, field)));
  }
  return sorted;
}

function build(
  snapshot: IndexedView,
  column: NumericColumn,
  field: ResolvedField
): SortedDocValues {
  const seqs = snapshot.seqs();
  const present = valuedAmong(snapshot, column);
  const lows = new Float64Array(present);
  const highs = new Float64Array(present);
  let at = 0;
  let several = 0;
  let values = 0;
  for (let pos = 0; pos < seqs.length; pos++) {
    const value = column.valueOf(seqs[pos] as number);
    if (value === NO_VALUE) {
      continue;
    }
    if (value !== SEVERAL_VALUES) {
      lows[at] = value;
      highs[at++] = value;
      values++;
      continue;
    }
    // The column keeps one value per document: the others are read as the range query reads them.
    const all = docValues(snapshot.viewAt(pos), field) as number[];
    let low = Infinity;
    let high = -Infinity;
    for (const v of all) {
      low = v < low ? v : low;
      high = v > high ? v : high;
    }
    lows[at] = low;
    highs[at++] = high;
    several++;
    values += all.length;
  }
  lows.sort();
  // One value to each document (the usual case): its smallest is its largest, sorted once.
  if (several === 0) {
    return new SortedDocValues(lows, lows, several, values);
  }
  highs.sort();
  return new SortedDocValues(lows, highs, several, values);
}

/** Documents at `among` (positions in `snapshot`; none given: all of them) holding a value. */
export function valuedAmong(
  snapshot: IndexedView,
  column: NumericColumn,
  among?: Int32Array
): number {
  const seqs = snapshot.seqs();
  const length = among?.length ?? seqs.length;
  let n = 0;
  for (let i = 0; i < length; i++) {
    const pos = among ? (among[i] as number) : i;
    if (column.valueOf(seqs[pos] as number) !== NO_VALUE) {
      n++;
    }
  }
  return n;
}

/** The field's extremes and values over the documents at `among` (positions in `snapshot`). */
export function summaryAmong(
  snapshot: IndexedView,
  column: NumericColumn,
  field: ResolvedField,
  among: Int32Array
): FieldSummary {
  const seqs = snapshot.seqs();
  let min: number | null = null;
  let max: number | null = null;
  let values = 0;
  const see = (v: number): void => {
    min = min === null || v < min ? v : min;
    max = max === null || v > max ? v : max;
  };
  for (let i = 0; i < among.length; i++) {
    const pos = among[i] as number;
    const value = column.valueOf(seqs[pos] as number);
    if (value === NO_VALUE) {
      continue;
    }
    if (value !== SEVERAL_VALUES) {
      see(value);
      values++;
      continue;
    }
    const all = docValues(snapshot.viewAt(pos), field) as number[];
    all.forEach(see);
    values += all.length;
  }
  return { min, max, values };
}

const orders = new WeakMap<IndexedView, Map<string, Int32Array | null>>();

/**
 * The snapshot's positions in the order of `field` going up (1) or down (-1), ties and then
 * the documents without a value (last) in position order: the ranking of a search sorted by
 * the field alone, kept per snapshot as an index sort is. Null when a document holds several
 * values (its place would depend on the sort's mode).
 */
export function sortedOrder(
  snapshot: IndexedView,
  column: NumericColumn,
  field: ResolvedField,
  order: 1 | -1
): Int32Array | null {
  let byField = orders.get(snapshot);
  if (!byField) {
    orders.set(snapshot, (byField = new Map()));
  }
  const key = `${order}:${field.name}`;
  let sorted = byField.get(key);
  if (sorted === undefined) {
    byField.set(key, (sorted = buildOrder(snapshot, column, order)));
  }
  return sorted;
}

function buildOrder(
  snapshot: IndexedView,
  column: NumericColumn,
  order: 1 | -1
): Int32Array | null {
  const seqs = snapshot.seqs();
  const values = new Float64Array(seqs.length);
  const valued = new Int32Array(valuedAmong(snapshot, column));
  const out = new Int32Array(seqs.length);
  let at = 0;
  let missing = valued.length;
  for (let pos = 0; pos < seqs.length; pos++) {
    const value = column.valueOf(seqs[pos] as number);
    if (value === SEVERAL_VALUES) {
      return null;
    }
    if (value === NO_VALUE) {
      out[missing++] = pos;
    } else {
      values[pos] = value;
      valued[at++] = pos;
    }
  }
  valued.sort(
    (a, b) => ((values[a] as number) - (values[b] as number)) * order || a - b
  );
  out.set(valued);
  return out;
}
