import { BasicSelectionModel, DataGrid } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import { Signal } from '@lumino/signaling';
import { type Panel, Widget } from '@lumino/widgets';
import type {
  Block,
  GridReply,
  GridView,
  SortKey
} from '@searchbook/contracts/panel-protocol';
import { copyText } from '../datagrid/clipboard';
import { GridKeyHandler } from '../datagrid/grid-key-handler';
import { readGridTheme } from '../datagrid/grid-theme';
import { blitRegionsWhole } from '../datagrid/region-blits';
import { followNodeSize } from '../datagrid/follow-node-size';
import { ThemedGridPanel } from '../datagrid/themed-grid-panel';
import { HeaderMouseHandler } from '../datagrid/header-mouse-handler';
import { rangeAsTsv, selectedRange } from '../datagrid/selection-copy';
import { ValueView } from '../datagrid/value-view';
import { KeyboardGrid, type SpokenCell } from '../datagrid/keyboard-grid';
import { searchbookSettings } from '../settings/searchbook-settings';
import { FilterBar } from './filter-bar';
import { type PanelClient, PanelRequestError } from '../panel-client';
import { toolbarButton } from './toolbar-button';
import { toolbarMenu } from './toolbar-menu';
import { setFocusHome } from '../focus/focus-return';
import { confirmDone, hint } from './confirmations';
import { copyViewAsPython } from './copy-view-as-python';
import type { PagedStatus } from './paged-rows';
import { GatedEditorController } from './cell-editors';
import { EditableRowsModel, type Mark } from './editable-rows-model';
import { GridEditing } from './grid-editing';
import { DocumentActions } from './document-actions';
import { PendingSync } from './pending-store';
import { GridColumns } from './grid-columns';
import { FIRST_SCREEN_ROWS } from './first-screen';
import type { GridSearch } from '@searchbook/contracts/search-preview';
import { SearchBox } from './search-box';
import { HighlightRenderer } from './highlight-renderer';
import { exactJson } from '@searchbook/contracts/exact-json';
import { NullMarkRenderer } from '../datagrid/null-mark-renderer';
import { headerRenderers } from '../datagrid/header-renderers';

export type OpenedGrid = Omit<
  Extract<GridReply, { type: 'opened' }>,
  'v' | 'requestId' | 'type'
>;

/** What the grid tab needs from the application beyond its kernel. */
export interface GridHost {
  /** Adds a cell with this text below the active cell of the notebook the user works in. */
  insertCell(text: string): Promise<void>;
  /** Export… of this grid tab (its view), as JupyterLab's context menu offers it. */
  exportGrid?(node: HTMLElement): Promise<void>;
}

const SORT_ARROWS = { asc: '▲', desc: '▼' } as const;

const numberFormat = new Intl.NumberFormat('en-US');
/** Rows one Ctrl-C copies at most: blocks scrolled past are fetched again for it. */
const MAX_COPY_ROWS = 10_000;
/** Grid ids restart with the kernel: tab ids must not. */
let tabs = 0;

/**
 * A main-area tab browsing one index or collection: a lazily filled grid of all its documents,
 * a status line, and refresh. Closing the tab closes the grid in the kernel, which releases
 * its cursor (an Elasticsearch point in time).
 */
export class DocumentGridWidget extends ThemedGridPanel {
  readonly model: EditableRowsModel;
  readonly editing: GridEditing;
  /** Shown, hidden, ordered, pinned columns and their widths, kept per target. */
  readonly columnLayout: GridColumns;
  private readonly pendingSync: PendingSync;
  private readonly grid: DataGrid;
  private readonly status = document.createElement('div');
  private readonly notes = document.createElement('div');
  private readonly filterBar: FilterBar;
  private filterView: Omit<GridView, 'sort'> = {
    filters: [],
    join: 'all',
    raw: '',
    matchCase: false
  };
  private sort: SortKey[] = [];
  /** The search query ranking the rows (where the engine offers a preview); undefined: browsing. */
  private search: GridSearch | undefined;
  private readonly searchBox: SearchBox | undefined;
  /** The view whose rows the grid shows (the last one the engine answered): "Back to the previous filter" returns to it. */
  private shownView: GridView | undefined;
  /** Shown in place of the rows while a new view loads, or when it failed. */
  private readonly viewState = document.createElement('div');
  private viewLoading = false;
  private viewFailure: string | undefined;
  /** A save inserted or deleted documents of this target. */
  readonly documentsChanged = new Signal<
    this,
    { connection: string; target: string }
  >(this);
  /** The engine answered a new view (filters, sort): the tab's restore state follows it. */
  readonly viewChanged = new Signal<this, GridView>(this);
  /** Views asked for so far: only the newest one's answer is shown. */
  private viewRequests = 0;
  private readonly valueView = new ValueView();
  private readonly keyboard: KeyboardGrid;
  private sized = false;
  /** Why this grid no longer reads (its connection was replaced or closed, the kernel restarted): shown until it is reopened. */
  private gone: string | undefined;

