import { BasicKeyHandler, type DataGrid } from '@lumino/datagrid';
import { jumpTo, selectAll } from './keyboard-moves';

export interface GridKeyCallbacks {
  copy(): void;
  /** The value view of the cursor's cell (Alt-Enter; Enter too where nothing is edited). */
  openCursorCell(): void;
  closeDetail(): void;
  /** Whether the value view is open (Escape closes it first). */
  detailOpen?(): boolean;
  /** F2 and Enter: edit the cursor's cell (editable grids only). */
  editCursorCell?(): void;
  /** Alt-S: sort by the cursor's column, as a click on its header does. */
  sortCursorColumn?(): void;
  /** Alt-Shift-Left/Right: move the cursor's column one place, as dragging its header does. */
  moveCursorColumn?(by: -1 | 1): void;
  /** Delete: mark the selected rows for deletion (editable grids only). */
  deleteSelectedRows?(): void;
}

/**
 * Lumino's keyboard navigation (arrows, Page Up/Down, Shift-selection) plus what a grid in the
 * WAI-ARIA grid pattern needs: Home/End, Ctrl-Home/End, Ctrl-A, copy as TSV, Enter/F2 to edit
 * (or read) the active cell, Alt-Enter for its whole value, Alt-S to sort by its column,
 * Alt-Shift-Left/Right to move it,
 * Delete to mark rows, Escape to close the value view or shrink the selection to the cell.
 */
export class GridKeyHandler extends BasicKeyHandler {
  constructor(private readonly callbacks: GridKeyCallbacks) {
    super();
  }

  override onKeyDown(grid: DataGrid, event: KeyboardEvent): void {
    const accel = event.ctrlKey || event.metaKey;
    const key = event.key;
    const handled = (): void => {
      event.preventDefault();
      event.stopPropagation();
    };
    if (accel && !event.shiftKey && !event.altKey) {
      if (key.toLowerCase() === 'c') {
        handled();
        this.callbacks.copy();
        return;
      }
      if (key.toLowerCase() === 'a') {
        handled();
        selectAll(grid);
        return;
      }
    }
    if (key === 'Enter' && !accel) {
      handled();
      if (event.altKey || !this.callbacks.editCursorCell) {
        this.callbacks.openCursorCell();
      } else {
        this.callbacks.editCursorCell();
      }
      return;
    }
    if ((key === 'Home' || key === 'End') && !event.shiftKey) {
      handled();
      const selection = grid.selectionModel;
      const rows = grid.dataModel?.rowCount('body') ?? 0;
      const columns = grid.dataModel?.columnCount('body') ?? 0;
      const last = key === 'End';
      // Ctrl-Home / Ctrl-End: the first or last cell of the grid (in the panel's grid, a far jump).
      const row = accel
        ? last
          ? rows - 1
          : 0
        : Math.max(selection?.cursorRow ?? 0, 0);
      jumpTo(grid, row, last ? columns - 1 : 0);
      return;
    }
    if (key === 'F2' && this.callbacks.editCursorCell) {
      handled();
      this.callbacks.editCursorCell();
      return;
    }
    if (event.altKey && !accel && !event.shiftKey && event.code === 'KeyS') {
      handled();
      this.callbacks.sortCursorColumn?.();
      return;
    }
    if (
      event.altKey &&
      event.shiftKey &&
      !accel &&
      (key === 'ArrowLeft' || key === 'ArrowRight') &&
      this.callbacks.moveCursorColumn
    ) {
      handled();
      this.callbacks.moveCursorColumn(key === 'ArrowLeft' ? -1 : 1);
      return;
    }
    if (key === 'Delete' && this.callbacks.deleteSelectedRows) {
      handled();
      this.callbacks.deleteSelectedRows();
      return;
    }
    if (key === 'Escape') {
      if (this.callbacks.detailOpen?.()) {
        handled();
        this.callbacks.closeDetail();
        return;
      }
      // The active cell stays (as in JupyterLab's own grids): only a range shrinks to it.
      const selection = grid.selectionModel;
      if (selection && selection.cursorRow >= 0) {
        handled();
        jumpTo(grid, selection.cursorRow, selection.cursorColumn);
        return;
      }
      this.callbacks.closeDetail();
    }
    // Tab leaves the grid (one Tab stop, as the grid pattern has it); Lumino would move the cell.
    if (key === 'Tab') {
      return;
    }
    // Other Ctrl/Alt chords are JupyterLab's shortcuts (Lumino would start an edit on their letter).
    if ((accel || event.altKey) && key.length === 1) {
      return;
    }
    // Function keys and the menu key type nothing, but Lumino reads a typed letter from the key
    // code, and F10's is "y": Shift-F10 (the cell's menu) would open an editor under the menu.
    if (key === 'ContextMenu' || /^F\d+$/.test(key)) {
      return;
    }
    super.onKeyDown(grid, event);
    // A typed letter is the grid's, not a notebook's command-mode shortcut (D, D deletes a cell).
    if (!accel && !event.altKey && key.length === 1) {
      event.stopPropagation();
    }
  }
}
