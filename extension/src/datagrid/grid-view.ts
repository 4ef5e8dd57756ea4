import {
  BasicSelectionModel,
  type CellRenderer,
  DataGrid,
  TextRenderer
} from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import { copyText } from './clipboard';
import { followNodeSize } from './follow-node-size';
import { blitRegionsWhole } from './region-blits';
import { skipRepaintsAlreadyDone } from './repaints-already-done';
import { fitColumnWidths } from './column-widths';
import { GridKeyHandler } from './grid-key-handler';
import { KeyboardGrid, type SpokenCell } from './keyboard-grid';
import { NullMarkRenderer } from './null-mark-renderer';
import { spokenValue } from './spoken-value';
import { type GridTheme, readGridTheme } from './grid-theme';
import { headerRenderers } from './header-renderers';
import { ThemedGridPanel } from './themed-grid-panel';
import { HeaderMouseHandler } from './header-mouse-handler';
import type { Column } from '@searchbook/contracts/columns';
import { type CutCell, type Rows, RowsModel } from './rows-model';
import { rangeAsJson, rangeAsTsv, selectedRange } from './selection-copy';
import { nextSort, type SortState } from './sort-order';
import { ValueView } from './value-view';

/** Rows visible before the grid scrolls inside the output instead of growing it. */
const VISIBLE_ROWS = 15;
/** Lumino's data grid scroll bars (JupyterLab's and Notebook 7's themes alike). */
const SCROLLBAR_PX = 15;
/** The grid's top and bottom border. */
const BORDERS_PX = 2;

export type CopyFormat = 'tsv' | 'json';

/**
 * A grid's height in CSS pixels: its header rows and up to VISIBLE_ROWS body rows (one row
 * when empty), the horizontal scroll bar when it scrolls sideways, and its borders.
 */
export function gridHeight(
  headerRows: number,
  rows: number,
  rowHeight: number,
  scrollsSideways: boolean
): number {
  const bodyRows = Math.max(Math.min(rows, VISIBLE_ROWS), 1);
  return (
    (headerRows + bodyRows) * rowHeight +
    (scrollsSideways ? SCROLLBAR_PX : 0) +
    BORDERS_PX
  );
}

/**
 * A virtualised, read-only grid of rows (Lumino's DataGrid, as JupyterLab's CSV viewer) with
 * sorting on header click, resizable columns, copy, and a view of a cell's whole value.
 */
export class GridView extends ThemedGridPanel {
  readonly model: RowsModel;
  private readonly grid: DataGrid;
  private readonly valueView = new ValueView();
  private sized = false;
  /** The theme last applied: attaching again under the same theme repaints nothing. */
  private styled: GridTheme | undefined;
  private rowHeight = 0;
  private readonly keyboard: KeyboardGrid;

  constructor(
    columns: readonly Column[],
    rows: Rows,
    cut: readonly CutCell[],
    label: string,
    reread?: () => Rows
  ) {
    super();
    this.addClass('searchbook-GridView');
    this.model = new RowsModel(columns, rows, cut, reread);
    this.grid = new DataGrid({
      headerVisibility: 'all',
      stretchLastColumn: true
    });
    blitRegionsWhole(this.grid);
    skipRepaintsAlreadyDone(this.grid);
    followNodeSize(this.grid);
    this.grid.addClass('searchbook-Grid');
    this.grid.dataModel = this.model;
    this.grid.selectionModel = new BasicSelectionModel({
      dataModel: this.model,
      selectionMode: 'cell'
    });
    this.grid.mouseHandler = new HeaderMouseHandler({
      headerClicked: column => this.sortByColumn(column),
      cellOpened: (row, column) => this.openCell(row, column)
    });
    this.grid.keyHandler = new GridKeyHandler({
      copy: () => void this.copy('tsv'),
      openCursorCell: () =>
        this.openCell(
          this.grid.selectionModel?.cursorRow ?? -1,
          this.grid.selectionModel?.cursorColumn ?? -1
        ),
      closeDetail: () => this.valueView.hide(),
      detailOpen: () => !this.valueView.isHidden,
      sortCursorColumn: () =>
        this.sortByColumn(this.grid.selectionModel?.cursorColumn ?? -1)
    });
    const node = this.grid.node;
    node.setAttribute('role', 'grid');
    node.setAttribute('aria-label', label);
    node.setAttribute('aria-rowcount', String(this.model.rowCount('body')));
    node.setAttribute('aria-colcount', String(columns.length));
    node.dataset.columns = JSON.stringify(columns.map(c => c.name));
    this.addWidget(this.grid);
    this.addWidget(this.valueView);
    this.keyboard = new KeyboardGrid(this.grid, {
      label,
      describe: (row, column) => this.spokenCell(row, column)
    });
    this.node.append(this.keyboard.announcer);
    // Styled and its columns sized before it is shown: Lumino resizes a column it does not
    // draw yet for nothing, where once shown it repaints and copies the grid for each column.
    // Its resizes are messages run at the end of the task, after the grid is shown: run now.
    this.styleGrid(readGridTheme());
    MessageLoop.flush();
  }

