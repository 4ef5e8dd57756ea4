import { BasicMouseHandler, DataGrid, DataModel } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';
import { blitRegionsWhole } from './region-blits';

/** A grid model whose first `pinnedCount` body columns are pinned. */
export type PinnableModel = DataModel & { readonly pinnedCount: number };

/** What a click in the pinned columns does in the grid they belong to. */
export interface PinnedCallbacks {
  headerClicked(column: number): void;
  cellOpened(row: number, column: number): void;
}

/** Lumino's scroll bars are this wide; the overlay's own stay hidden, their room transparent. */
const SCROLLBAR_PX = 15;

/**
 * Keeps a grid's pinned columns (its first body columns) in view while it scrolls sideways.
 *
 * Lumino 2's DataGrid has no frozen columns (only its row header stays put), so a second,
 * scroll-less DataGrid over the left edge paints the row header and the pinned columns with
 * the grid's own renderers, sizes and vertical scroll, whenever the grid is scrolled
 * sideways. Clicks in it act on the grid beneath: a cell click selects that cell there, a
 * double click opens it, a header click sorts, the wheel scrolls the grid.
 */
export class PinnedColumns {
  private readonly overlay: DataGrid;
  private readonly view: PinnedView;
  private readonly observer: ResizeObserver;
  /** The grid's style object last given to the overlay (Lumino keeps a copy, so its own never compares equal). */
  private appliedStyle: DataGrid.Style | null = null;
  private disposed = false;

  constructor(
    private readonly grid: DataGrid,
    private readonly model: PinnableModel,
    callbacks: PinnedCallbacks
  ) {
    this.view = new PinnedView(model);
    this.overlay = new DataGrid({
      headerVisibility: 'all',
      stretchLastColumn: false
    });
    this.overlay.addClass('searchbook-PinnedColumns');
    this.overlay.dataModel = this.view;
    this.overlay.keyHandler = null;
    this.overlay.mouseHandler = new PinnedMouseHandler(grid, callbacks);
    this.overlay.node.setAttribute('aria-hidden', 'true');
    this.overlay.node.hidden = true;
    // Painted like the grid: a region in one copy, not a `drawImage` per cell.
    blitRegionsWhole(this.overlay);
    watchScroll(grid, () => this.sync());
    this.keepCursorClear();
    this.observer = new ResizeObserver(() => this.sync());
    this.observer.observe(grid.node);
    model.changed.connect(this.onModelChanged, this);
  }

  /** Shows or hides the pinned columns and matches them to the grid (its sizes, scroll and look). */
  sync(): void {
    if (this.disposed) {
      return;
    }
    const pinned = Math.min(
      this.model.pinnedCount,
      this.grid.columnCount('body')
    );
    const show = pinned > 0 && this.grid.scrollX > 0;
    if (!show) {
      this.overlay.node.hidden = true;
      delete this.grid.node.dataset.pinnedShown;
      return;
    }
    if (!this.overlay.isAttached) {
      if (!this.grid.isAttached) {
        return;
      }
      Widget.attach(this.overlay, this.grid.node);
    }
    const overlay = this.overlay;
    // Each of these setters repaints the whole overlay, and this runs on every scroll step:
    // set only what changed, or sideways scrolling repaints the pinned columns every frame.
    if (this.appliedStyle !== this.grid.style) {
      overlay.style = this.grid.style;
      this.appliedStyle = this.grid.style;
    }
    if (overlay.cellRenderers !== this.grid.cellRenderers) {
      overlay.cellRenderers = this.grid.cellRenderers;
    }
    if (!sameSizes(overlay.defaultSizes, this.grid.defaultSizes)) {
      overlay.defaultSizes = this.grid.defaultSizes;
    }
    const resize = (
      region: DataModel.ColumnRegion,
      index: number,
      size: number
    ): void => {
      if (overlay.columnSize(region, index) !== size) {
        overlay.resizeColumn(region, index, size);
      }
    };
    for (let c = 0; c < this.grid.columnCount('row-header'); c++) {
      resize('row-header', c, this.grid.columnSize('row-header', c));
    }
    let width = this.grid.headerWidth;
    for (let c = 0; c < pinned; c++) {
      const size = this.grid.columnSize('body', c);
      resize('body', c, size);
      width += size;
    }
    for (let r = 0; r < this.grid.rowCount('column-header'); r++) {
      const size = this.grid.rowSize('column-header', r);
      if (overlay.rowSize('column-header', r) !== size) {
        overlay.resizeRow('column-header', r, size);
      }
    }
    const height = this.grid.viewportHeight;
    const style = overlay.node.style;
    // Room for the overlay's own vertical bar (hidden) when Lumino gives it one, as it does the grid.
    const bar = this.grid.maxScrollY > 0 ? SCROLLBAR_PX : 0;
    const box = { width: `${width + bar}px`, height: `${height}px` };
    overlay.node.hidden = false;
    if (style.width !== box.width || style.height !== box.height) {
      style.width = box.width;
      style.height = box.height;
      MessageLoop.sendMessage(overlay, Widget.ResizeMessage.UnknownSize);
    }
    // At once, not through `scrollTo`: that clamps to the overlay's scroll bar, whose limit is
    // only set once the overlay is laid out, so a first show during a long jump (Ctrl-End)
    // left the pinned columns on the first rows beside the last ones.
    scrollNow(overlay, 0, this.grid.scrollY);
    // For UI automation: the canvas has no elements to find the pinned columns by.
    this.grid.node.dataset.pinnedShown = String(pinned);
  }

