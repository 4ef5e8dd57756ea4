import type { SelectionModel } from '@lumino/datagrid';

/** Makes one body cell the whole selection and the active cell. */
export function selectCell(
  selection: SelectionModel,
  row: number,
  column: number
): void {
  selection.select({
    r1: row,
    c1: column,
    r2: row,
    c2: column,
    cursorRow: row,
    cursorColumn: column,
    clear: 'all'
  });
}
