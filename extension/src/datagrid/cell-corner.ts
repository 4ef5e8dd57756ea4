import type { DataGrid } from '@lumino/datagrid';

/**
 * The bottom-left corner of a body cell, in CSS pixels from the grid element's top-left corner
 * as the grid is scrolled now: where a note or a menu about the cell opens.
 */
export function cellCorner(
  grid: DataGrid,
  row: number,
  column: number
): { x: number; y: number } {
  return {
    x: grid.headerWidth + grid.columnOffset('body', column) - grid.scrollX,
    y:
      grid.headerHeight +
      grid.rowOffset('body', row) +
      grid.rowSize('body', row) -
      grid.scrollY
  };
}
