import type { DataGrid } from '@lumino/datagrid';
import { GridKeyHandler } from '../datagrid/grid-key-handler';
import { HeaderMouseHandler } from '../datagrid/header-mouse-handler';
import { KeyboardGrid, type SpokenCell } from '../datagrid/keyboard-grid';
import { rangeAsTsv, selectedRange } from '../datagrid/selection-copy';
import { selectCell } from '../datagrid/select-cell';
import { spokenValue } from '../datagrid/spoken-value';
import type { ValueView } from '../datagrid/value-view';
import { copyText } from '../datagrid/clipboard';
import { confirmDone, hint } from './confirmations';
import type { EditableRowsModel } from './editable-rows-model';
import type { GridColumns } from './grid-columns';
import type { GridEditing } from './grid-editing';

const numberFormat = new Intl.NumberFormat('en-US');
/** Rows one Ctrl-C copies at most: blocks scrolled past are fetched again for it. */
const MAX_COPY_ROWS = 10_000;

/** What the cells' mouse and keys ask of the tab. */
export interface CellActionsHost {
  /** The grid's accessible name. */
  label: string;
  /** Sorts by the column at this grid position (ascending, descending, off). */
  sortBy(column: number): void;
  /** Says why an action failed on the status line. */
  showError(message: string): void;
}

/**
 * What the document grid's cells do under the mouse and the keyboard: a double-click (or Enter)
 * edits a cell, or shows its whole value where it cannot be edited (and why); a header click
 * sorts; Ctrl-C copies the selection as TSV; Alt-Shift-Left/Right moves the active column; a
 * screen reader hears the active cell.
 */
export class GridCellActions {
  readonly keyboard: KeyboardGrid;

  constructor(
    private readonly grid: DataGrid,
    private readonly model: EditableRowsModel,
    private readonly valueView: ValueView,
    private readonly columns: GridColumns,
    private readonly editing: GridEditing,
    private readonly host: CellActionsHost
  ) {
    grid.mouseHandler = new HeaderMouseHandler({
      headerClicked: column => host.sortBy(column),
      cellOpened: (row, column) => this.editOrOpen(row, column),
      columnMoved: (from, to) => columns.move(from, to),
      columnsResized: () => columns.resized()
    });
    grid.keyHandler = new GridKeyHandler({
      copy: () => void this.copySelection(),
      openCursorCell: () => this.openCell(...this.cursor()),
      closeDetail: () => valueView.hide(),
      detailOpen: () => !valueView.isHidden,
      editCursorCell: () => this.editOrOpen(...this.cursor()),
      sortCursorColumn: () => host.sortBy(this.cursor()[1]),
      deleteSelectedRows: () => editing.deleteSelected(),
      moveCursorColumn: by => this.moveCursorColumn(by)
    });
    this.keyboard = new KeyboardGrid(grid, {
      label: host.label,
      describe: (row, column) => this.spokenCell(row, column)
    });
  }

  /** As a double-click: a cell that cannot be edited shows its whole value instead (and why). */
  editOrOpen(row: number, column: number): void {
    if (!this.editCell(row, column)) {
      this.openCell(row, column);
    }
  }

  /** Alt-Shift-Left/Right: the active column one place left or right; the active cell goes with it. */
  moveCursorColumn(by: -1 | 1): void {
    const selection = this.grid.selectionModel;
    const [row, from] = this.cursor();
    const name = this.model.columns[from]?.name;
    const to = from + by;
    if (!selection || name === undefined || row < 0) {
      return;
    }
    if (to < 0 || to >= this.model.columns.length) {
      this.keyboard.say(
        `${name} is already the ${by < 0 ? 'first' : 'last'} column.`
      );
      return;
    }
    this.columns.move(from, to);
    const now = this.model.columns.findIndex(c => c.name === name);
    if (now < 0) {
      return;
    }
    selectCell(selection, row, now);
    this.grid.scrollToCell(row, now);
    this.keyboard.say(
      `${name} moved to column ${now + 1} of ${this.model.columns.length}.`
    );
  }

  private cursor(): [number, number] {
    const selection = this.grid.selectionModel;
    return [selection?.cursorRow ?? -1, selection?.cursorColumn ?? -1];
  }

  /** Starts editing a cell; false when it cannot be edited (the editing bar says why). */
  private editCell(row: number, column: number): boolean {
    if (row < 0 || column < 0) {
      return false;
    }
    this.valueView.hide();
    return (
      this.grid.editorController?.edit({ grid: this.grid, row, column }) ??
      false
    );
  }

  private openCell(row: number, column: number): void {
    const col = this.model.columns[column];
    if (!col || row < 0 || !this.model.isLoaded(row)) {
      return;
    }
    this.valueView.open({
      column: col.name,
      row: rowNumber(this.model, row),
      value: this.model.value(row, column),
      cut: this.model.isCut(row, column)
    });
  }

  /** Ctrl-C (⌘-C): the selected cells as TSV with a header line, as in the notebook's grids. */
  private async copySelection(): Promise<void> {
    if (!this.grid.selectionModel?.currentSelection()) {
      hint(
        'Nothing selected: click a cell (Shift-click another for a range), then copy.'
      );
      return;
    }
    const range = selectedRange(this.model, this.grid.selectionModel);
    const rows = range.lastRow - range.firstRow + 1;
    const columns = range.lastColumn - range.firstColumn + 1;
    if (rows > MAX_COPY_ROWS) {
      hint(
        `${numberFormat.format(rows)} rows are selected; Ctrl-C copies at most ${numberFormat.format(MAX_COPY_ROWS)}: select fewer rows.`
      );
      return;
    }
    try {
      await this.model.loadRows(range.firstRow, range.lastRow);
      await copyText(rangeAsTsv(this.model, range));
      confirmDone(
        `Copied ${numberFormat.format(rows)} ${rows === 1 ? 'row' : 'rows'} × ${columns} ${columns === 1 ? 'column' : 'columns'} as TSV.`
      );
    } catch (err) {
      this.host.showError(`Copy: ${(err as Error).message}`);
    }
  }

  /** The active cell as the live region says it: its column, its row header, its text. */
  private spokenCell(row: number, column: number): SpokenCell | undefined {
    const col = this.model.columns[column];
    if (!col || row >= this.model.rowCount('body')) {
      return undefined;
    }
    const matched = this.model
      .highlight(row, column)
      ?.filter(p => p.marked)
      .map(p => p.text);
    return {
      column: col.name,
      row: rowNumber(this.model, row),
      value: this.model.isLoaded(row)
        ? spokenValue(
            this.model.data('body', row, column),
            this.model.isStoredNull(row, column),
            this.model.value(row, column)
          ) + (matched?.length ? ` (matches: ${matched.join(', ')})` : '')
        : 'loading'
    };
  }
}

/** The row as its header shows it, less its mark. */
function rowNumber(model: EditableRowsModel, row: number): string {
  return model.data('row-header', row, 0).replace(/^[^\w\s]+ /, '');
}