  constructor(
    private readonly client: PanelClient,
    private opened: OpenedGrid,
    private readonly host: GridHost
  ) {
    super();
    this.id = `searchbook-grid-${opened.gridId}-${++tabs}`;
    this.addClass('searchbook-DocumentGrid');
    this.title.label = `${opened.target} · ${opened.connection}`;
    this.title.caption = `Documents of ${opened.target} on ${opened.connection}`;
    this.title.closable = true;
    // Pending changes typed before (a kernel restart, a page reload) come back with the grid.
    this.pendingSync = new PendingSync(opened.connection, opened.target);
    this.model = new EditableRowsModel(
      opened.columns,
      opened.total,
      opened.blockSize,
      opened.first,
      block => this.read(block),
      this.pendingSync.load(),
      () => this.opened.target
    );
    // Other pages on the same JupyterLab share the pending set: their changes show here at once.
    this.pendingSync.watch(this.model.pending, removed => {
      this.model.pendingUpdated(true);
      // Another page saved (or dropped) a change shown here: read the rows again, so they show what is stored.
      if (removed) {
        void this.refresh();
      }
    });

    const bar = new Widget();
    bar.addClass('searchbook-DocumentGrid-bar');
    const refresh = toolbarButton(
      'Refresh',
      'Read the index or collection again from the start',
      () => this.refresh()
    );
    this.status.className = 'searchbook-Status searchbook-DocumentGrid-status';
    this.status.setAttribute('role', 'status');
    const copy = toolbarMenu(
      'Copy',
      'Copy the request this grid sends: as a console cell, curl or Python, or insert it into the notebook',
      [
        {
          label: 'Copy as cell',
          caption: 'Copy the request this grid sends, as a console cell',
          run: () => this.copyAsCell()
        },
        {
          label: 'Copy as curl',
          caption:
            'Copy the request as a curl command; the credential stays an environment variable',
          run: () => this.copyAsCurl()
        },
        {
          label: 'Copy as Python',
          caption:
            'Copy the request as Python code for the engine’s official client; the credential is read from an environment variable',
          run: () => this.copyAsPython()
        },
        {
          label: 'Insert into notebook',
          caption:
            'Add the request this grid sends as a cell below the active cell of the notebook',
          run: () => this.insert()
        }
      ]
    );
    bar.node.setAttribute('role', 'toolbar');
    bar.node.setAttribute('aria-label', 'Grid');
    bar.node.append(refresh, copy, this.status);
    this.notes.className = 'searchbook-DocumentGrid-notes';
    this.notes.setAttribute('role', 'note');
    this.notes.hidden = true;
    // Match case as the settings say, where the engine can match case at all.
    const matchCase =
      opened.matchCaseSupported &&
      searchbookSettings.current.matchCaseByDefault;
    this.filterView = { ...this.filterView, matchCase };
    this.filterBar = new FilterBar(opened.columns, {
      matchCase,
      matchCaseSupported: opened.matchCaseSupported,
      rawPlaceholder: opened.rawFilterHint,
      operators: opened.operators
    });
    this.filterBar.applied.connect((_, view) => {
      this.filterView = view;
      void this.applyView();
    });
    if (opened.searchPreview) {
      this.searchBox = new SearchBox(opened.searchPreview);
      const score = opened.searchPreview.scoreColumn;
      this.searchBox.applied.connect((_, search) => {
        this.search = search;
        // Browsing has no score to sort by.
        if (!search) {
          this.sort = this.sort.filter(k => k.column !== score);
        }
        void this.applyView();
      });
    }

    this.grid = new DataGrid({
      headerVisibility: 'all',
      stretchLastColumn: true
    });
    blitRegionsWhole(this.grid);
    followNodeSize(this.grid);
    this.grid.addClass('searchbook-DocumentGrid-grid');
    this.viewState.className = 'searchbook-DocumentGrid-viewState';
    this.viewState.hidden = true;
    this.grid.dataModel = this.model;
    this.grid.selectionModel = new BasicSelectionModel({
      dataModel: this.model,
      selectionMode: 'cell'
    });
    this.columnLayout = new GridColumns(
      this.model,
      this.grid,
      opened.connection,
      opened.target,
      {
        headerClicked: column => this.sortBy(column),
        cellOpened: (row, column) =>
          this.editCell(row, column) || this.openCell(row, column)
      }
    );
    bar.node.insertBefore(this.columnLayout.chooser.button, this.status);
    this.editing = new GridEditing(
      this.model,
      this.grid,
      () => ({
        client: this.client,
        gridId: this.opened.gridId,
        connection: this.opened.connection,
        target: this.opened.target
      }),
      this.pendingSync
    );
    this.grid.editorController = new GatedEditorController(this.editing);
    const documents = new DocumentActions(
      this.model,
      this.grid,
      () => ({ client: this.client, gridId: this.opened.gridId }),
      {
        add: row => {
          this.filterBar.dropBlankRows();
          this.filterBar.addRow(row);
          this.filterBar.clearRefusals();
          this.filterView = this.filterBar.view();
          void this.applyView();
        },
        joinsAny: () =>
          this.filterView.join === 'any' && this.filterView.filters.length > 0
      },
      {
        focusGrid: () => this.focusGrid(),
        ...(host.exportGrid
          ? { exportView: () => void host.exportGrid?.(this.node) }
          : {})
      }
    );
    const count = this.editing.toolbar.querySelector(
      '.searchbook-EditBar-count'
    );
    for (const button of documents.buttons) {
      this.editing.toolbar.insertBefore(button, count);
    }
    client.failed.connect(this.onClientClosed, this);
    this.grid.editingEnabled = true;
    // Double-click edits; a cell that cannot be edited shows its whole value instead (and why).
    this.grid.mouseHandler = new HeaderMouseHandler({
      headerClicked: column => this.sortBy(column),
      cellOpened: (row, column) =>
        this.editCell(row, column) || this.openCell(row, column),
      columnMoved: (from, to) => this.columnLayout.move(from, to),
      columnsResized: () => this.columnLayout.resized()
    });
    this.grid.keyHandler = new GridKeyHandler({
      copy: () => void this.copySelection(),
      openCursorCell: () =>
        this.openCell(
          this.grid.selectionModel?.cursorRow ?? -1,
          this.grid.selectionModel?.cursorColumn ?? -1
        ),
      closeDetail: () => this.valueView.hide(),
      detailOpen: () => !this.valueView.isHidden,
      // As a double-click: a cell that cannot be edited shows its whole value (and why).
      editCursorCell: () => {
        const row = this.grid.selectionModel?.cursorRow ?? -1;
        const column = this.grid.selectionModel?.cursorColumn ?? -1;
        if (!this.editCell(row, column)) {
          this.openCell(row, column);
        }
      },
      sortCursorColumn: () =>
        this.sortBy(this.grid.selectionModel?.cursorColumn ?? -1),
      deleteSelectedRows: () => this.editing.deleteSelected(),
      moveCursorColumn: by => this.moveCursorColumn(by)
    });
    const node = this.grid.node;
    node.setAttribute('role', 'grid');
    node.setAttribute('aria-label', this.title.label);
    this.describeGrid();
    this.model.changed.connect(() => {
      this.describeGrid();
      this.sayIfEmpty();
    });
    this.model.statusChanged.connect((_, status) => this.showStatus(status));
    this.showStatus(this.model.currentStatus);

    this.showNotes(opened.notes);
    this.shownView = this.view;
    this.model.documentsChanged.connect(() =>
      this.documentsChanged.emit({
        connection: this.opened.connection,
        target: this.opened.target
      })
    );
    this.client.ended.connect((_, { gridId, message }) => {
      if (gridId === this.opened.gridId) {
        this.showGone(message);
      }
    }, this);
    this.client.failed.connect((_, message) => this.showGone(message), this);
    // New columns come with blocks now and then; cell repaints must not rebuild the menus.
    let offered = opened.columns.length;
    this.model.changed.connect(() => {
      if (this.model.allColumns.length === offered) {
        return;
      }
      offered = this.model.allColumns.length;
      this.filterBar.setColumns(this.model.allColumns);
    });
    this.addWidget(bar);
    this.addWidget(new Widget({ node: this.editing.toolbar }));
    if (this.searchBox) {
      this.addWidget(this.searchBox);
    }
    this.addWidget(this.filterBar);
    // Escape in the filter bar (or the search box, once empty) goes back to the grid's active
    // cell, as Escape leaves JupyterLab's find bar for the document.
    for (const node of [this.filterBar.node, this.searchBox?.node]) {
      node?.addEventListener('keydown', event => {
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          event.stopPropagation();
          this.focusGrid();
        }
      });
    }
    const notes = new Widget({ node: this.notes });
    this.addWidget(notes);
    this.addWidget(this.grid);
    this.addWidget(new Widget({ node: this.editing.problems }));
    this.addWidget(this.valueView);
    this.keyboard = new KeyboardGrid(this.grid, {
      label: this.title.label,
      describe: (row, column) => this.spokenCell(row, column)
    });
    this.node.append(this.keyboard.announcer);
    // Over the rows, but not inside the grid element: a grid may hold rows only (its live
    // region or alert would break the grid pattern a screen reader follows).
    this.node.append(this.viewState);
    // A control of the tab that is gone when its dialog or action ends hands the keyboard to the grid.
    setFocusHome(this.node, () => this.focusGrid());
    this.model.changed.connect(() => this.keyboard.refresh());
  }

  /** "Copy as cell": the request this grid sends, as a console cell. */
  copyAsCell(): Promise<void> {
    return this.copy(this.cellText(), 'Copied the request as a console cell.');
  }

  /** "Copy as Python": the request as Python code for the engine's official client. */
  copyAsPython(): Promise<void> {
    return copyViewAsPython(this.client, {
      connection: this.opened.connection,
      cell: this.opened.request.cell
    });
  }

  /** "Copy as curl": the request as a curl command. */
  copyAsCurl(): Promise<void> {
    return this.copy(
      this.opened.request.curl,
      'Copied the request as a curl command.'
    );
  }

  /**
   * Another tab shows a target of this name on another connection: the connection, which tells
   * them apart, goes first in the tab's title, so a title cut short still says which is which.
   * The grid's accessible name and the tab's tooltip keep the full name.
   */
  connectionFirst(first: boolean): void {
    const { target, connection } = this.opened;
    this.title.label = first
      ? `${connection} · ${target}`
      : `${target} · ${connection}`;
  }

  /** Alt-Shift-Left/Right: the active column one place left or right; the active cell goes with it. */
  moveCursorColumn(by: -1 | 1): void {
    const selection = this.grid.selectionModel;
    const from = selection?.cursorColumn ?? -1;
    const row = selection?.cursorRow ?? -1;
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
    this.columnLayout.move(from, to);
    const now = this.model.columns.findIndex(c => c.name === name);
    if (now < 0) {
      return;
    }
    selection.select({
      r1: row,
      c1: now,
      r2: row,
      c2: now,
      cursorRow: row,
      cursorColumn: now,
      clear: 'all'
    });
    this.grid.scrollToCell(row, now);
    this.keyboard.say(
      `${name} moved to column ${now + 1} of ${this.model.columns.length}.`
    );
  }

  /** Puts the keyboard in the filter bar. */
  focusFilter(): void {
    this.filterBar.focusFirst();
  }

  /** Gives the grid the keyboard focus (its active cell kept): opening or activating the tab does. */
  focusGrid(): void {
    this.keyboard.focus();
  }

  protected override onActivateRequest(
    msg: Parameters<Panel['processMessage']>[0]
  ): void {
    super.onActivateRequest(msg);
    // The tab's first focusable element would be its Refresh button: the grid is what one works in.
    if (this.isAttached && !this.node.contains(document.activeElement)) {
      this.focusGrid();
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
      row: this.model.data('row-header', row, 0).replace(/^[^\w\s]+ /, ''),
      value: this.model.isLoaded(row)
        ? spokenValue(
            this.model.data('body', row, column),
            this.model.isStoredNull(row, column),
            this.model.value(row, column)
          ) + (matched?.length ? ` (matches: ${matched.join(', ')})` : '')
        : 'loading'
    };
  }

  get gridId(): string {
    return this.opened.gridId;
  }

  get connection(): string {
    return this.opened.connection;
  }

  get target(): string {
    return this.opened.target;
  }

  /** This tab can no longer read: its kernel or its grid in the kernel is gone. */
  get isGone(): boolean {
    return this.gone !== undefined || this.client.isClosed;
  }

  /** The datagrid, for scrolling from commands and tests. */
  get dataGrid(): DataGrid {
    return this.grid;
  }

  /** The grid's view: filter rows, the engine sort in click order, the search query. */
  get view(): GridView {
    return {
      ...this.filterView,
      sort: this.sort,
      ...(this.search ? { search: this.search } : {})
    };
  }

  /**
   * Reopens the grid through the engine with the current view. Until the engine answers, the
   * rows of the previous view are gone and the grid says it is loading; a refused or failed
   * view keeps its message in place of rows, with the previous view one click away.
   */
  async applyView(): Promise<void> {
    const asked = ++this.viewRequests;
    const view = this.view;
    this.model.clearRows();
    this.grid.scrollTo(this.grid.scrollX, 0);
    this.showViewState('loading');
    try {
      const reply = await this.client.request(
        {
          type: 'open',
          connection: this.opened.connection,
          target: this.opened.target,
          blockSize: this.opened.blockSize,
          view,
          firstRows: FIRST_SCREEN_ROWS
        },
        'opened'
      );
      if (asked !== this.viewRequests) {
        // A newer view (a second header click) was asked for meanwhile: this one is already stale.
        void this.client
          .request({ type: 'close', gridId: reply.gridId }, 'closed')
          .catch(() => undefined);
        return;
      }
      const old = this.opened.gridId;
      this.opened = reply;
      this.gone = undefined;
      void this.client
        .request({ type: 'close', gridId: old }, 'closed')
        .catch(() => undefined);
      this.shownView = view;
      this.filterBar.markApplied(view);
      if (reply.searchPreview) {
        this.searchBox?.setOffer(reply.searchPreview);
      }
      this.showViewState(undefined);
      this.model.reset(reply.columns, reply.total, reply.first);
      this.grid.scrollTo(this.grid.scrollX, 0);
      this.filterBar.setColumns(this.model.allColumns);
      this.showNotes(reply.notes);
      this.markSort();
      this.describeGrid();
      this.viewChanged.emit(view);
    } catch (err) {
      if (asked !== this.viewRequests) {
        return;
      }
      const message = (err as Error).message;
      if (err instanceof PanelRequestError && err.filterRow !== undefined) {
        this.filterBar.showRefusal(err.filterRow, message);
      }
      this.showViewState('failed', message);
    }
  }

  /** Shows `view` in the bar and the header marks: the grid was opened with it (a tab restored after a reload). */
  adoptView(view: GridView): void {
    const { sort, search, ...filter } = view;
    this.filterView = filter;
    this.sort = sort;
    this.search = search;
    this.searchBox?.setSearch(search);
    this.shownView = view;
    this.filterBar.setView(filter);
    this.filterBar.markApplied(filter);
    this.markSort();
  }

  /** "Back to the previous filter": the view whose rows were shown last, in the bar and the grid. */
  async backToShownView(): Promise<void> {
    const view = this.shownView;
    if (!view) {
      return;
    }
    const { sort, search, ...filter } = view;
    this.filterView = filter;
    this.sort = sort;
    this.search = search;
    this.searchBox?.setSearch(search);
    this.filterBar.setView(filter);
    this.markSort();
    await this.applyView();
  }

  /** Loading or failed: said in place of the rows (and in the status line); undefined: the rows are shown. */
  private showViewState(
    state: 'loading' | 'failed' | undefined,
    message = ''
  ): void {
    this.viewLoading = state === 'loading';
    this.viewFailure = state === 'failed' ? message : undefined;
    delete this.viewState.dataset.empty;
    this.viewState.hidden = state === undefined;
    this.viewState.classList.toggle('searchbook-mod-error', state === 'failed');
    this.grid.node.setAttribute('aria-busy', String(this.viewLoading));
    this.grid.node.dataset.view = state ?? 'shown';
    if (state === 'loading') {
      this.viewState.setAttribute('role', 'status');
      this.viewState.textContent = 'Loading…';
    } else if (state === 'failed') {
      this.viewState.setAttribute('role', 'alert');
      const text = document.createElement('p');
      text.textContent = `No rows: ${message}`;
      const back = toolbarButton(
        'Back to the previous filter',
        'Show the rows of the filter and sort shown before',
        () => this.backToShownView()
      );
      this.viewState.replaceChildren(text, back);
    } else {
      this.viewState.replaceChildren();
    }
    this.placeViewState();
    this.showStatus(this.model.currentStatus);
  }

  /** The loading, failure or empty message over the grid's rows, below its header. */
  private placeViewState(): void {
    const grid = this.grid.node;
    this.viewState.style.top = `${grid.offsetTop + this.grid.headerHeight}px`;
    this.viewState.style.left = `${grid.offsetLeft}px`;
    this.viewState.style.width = `${grid.offsetWidth}px`;
  }

  /** The request as a console cell, on the grid's connection. */
  cellText(): string {
    return `%use ${this.opened.connection}\n${this.opened.request.cell}`;
  }

  async refresh(): Promise<void> {
    // Its grid is gone from the kernel, or the bar's view never opened or is still opening: open the bar's view afresh.
    if (
      (this.gone !== undefined ||
        this.viewFailure !== undefined ||
        this.viewLoading) &&
      !this.client.isClosed
    ) {
      return this.applyView();
    }
    this.status.textContent = 'Refreshing…';
    const asked = this.viewRequests;
    try {
      const reply = await this.client.request(
        { type: 'refresh', gridId: this.opened.gridId },
        'opened'
      );
      // A new filter or sort was asked for meanwhile: these rows are of the view it replaces.
      if (asked !== this.viewRequests) {
        return;
      }
      this.opened = reply;
      this.model.reset(reply.columns, reply.total, reply.first);
      this.showNotes(reply.notes);
      this.sized = false;
      this.applyTheme();
    } catch (err) {
      if (asked === this.viewRequests) {
        this.showStatus({
          ...this.model.currentStatus,
          error: (err as Error).message
        });
      }
    }
  }

  override dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.pendingSync.unwatch();
    this.columnLayout.dispose();
    this.client.failed.disconnect(this.onClientClosed, this);
    if (!this.client.isClosed) {
      void this.client
        .request({ type: 'close', gridId: this.opened.gridId }, 'closed')
        .catch(() => undefined);
    }
    super.dispose();
  }

  /** A closed tab is done with: dispose it, which closes the grid in the kernel. */
  protected override onCloseRequest(
    msg: Parameters<Panel['processMessage']>[0]
  ): void {
    super.onCloseRequest(msg);
    this.dispose();
  }

  protected override onResized(): void {
    MessageLoop.sendMessage(this.grid, Widget.ResizeMessage.UnknownSize);
    if (!this.viewState.hidden) {
      this.placeViewState();
    }
  }

  private async read(block: number): Promise<{ block: Block; total: number }> {
    const reply = await this.client.request(
      { type: 'read', gridId: this.opened.gridId, block },
      'block'
    );
    return { block: reply.block, total: reply.total };
  }

  /** Header click: ascending, then descending, then off; a new column sorts after the others. */
  private sortBy(column: number): void {
    const name = this.model.columns[column]?.name;
    if (name === undefined) {
      return;
    }
    const at = this.sort.findIndex(k => k.column === name);
    const key = this.sort[at];
    if (!key) {
      this.sort = [...this.sort, { column: name, direction: 'asc' }];
    } else if (key.direction === 'asc') {
      this.sort = this.sort.map((k, i) =>
        i === at ? { column: name, direction: 'desc' } : k
      );
    } else {
      this.sort = this.sort.filter((_, i) => i !== at);
    }
    this.markSort();
    void this.applyView();
  }

  /** Header marks for the columns the engine sorts by; a column left out (see the note) gets none. */
  private markSort(): void {
    const applied = this.sort.filter(k =>
      this.opened.sortedBy.includes(k.column)
    );
    const many = applied.length > 1;
    this.model.setSortMarks(
      new Map(
        applied.map((k, i) => [
          k.column,
          ` ${SORT_ARROWS[k.direction]}${many ? i + 1 : ''}`
        ])
      )
    );
    this.grid.node.dataset.sort = JSON.stringify(this.sort);
  }

  private showNotes(notes: readonly string[]): void {
    this.notes.textContent = notes.join(' ');
    this.notes.hidden = notes.length === 0;
  }

  private async copy(text: string, done: string): Promise<void> {
    await copyText(text);
    confirmDone(done);
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
      await this.copy(
        rangeAsTsv(this.model, range),
        `Copied ${numberFormat.format(rows)} ${rows === 1 ? 'row' : 'rows'} × ${columns} ${columns === 1 ? 'column' : 'columns'} as TSV.`
      );
    } catch (err) {
      this.showStatus({
        ...this.model.currentStatus,
        error: `Copy: ${(err as Error).message}`
      });
    }
  }

  private async insert(): Promise<void> {
    try {
      await this.host.insertCell(this.cellText());
    } catch (err) {
      this.showStatus({
        ...this.model.currentStatus,
        error: (err as Error).message
      });
    }
  }

  private describeGrid(): void {
    this.grid.node.setAttribute(
      'aria-rowcount',
      String(this.model.rowCount('body'))
    );
    this.grid.node.setAttribute(
      'aria-colcount',
      String(this.model.columnCount('body'))
    );
    this.grid.node.dataset.columns = JSON.stringify(
      this.model.columns.map(c => c.name)
    );
  }

  private showGone(message: string): void {
    this.gone = message;
    this.showStatus(this.model.currentStatus);
  }

  /** `1,000 of 95,000 rows loaded · last: POST /_search 200 · 12 ms` (and the error, if any). */
  private showStatus(status: PagedStatus): void {
    if (this.gone !== undefined) {
      status = { ...status, error: this.gone };
    }
    const loading = status.loading
      ? [
          `Loading rows ${numberFormat.format(status.loading.first)}–${numberFormat.format(status.loading.last)}…`
        ]
      : [];
    // While a new view loads, no count: the figures would be of no view.
    const parts = this.viewLoading
      ? ['Loading the rows of the new filter or sort…']
      : this.viewFailure !== undefined && this.gone === undefined
        ? [
            'No rows: this filter or sort was not applied (see why below the bar)'
          ]
        : [
            ...loading,
            `${numberFormat.format(status.loadedRows)} of ${numberFormat.format(status.total)} rows loaded`
          ];
    if (status.last) {
      const count =
        status.last.requests > 1 ? ` (${status.last.requests} requests)` : '';
      parts.push(
        `last: ${status.last.method} ${status.last.path} ${status.last.status} · ${Math.round(status.last.elapsedMs)} ms${count}`
      );
    }
    if (status.error) {
      parts.push(`error: ${status.error}`);
    }
    this.status.textContent = parts.join(' · ');
    this.grid.node.dataset.loadedRows = String(status.loadedRows);
    this.grid.node.setAttribute(
      'aria-busy',
      String(this.viewLoading || status.loading !== undefined)
    );
    this.status.classList.toggle(
      'searchbook-mod-error',
      status.error !== undefined || this.viewFailure !== undefined
    );
    this.sayIfEmpty();
  }

  /**
   * No rows to show (and no new row typed): said in place of the rows, with the view that
   * matched nothing, or that the index or collection holds no documents.
   */
  private sayIfEmpty(): void {
    if (this.viewLoading || this.viewFailure !== undefined) {
      return;
    }
    const empty =
      this.model.currentStatus.total === 0 &&
      this.model.rowCount('body') === 0 &&
      !this.model.currentStatus.loading;
    const shown = this.viewState.dataset.empty;
    const text = empty ? emptyText(this.shownView, this.opened.target) : '';
    if ((shown ?? '') === text) {
      return;
    }
    this.viewState.hidden = !empty;
    this.grid.node.dataset.view = empty ? 'empty' : 'shown';
    if (!empty) {
      delete this.viewState.dataset.empty;
      this.viewState.replaceChildren();
      return;
    }
    this.viewState.dataset.empty = text;
    this.viewState.classList.remove('searchbook-mod-error');
    this.viewState.setAttribute('role', 'status');
    const [title, ...rest] = text.split('\n');
    const heading = document.createElement('p');
    heading.className = 'searchbook-DocumentGrid-emptyTitle';
    heading.textContent = title ?? '';
    const lines = rest.map(line => {
      const p = document.createElement('p');
      p.textContent = line;
      return p;
    });
    this.viewState.replaceChildren(heading, ...lines);
    this.placeViewState();
  }

  private onClientClosed(): void {
    this.editing.kernelGone();
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
      row: this.model.data('row-header', row, 0).replace(/^[^\w\s]+ /, ''),
      value: this.model.value(row, column),
      cut: this.model.isCut(row, column)
    });
  }

  protected override applyTheme(): void {
    const theme = readGridTheme(this.node);
    const markColors = readMarkColors(this.node);
    this.grid.style = theme.style;
    this.grid.defaultSizes = {
      rowHeight: theme.rowHeight,
      columnWidth: 120,
      rowHeaderWidth: Math.max(
        48,
        String(this.model.rowCount('body')).length * 9 + 20
      ),
      columnHeaderHeight: theme.rowHeight
    };
    this.grid.cellRenderers.update({
      body: new NullMarkRenderer(
        new HighlightRenderer({
          marks: (row, column) => this.model.highlight(row, column),
          markColor: markColors.match,
          font: theme.font,
          backgroundColor: ({ row, column }) =>
            markColors[this.model.mark(row, column) ?? 'none'] ||
            (this.model.isCut(row, column) ? theme.cutBackground : ''),
          textColor: ({ row }) =>
            this.model.rowMark(row) === 'deleted'
              ? theme.mutedColor
              : theme.textColor,
          elideDirection: 'right'
        }),
        {
          isNull: (row, column) => this.model.isStoredNull(row, column),
          font: theme.font,
          color: theme.mutedColor
        }
      ),
      ...headerRenderers(theme, { elideColumnHeaders: true })
    });
    if (!this.sized) {
      this.sized = true;
      this.columnLayout.fit({
        font: theme.font,
        headerFont: theme.headerFont
      });
    }
  }
}

