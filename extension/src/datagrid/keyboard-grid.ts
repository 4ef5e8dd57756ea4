import type { DataGrid } from '@lumino/datagrid';
import { selectCell } from './select-cell';

/** The active cell as a screen reader says it. */
export interface SpokenCell {
  /** The column's name. */
  column: string;
  /** The row as its row header shows it (1-based, or `new`). */
  row: string;
  /** The value as the cell shows it, as text. */
  value: string;
}

export interface KeyboardGridOptions {
  /** What the grid is, for its accessible name. */
  label: string;
  /** The cell at (row, column) of the body, or undefined when there is none. */
  describe(row: number, column: number): SpokenCell | undefined;
}

const numberFormat = new Intl.NumberFormat('en-US');
let grids = 0;

/**
 * Makes a Lumino DataGrid a Tab stop in the WAI-ARIA grid pattern: its own element takes the
 * focus (Lumino's viewport has tabindex=-1 and is reached by a click only), keys typed there
 * go to the grid's key handler, the active cell is kept across focus changes and is a hidden
 * row and cell the grid points at (aria-activedescendant), and a polite live region says the
 * cell moved to (column, row, value) and the row count. The canvas has no cell elements a
 * screen reader could read.
 */
export class KeyboardGrid {
  /** Visually hidden, outside the grid element: added to the grid's parent by the view. */
  readonly announcer = document.createElement('div');
  private readonly activeRow = document.createElement('div');
  private readonly activeCell = document.createElement('div');
  private spoken = '';
  /** The active cell last seen, put back after the rows were reset. */
  private last: { row: number; column: number } | undefined;

  constructor(
    private readonly grid: DataGrid,
    private readonly options: KeyboardGridOptions
  ) {
    const node = grid.node;
    const id = `searchbook-grid-cell-${++grids}`;
    node.tabIndex = 0;
    node.setAttribute('role', 'grid');
    node.setAttribute('aria-label', options.label);
    node.setAttribute('aria-multiselectable', 'true');
    node.classList.add('searchbook-KeyboardGrid');
    this.activeRow.className = 'searchbook-VisuallyHidden';
    this.activeRow.setAttribute('role', 'row');
    this.activeCell.id = id;
    this.activeCell.setAttribute('role', 'gridcell');
    this.activeRow.append(this.activeCell);
    // Lumino's viewport is focusable (tabindex=-1), which a grid may only hold as a row group;
    // the hidden row of the active cell is its row.
    grid.viewport.node.setAttribute('role', 'rowgroup');
    grid.viewport.node.append(this.activeRow);
    this.announcer.className = 'searchbook-VisuallyHidden';
    this.announcer.setAttribute('aria-live', 'polite');
    this.announcer.setAttribute('aria-atomic', 'true');
    this.announcer.dataset.gridAnnouncer = '';

    // Keys typed while the grid element itself has the focus: what Lumino's viewport would get.
    node.addEventListener('keydown', event => {
      if (event.target === node) {
        this.ensureActiveCell();
        grid.handleEvent(event);
      }
    });
    // A click focuses Lumino's viewport, as do its editors when they close: the grid element
    // is the one in the Tab order and the one a screen reader follows.
    grid.viewport.node.addEventListener('focus', () =>
      node.focus({ preventScroll: true })
    );
    node.addEventListener('focus', () => {
      // Reached by keyboard: an active cell at once. A click makes its own (or, on a header,
      // none: "Copy TSV" then copies the whole grid, as before any selection).
      if (this.byKeyboard) {
        this.ensureActiveCell();
      }
      this.speak(true);
    });
    grid.selectionModel?.changed.connect(() => this.keepActiveCell());
    grid.dataModel?.changed.connect(() => this.keepActiveCell());
  }

  /** Gives the grid the keyboard focus, keeping its active cell (the first cell when it has none). */
  focus(): void {
    this.grid.node.focus({ preventScroll: true });
  }

  /** Says something about the grid itself (a column moved), in its live region. */
  say(text: string): void {
    this.spoken = text;
    this.announcer.textContent = text;
  }

  /** Says the active cell again (its value or the row count changed). */
  refresh(): void {
    this.speak(false);
  }

  /** The grid has the focus and the browser shows it as keyboard focus (not after a click). */
  private get byKeyboard(): boolean {
    const node = this.grid.node;
    return document.activeElement === node && node.matches(':focus-visible');
  }

  /** A grid reached by Tab has an active cell at once, so arrows move from somewhere. */
  private ensureActiveCell(): void {
    const selection = this.grid.selectionModel;
    const data = this.grid.dataModel;
    if (!selection || !data || selection.cursorRow >= 0) {
      return;
    }
    if (data.rowCount('body') === 0 || data.columnCount('body') === 0) {
      return;
    }
    selectCell(selection, 0, 0);
  }

  /**
   * A new sort or filter resets the rows, and Lumino's selection with them: the active cell
   * stays where it was (the same row and column, within the new rows) once rows are there.
   */
  private keepActiveCell(): void {
    const selection = this.grid.selectionModel;
    const data = this.grid.dataModel;
    if (selection && selection.cursorRow >= 0) {
      this.last = { row: selection.cursorRow, column: selection.cursorColumn };
    } else if (
      this.last &&
      this.byKeyboard &&
      data &&
      data.rowCount('body') > 0
    ) {
      const { row, column } = this.last;
      const r = Math.min(row, data.rowCount('body') - 1);
      const c = Math.min(column, data.columnCount('body') - 1);
      if (c >= 0) {
        if (selection) {
          selectCell(selection, r, c);
        }
        return;
      }
    }
    this.speak(false);
  }

  private speak(always: boolean): void {
    const selection = this.grid.selectionModel;
    const data = this.grid.dataModel;
    const rows = data?.rowCount('body') ?? 0;
    const row = selection?.cursorRow ?? -1;
    const column = selection?.cursorColumn ?? -1;
    const cell =
      row >= 0 && column >= 0 ? this.options.describe(row, column) : undefined;
    const count = `${numberFormat.format(rows)} ${rows === 1 ? 'row' : 'rows'}`;
    const node = this.grid.node;
    let text: string;
    if (cell) {
      this.activeRow.setAttribute('aria-rowindex', String(row + 1));
      this.activeCell.setAttribute('aria-colindex', String(column + 1));
      // An empty cell says so: nothing after the colon sounds like a reader cut short.
      const value = cell.value === '' ? 'empty' : cell.value;
      // Both numbers alike: "row 25,000 of 25,000 rows".
      const at = /^\d+$/.test(cell.row)
        ? numberFormat.format(Number(cell.row))
        : cell.row;
      this.activeCell.textContent = `${cell.column}: ${value}`;
      node.setAttribute('aria-activedescendant', this.activeCell.id);
      text = `${cell.column}, row ${at} of ${count}: ${value}`;
    } else {
      this.activeRow.removeAttribute('aria-rowindex');
      this.activeCell.removeAttribute('aria-colindex');
      this.activeCell.textContent = '';
      node.removeAttribute('aria-activedescendant');
      text = `${this.options.label}: ${count}`;
    }
    node.dataset.activeCell = row >= 0 && column >= 0 ? `${row},${column}` : '';
    if (text !== this.spoken || always) {
      this.spoken = text;
      this.announcer.textContent = text;
    }
  }
}
