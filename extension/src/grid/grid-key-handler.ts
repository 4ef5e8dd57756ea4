import { BasicKeyHandler, type DataGrid } from '@lumino/datagrid';

export interface GridKeyCallbacks {
  copy(): void;
  openCursorCell(): void;
  closeDetail(): void;
}

/** Lumino's keyboard navigation, with copy as TSV and Enter/Escape for the value view. */
export class GridKeyHandler extends BasicKeyHandler {
  constructor(private readonly callbacks: GridKeyCallbacks) {
    super();
  }

  override onKeyDown(grid: DataGrid, event: KeyboardEvent): void {
    const accel = event.ctrlKey || event.metaKey;
    if (accel && !event.shiftKey && !event.altKey && event.key.toLowerCase() === 'c') {
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
    if (event.key === 'Escape') {
      this.callbacks.closeDetail();
    }
    super.onKeyDown(grid, event);
  }
}
