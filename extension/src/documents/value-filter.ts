import type { Column } from '@searchbook/contracts/columns';
import type { FilterRow } from '@searchbook/contracts/panel-protocol';
import { ExactNumber } from '@searchbook/contracts/exact-json';

/**
 * The filter-bar row for "Filter by this value" (equals) or "Exclude this value" (not equals)
 * on a cell: its value as text (the kernel types it by the column, as a typed filter value);
 * an empty cell (null, or a field the document lacks) filters by presence instead. Undefined,
 * with why, for a value one row cannot name: an array or an object.
 */
export function valueFilter(
  column: Column,
  value: unknown,
  exclude: boolean
): { row: FilterRow } | { why: string } {
  if (value === null || value === undefined) {
    return {
      row: {
        column: column.name,
        operator: exclude ? 'is not null' : 'is null',
        value: ''
      }
    };
  }
  // A long past 2^53 is a number like any other: its digits are the filter's value.
  if (typeof value === 'object' && !(value instanceof ExactNumber)) {
    return {
      why: `${column.name} holds ${Array.isArray(value) ? 'a list' : 'an object'}: add a filter row on one of its values instead.`
    };
  }
  return {
    row: {
      column: column.name,
      operator: exclude ? 'not equals' : 'equals',
      value: String(value)
    }
  };
}