/** A cell's text as said aloud: a blank cell says whether it holds null, an empty text, or nothing. */
function spokenValue(shown: string, isNull: boolean, value: unknown): string {
  if (shown !== '') {
    return shown;
  }
  return isNull ? 'null' : value === '' ? 'empty' : 'no value';
}

/** What an empty grid says: the first line, then the view that matched nothing. */
function emptyText(view: GridView | undefined, target: string): string {
  const filters = (view?.filters ?? []).map(
    f =>
      `${f.column} ${f.operator}${
        f.value === '' || (Array.isArray(f.value) && f.value.length === 0)
          ? ''
          : ` ${Array.isArray(f.value) ? f.value.map(v => exactJson(v)).join(', ') : exactJson(f.value)}`
      }`
  );
  const raw = view?.raw.trim() ?? '';
  if (filters.length === 0 && raw === '' && !view?.search) {
    return `${target} is empty: it holds no documents.`;
  }
  const lines = ['No documents match'];
  if (view?.search) {
    lines.push(
      `Search: ${view.search.q}${view.search.queryBy ? ` in ${view.search.queryBy}` : ''}`
    );
  }
  if (filters.length > 0) {
    const join = view?.join === 'any' ? ' or ' : ' and ';
    lines.push(
      `Filter${view?.matchCase ? ' (match case)' : ''}: ${filters.join(join)}`
    );
  }
  if (raw !== '') {
    lines.push(`Raw filter: ${raw}`);
  }
  return lines.join('\n');
}

/** Backgrounds of the editing marks, from JupyterLab's theme (the canvas cannot read CSS). */
function readMarkColors(
  node: HTMLElement
): Record<Mark | 'none' | 'match', string> {
  const css = getComputedStyle(node);
  const v = (name: string, fallback: string) =>
    css.getPropertyValue(name).trim() || fallback;
  return {
    none: '',
    changed: v('--jp-brand-color3', '#bbdefb'),
    new: v('--jp-success-color3', '#c8e6c9'),
    deleted: v('--jp-layout-color3', '#bdbdbd'),
    refused: v('--jp-error-color3', '#ffcdd2'),
    failed: v('--jp-error-color3', '#ffcdd2'),
    conflict: v('--jp-warn-color2', '#ffb74d'),
    match: v('--jp-search-selected-match-background-color', '#f5c800')
  };
}