  /** The active cell as the live region says it: its column, its row in the response, its text. */
  private spokenCell(row: number, column: number): SpokenCell | undefined {
    const col = this.model.columns[column];
    if (!col || row >= this.model.rowCount('body')) {
      return undefined;
    }
    const value = this.model.value(row, column);
    return {
      column: col.name,
      row: String(this.model.responseIndex(row) + 1),
      value: spokenValue(
        this.model.data('body', row, column),
        value === null,
        value
      )
    };
  }

  /** Sorts the rows shown by one column (null: back to the engine's order). */
  setSort(sort: SortState | null): void {
    this.model.sort = sort;
    this.grid.selectionModel?.clear();
    this.grid.node.dataset.sort = sort
      ? `${sort.column} ${sort.direction}`
      : '';
  }

  async copy(format: CopyFormat): Promise<string> {
    const range = selectedRange(this.model, this.grid.selectionModel);
    const text =
      format === 'tsv'
        ? rangeAsTsv(this.model, range)
        : rangeAsJson(this.model, range);
    await copyText(text);
    return text;
  }

  /** The grid's canvas follows its node's own size (followNodeSize): here, only the height is fitted. */
  protected override onResized(): void {
    this.fitHeight();
  }

  private sortByColumn(column: number): void {
    const name = this.model.columns[column]?.name;
    if (name !== undefined) {
      this.setSort(nextSort(this.model.sort, name));
    }
  }

  private openCell(row: number, column: number): void {
    const col = this.model.columns[column];
    if (!col || row < 0 || row >= this.model.rowCount('body')) {
      return;
    }
    this.valueView.open({
      column: col.name,
      row: this.model.responseIndex(row) + 1,
      value: this.model.value(row, column),
      cut: this.model.isCut(row, column)
    });
  }

  protected override applyTheme(): void {
    const theme = readGridTheme();
    if (theme !== this.styled) {
      this.styleGrid(theme);
    }
    this.rowHeight = theme.rowHeight;
    this.fitHeight();
  }

  /** The theme's colours, fonts and sizes, and the first time the columns' widths: no layout read. */
  private styleGrid(theme: GridTheme): void {
    this.styled = theme;
    this.grid.style = theme.style;
    this.grid.defaultSizes = {
      rowHeight: theme.rowHeight,
      columnWidth: 120,
      rowHeaderWidth: Math.max(
        40,
        String(this.model.rowCount('body')).length * 9 + 20
      ),
      columnHeaderHeight: theme.rowHeight
    };
    this.grid.cellRenderers.update({
      body: this.bodyRenderer(theme),
      // A cut type line ends in "…", not at the column's edge.
      ...headerRenderers(theme, { elideColumnHeaders: true })
    });
    if (!this.sized) {
      this.sized = true;
      const widths = fitColumnWidths(this.model, theme.font, theme.headerFont);
      widths.forEach((width, column) =>
        this.grid.resizeColumn('body', column, width)
      );
      this.publishColumnEdges(widths);
    }
  }

  /**
   * As tall as its rows (up to VISIBLE_ROWS), plus a horizontal scroll bar only when the
   * columns are wider than the output: room kept for one that is not there is an empty band.
   */
  private fitHeight(): void {
    if (this.rowHeight === 0) {
      return;
    }
    const scrollsDown = this.model.rowCount('body') > VISIBLE_ROWS;
    // Until the node's width is first observed (before its first paint), no sideways bar:
    // that observation fits the height again.
    const width = this.contentWidth;
    const room =
      width === undefined
        ? Number.POSITIVE_INFINITY
        : Math.round(width - 2 * (this.styled?.borderPx ?? 0)) -
          (scrollsDown ? SCROLLBAR_PX : 0);
    const scrollsSideways =
      room <= 0 || this.grid.headerWidth + this.grid.bodyWidth > room;
    const height = `${gridHeight(
      this.model.rowCount('column-header'),
      this.model.rowCount('body'),
      this.rowHeight,
      scrollsSideways
    )}px`;
    if (this.grid.node.style.height !== height) {
      this.grid.node.style.height = height;
    }
    // For UI automation, as the column edges: the canvas has no row elements to measure.
    this.grid.node.dataset.rowHeight = String(this.rowHeight);
  }

  /**
   * Where each column starts, in CSS pixels from the grid's left edge, as first laid out: the
   * canvas has no per-column elements, so UI automation and tests find headers through this.
   */
  private publishColumnEdges(widths: readonly number[]): void {
    let x = this.grid.headerWidth;
    const edges = widths.map(width => {
      const start = x;
      x += width;
      return start;
    });
    this.grid.node.dataset.columnEdges = JSON.stringify([...edges, x]);
  }

  private bodyRenderer(theme: GridTheme): CellRenderer {
    return new NullMarkRenderer(
      new TextRenderer({
        font: theme.font,
        textColor: theme.textColor,
        backgroundColor: ({ row, column }) =>
          this.model.isCut(row, column) ? theme.cutBackground : '',
        elideDirection: 'right'
      }),
      {
        // A field the answer holds as null; one the document lacks stays blank.
        isNull: (row, column) => this.model.value(row, column) === null,
        font: theme.font,
        color: theme.mutedColor
      }
    );
  }
}
