import type { Column } from '@searchbook/contracts/columns';
import type { CellEdit } from '@searchbook/contracts/edit-protocol';
import { ownValue, setField } from '@searchbook/contracts/own-fields';
import { valueText } from './value-text';

/**
 * The cells of a copy of a row, as texts typed into a new row: every field a new row can set,
 * with the values given (a document's whole values, the row's pending texts over them). The id
 * and what the engine keeps for the document (`_index`, `_score`) are left out: the copy gets
 * the id the user types, or one chosen for it; leaves of arrays come with their array column.
 */
export function duplicateFields(
  columns: readonly Column[],
  values: Readonly<Record<string, unknown>>,
  typed: Readonly<Record<string, CellEdit>> = {}
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const column of columns) {
    if (column.primaryKey || column.readOnly || column.arrayParent) {
      continue;
    }
    const text =
      ownValue(typed, column.name) ??
      valueText(ownValue(values, column.name), column.json);
    if (text !== null && text !== undefined && text !== '') {
      setField(fields, column.name, text);
    }
  }
  return fields;
}
