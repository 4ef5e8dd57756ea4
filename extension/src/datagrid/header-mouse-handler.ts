import { BasicMouseHandler, type DataGrid } from '@lumino/datagrid';

/** Pixels either side of a column border that belong to the resize handle, not to sorting. */
const RESIZE_MARGIN = 6;
/** A header pressed and moved further than this is dragged to a new place, not clicked. */
const DRAG_THRESHOLD = 6;

export interface HeaderMouseCallbacks {
  /** A plain click on a column header (not on its resize border). */
  headerClicked(column: number): void;
  /** A double click on a body cell. */
  cellOpened(row: number, column: number): void;
  /** A header dragged and dropped onto another column's place (grids whose columns can move). */
  columnMoved?(from: number, to: number): void;
  /** The user finished dragging a column's border. */
  columnsResized?(): void;
}

/** A header press that is a click until it moves. */
interface HeaderPress {
  column: number;
  x: number;
  dragging: boolean;
}

/**
 * Lumino's mouse handling (selection, resizing, scrolling) plus the two gestures users expect
 * from a results grid: click a header to sort, double-click a cell to read its whole value.
 */
export class HeaderMouseHandler extends BasicMouseHandler {
  private press: HeaderPress | undefined;
  private resizing = false;
  private marker: HTMLElement | undefined;

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
      // A click sorts when the button comes up unmoved; moved, the header is being dragged.
      this.press = { column: hit.column, x: event.clientX, dragging: false };
      return;
    }
    this.resizing = hit.region === 'column-header' && onBorder;
    super.onMouseDown(grid, event);
  }

  override onMouseMove(grid: DataGrid, event: MouseEvent): void {
    const press = this.press;
    if (!press) {
      super.onMouseMove(grid, event);
      return;
    }
    if (
      !press.dragging &&
      this.callbacks.columnMoved &&
      Math.abs(event.clientX - press.x) > DRAG_THRESHOLD
    ) {
      press.dragging = true;
      grid.node.classList.add('searchbook-mod-draggingColumn');
    }
    if (press.dragging) {
      this.showDropMarker(grid, press.column, this.dropColumn(grid, event));
    }
  }

  override onMouseUp(grid: DataGrid, event: MouseEvent): void {
    const press = this.press;
    if (press) {
      this.press = undefined;
      this.hideDropMarker(grid);
      if (!press.dragging) {
        this.callbacks.headerClicked(press.column);
        return;
      }
      const to = this.dropColumn(grid, event);
      if (to !== press.column) {
        this.callbacks.columnMoved?.(press.column, to);
      }
      return;
    }
    // Lumino's release (below) forgets the press: whether it was on a border is read first.
    const resized = this.resizing;
    this.resizing = false;
    super.onMouseUp(grid, event);
    if (resized) {
      this.callbacks.columnsResized?.();
    }
  }

  override release(): void {
    this.press = undefined;
    this.resizing = false;
    super.release();
  }

  /** The column whose place the dragged header takes: the one under the pointer, or the first or last one past the edges. */
  private dropColumn(grid: DataGrid, event: MouseEvent): number {
    const box = grid.node.getBoundingClientRect();
    const hit = grid.hitTest(event.clientX, box.top + 1);
    const last = grid.dataModel ? grid.dataModel.columnCount('body') - 1 : 0;
    if (hit.region === 'column-header' || hit.region === 'body') {
      return hit.column;
    }
    return event.clientX < box.left + grid.headerWidth ? 0 : last;
  }

  /** A bar where the dragged column would land: before the column it takes the place of, or after it when moving right. */
  private showDropMarker(grid: DataGrid, from: number, column: number): void {
    if (!this.marker) {
      this.marker = document.createElement('div');
      this.marker.className = 'searchbook-ColumnDropMarker';
      grid.node.append(this.marker);
    }
    const x =
      grid.headerWidth +
      grid.columnOffset('body', column) +
      (column > from ? grid.columnSize('body', column) : 0) -
      grid.scrollX;
    this.marker.style.left = `${Math.max(grid.headerWidth, x) - 1}px`;
    this.marker.style.height = `${grid.headerHeight}px`;
  }

  private hideDropMarker(grid: DataGrid): void {
    this.marker?.remove();
    this.marker = undefined;
    grid.node.classList.remove('searchbook-mod-draggingColumn');
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
