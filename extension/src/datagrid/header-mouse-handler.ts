import { BasicMouseHandler, type DataGrid } from '@lumino/datagrid';

/** Pixels either side of a column border that belong to the resize handle, not to sorting. */
const RESIZE_MARGIN = 6;

export interface HeaderMouseCallbacks {
  /** A plain click on a column header (not on its resize border). */
  headerClicked(column: number): void;
  /** A double click on a body cell. */
  cellOpened(row: number, column: number): void;
}

/**
 * Lumino's mouse handling (selection, resizing, scrolling) plus the two gestures users expect
 * from a results grid: click a header to sort, double-click a cell to read its whole value.
 */
export class HeaderMouseHandler extends BasicMouseHandler {
  constructor(private readonly callbacks: HeaderMouseCallbacks) {
    super();
  }

  override onMouseDown(grid: DataGrid, event: MouseEvent): void {
    const hit = grid.hitTest(event.clientX, event.clientY);
    const onBorder = hit.x < RESIZE_MARGIN || hit.width - hit.x < RESIZE_MARGIN;
    if (
      hit.region === 'column-header' &&
      event.button === 0 &&
      !onBorder &&
      !event.shiftKey &&
      !event.ctrlKey &&
      !event.metaKey
    ) {
      this.callbacks.headerClicked(hit.column);
      return;
    }
    super.onMouseDown(grid, event);
  }

  override onMouseDoubleClick(grid: DataGrid, event: MouseEvent): void {
    const hit = grid.hitTest(event.clientX, event.clientY);
    if (hit.region === 'body') {
      this.callbacks.cellOpened(hit.row, hit.column);
      return;
    }
    super.onMouseDoubleClick(grid, event);
  }
}