  /**
   * Scrolling to a column (the keyboard's cursor, a refused cell) stops with it to the right
   * of the pinned columns, not under them.
   */
  private keepCursorClear(): void {
    const grid = this.grid;
    const bars = grid as unknown as {
      _hScrollBar?: { value: number };
      _vScrollBar?: { value: number };
    };
    const toColumn = grid.scrollToColumn.bind(grid);
    const toCell = grid.scrollToCell.bind(grid);
    const clear = (column: number): void => {
      const pinned = Math.min(this.model.pinnedCount, grid.columnCount('body'));
      const x = bars._hScrollBar?.value;
      const y = bars._vScrollBar?.value;
      if (column < pinned || x === undefined || y === undefined || x === 0) {
        return;
      }
      const covered = grid.columnOffset('body', pinned);
      const left = grid.columnOffset('body', column);
      if (left < x + covered) {
        grid.scrollTo(left - covered, y);
      }
    };
    grid.scrollToColumn = (column: number): void => {
      toColumn(column);
      clear(column);
    };
    grid.scrollToCell = (row: number, column: number): void => {
      toCell(row, column);
      clear(column);
    };
  }

  dispose(): void {
    this.disposed = true;
    this.observer.disconnect();
    this.model.changed.disconnect(this.onModelChanged, this);
    // The grid left the page with it inside (a closed tab): Lumino must not detach it again.
    if (this.overlay.isAttached && !this.overlay.node.isConnected) {
      MessageLoop.sendMessage(this.overlay, Widget.Msg.AfterDetach);
    }
    this.overlay.dispose();
    this.view.dispose();
  }

  private onModelChanged(): void {
    // After the grid took the change in (it listens first) and laid itself out.
    queueMicrotask(() => this.sync());
  }
}

/** The grid's model cut to its pinned columns: same rows, headers and cells. */
class PinnedView extends DataModel {
  constructor(private readonly source: PinnableModel) {
    super();
    source.changed.connect(this.forward, this);
  }

  rowCount(region: DataModel.RowRegion): number {
    return this.source.rowCount(region);
  }

  columnCount(region: DataModel.ColumnRegion): number {
    return region === 'body'
      ? Math.min(this.source.pinnedCount, this.source.columnCount('body'))
      : this.source.columnCount(region);
  }

  data(region: DataModel.CellRegion, row: number, column: number): unknown {
    return this.source.data(region, row, column);
  }

  dispose(): void {
    this.source.changed.disconnect(this.forward, this);
  }

