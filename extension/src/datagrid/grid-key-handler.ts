import { BasicKeyHandler, type DataGrid } from '@lumino/datagrid';

export interface GridKeyCallbacks {
  copy(): void;
  openCursorCell(): void;
  closeDetail(): void;
  /** F2: edit the cursor's cell (editable grids only). */
  editCursorCell?(): void;
}

/** Lumino's keyboard navigation, with copy as TSV, Enter/Escape for the value view, and Ctrl-Home/End. */
export class GridKeyHandler extends BasicKeyHandler {
  constructor(private readonly callbacks: GridKeyCallbacks) {
    super();
  }

  override onKeyDown(grid: DataGrid, event: KeyboardEvent): void {
    const accel = event.ctrlKey || event.metaKey;
    if (
      accel &&
      !event.shiftKey &&
      !event.altKey &&
      event.key.toLowerCase() === 'c'
    ) {
      event.preventDefault();
      event.stopPropagation();
      this.callbacks.copy();
      return;
    }
    if (event.key === 'Enter' && !accel) {
      event.preventDefault();
      event.stopPropagation();
      this.callbacks.openCursorCell();
      return;
    }
    // Ctrl-Home / Ctrl-End: to the first or last row (in the panel's grid, a far jump).
    if (accel && (event.key === 'Home' || event.key === 'End')) {
      event.preventDefault();
      event.stopPropagation();
      grid.scrollTo(grid.scrollX, event.key === 'Home' ? 0 : grid.maxScrollY);
      return;
    }
    if (event.key === 'F2' && this.callbacks.editCursorCell) {
      event.preventDefault();
      event.stopPropagation();
      this.callbacks.editCursorCell();
      return;
    }
    if (event.key === 'Escape') {
      this.callbacks.closeDetail();
    }
    super.onKeyDown(grid, event);
  }
}
