import type { DataGrid } from '@lumino/datagrid';
import { selectCell } from './select-cell';

/** Makes (row, column) of the body the active and only selected cell, and scrolls to it. */
export function jumpTo(grid: DataGrid, row: number, column: number): void {
  const selection = grid.selectionModel;
  const rows = grid.dataModel?.rowCount('body') ?? 0;
  const columns = grid.dataModel?.columnCount('body') ?? 0;
  if (!selection || rows === 0 || columns === 0) {
    return;
  }
  const r = Math.min(Math.max(row, 0), rows - 1);
  const c = Math.min(Math.max(column, 0), columns - 1);
  selectCell(selection, r, c);
  grid.scrollToCursor();
}

/** Ctrl-A: every cell of the body, the active cell kept. */
export function selectAll(grid: DataGrid): void {
  const selection = grid.selectionModel;
  const rows = grid.dataModel?.rowCount('body') ?? 0;
  const columns = grid.dataModel?.columnCount('body') ?? 0;
  if (!selection || rows === 0 || columns === 0) {
    return;
  }
  selection.select({
    r1: 0,
    c1: 0,
    r2: rows - 1,
    c2: columns - 1,
    cursorRow: Math.max(selection.cursorRow, 0),
    cursorColumn: Math.max(selection.cursorColumn, 0),
    clear: 'all'
  });
}
