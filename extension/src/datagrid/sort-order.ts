export type SortDirection = 'ascending' | 'descending';
import { ownValue } from '@searchbook/contracts/own-fields';
import { ExactNumber, exactJson } from '@searchbook/contracts/exact-json';

export interface SortState {
  column: string;
  direction: SortDirection;
}

/** What a header click does: ascending first, then descending, then back to the engine's order. */
export function nextSort(
  current: SortState | null,
  column: string
): SortState | null {
  if (!current || current.column !== column) {
    return { column, direction: 'ascending' };
  }
  return current.direction === 'ascending'
    ? { column, direction: 'descending' }
    : null;
}

const collator = new Intl.Collator(undefined, {
  numeric: true,
  sensitivity: 'base'
});

/**
 * Orders two cell values: numbers by value, everything else as text; empty cells always go
 * last, whatever the direction, as spreadsheets do.
 */
function compare(a: unknown, b: unknown): number {
  if (isNumeric(a) && isNumeric(b)) {
    return compareNumbers(a, b);
  }
  if (typeof a === 'boolean' && typeof b === 'boolean') {
    return Number(a) - Number(b);
  }
  const textA = typeof a === 'string' ? a : exactJson(a);
  const textB = typeof b === 'string' ? b : exactJson(b);
  return collator.compare(textA, textB);
}

const isNumeric = (value: unknown): value is number | ExactNumber =>
  typeof value === 'number' || value instanceof ExactNumber;

/** Numbers by value; two a double cannot tell apart (longs past 2^53) by their digits. */
function compareNumbers(
  a: number | ExactNumber,
  b: number | ExactNumber
): number {
  const difference = Number(a) - Number(b);
  if (difference !== 0 || Number.isNaN(difference)) {
    return difference;
  }
  const whole = /^-?\d+$/;
  const textA = String(a);
  const textB = String(b);
  return whole.test(textA) && whole.test(textB)
    ? Number(BigInt(textA) > BigInt(textB)) -
        Number(BigInt(textA) < BigInt(textB))
    : 0;
}

const isEmpty = (value: unknown): boolean =>
  value === null || value === undefined;

/** Row positions in display order; a stable sort, so equal values keep the engine's order. */
export function sortedRowOrder(
  rows: readonly Record<string, unknown>[],
  sort: SortState | null
): number[] {
  const order = rows.map((_, index) => index);
  if (!sort) {
    return order;
  }
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const values = rows.map(row => ownValue(row, sort.column));
  return order.sort((i, j) => {
    const a = values[i];
    const b = values[j];
    if (isEmpty(a) || isEmpty(b)) {
      return isEmpty(a) === isEmpty(b) ? 0 : isEmpty(a) ? 1 : -1;
    }
    return sign * compare(a, b);
  });
}