  private forward(_: DataModel, args: DataModel.ChangedArgs): void {
    if (args.type === 'cells-changed') {
      const pinned = this.columnCount('body');
      const columnwise =
        args.region === 'body' || args.region === 'column-header';
      if (columnwise && args.column >= pinned) {
        return;
      }
      this.emitChanged(
        columnwise
          ? {
              ...args,
              columnSpan: Math.min(args.columnSpan, pinned - args.column)
            }
          : args
      );
      return;
    }
    if (
      args.type === 'rows-inserted' ||
      args.type === 'rows-removed' ||
      args.type === 'rows-moved'
    ) {
      this.emitChanged(args);
      return;
    }
    this.emitChanged({ type: 'model-reset' });
  }
}

/** Clicks on the pinned columns, passed to the grid they belong to. */
class PinnedMouseHandler extends BasicMouseHandler {
  constructor(
    private readonly grid: DataGrid,
    private readonly callbacks: PinnedCallbacks
  ) {
    super();
  }

  override onMouseHover(): void {
    // No resize cursors: the pinned columns are resized where they stand, scrolled back.
  }

  override onMouseDown(overlay: DataGrid, event: MouseEvent): void {
    const hit = overlay.hitTest(event.clientX, event.clientY);
    const selection = this.grid.selectionModel;
    this.grid.activate();
    if (hit.region === 'column-header') {
      this.callbacks.headerClicked(hit.column);
      return;
    }
    if (!selection || hit.row < 0) {
      return;
    }
    const lastColumn = this.grid.columnCount('body') - 1;
    if (hit.region === 'body') {
      selection.select({
        r1: hit.row,
        c1: hit.column,
        r2: hit.row,
        c2: hit.column,
        cursorRow: hit.row,
        cursorColumn: hit.column,
        clear: 'all'
      });
    } else if (hit.region === 'row-header') {
      selection.select({
        r1: hit.row,
        c1: 0,
        r2: hit.row,
        c2: lastColumn,
        cursorRow: hit.row,
        cursorColumn: 0,
        clear: 'all'
      });
    }
  }

  override onMouseMove(): void {}

  override onMouseUp(): void {}

  override onMouseDoubleClick(overlay: DataGrid, event: MouseEvent): void {
    const hit = overlay.hitTest(event.clientX, event.clientY);
    if (hit.region === 'body') {
      // Scrolled back first, so an editor opens over the cell and not under this overlay.
      scrollNow(this.grid, 0, this.grid.scrollY);
      this.callbacks.cellOpened(hit.row, hit.column);
    }
  }

  override onWheel(_overlay: DataGrid, event: WheelEvent): void {
    super.onWheel(this.grid, event);
  }
}

function sameSizes(
  a: DataGrid.DefaultSizes,
  b: DataGrid.DefaultSizes
): boolean {
  return (
    a.rowHeight === b.rowHeight &&
    a.columnWidth === b.columnWidth &&
    a.rowHeaderWidth === b.rowHeaderWidth &&
    a.columnHeaderHeight === b.columnHeaderHeight
  );
}

/** Scrolls at once (`scrollTo` waits for the next frame), where Lumino's private method is there. */
function scrollNow(grid: DataGrid, x: number, y: number): void {
  const internals = grid as unknown as {
    _scrollTo?: (x: number, y: number) => void;
  };
  if (typeof internals._scrollTo === 'function') {
    internals._scrollTo(x, y);
  } else {
    grid.scrollTo(x, y);
  }
}

/** Lumino's DataGrid scrolls through one private method (wheel, bars, keys, scrollTo alike); checked before use. */
function watchScroll(grid: DataGrid, scrolled: () => void): void {
  const internals = grid as unknown as {
    _scrollTo?: (x: number, y: number) => void;
  };
  const scrollTo = internals._scrollTo;
  if (typeof scrollTo !== 'function') {
    return;
  }
  internals._scrollTo = function (this: DataGrid, x: number, y: number) {
    scrollTo.call(this, x, y);
    scrolled();
  };
}
