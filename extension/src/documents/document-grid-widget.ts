import { DataGrid } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import type { Signal } from '@lumino/signaling';
import { type Panel, Widget } from '@lumino/widgets';
import type { GridView } from '@searchbook/contracts/panel-protocol';
import { ThemedGridPanel } from '../datagrid/themed-grid-panel';
import { ValueView } from '../datagrid/value-view';
import { setFocusHome } from '../focus/focus-return';
import type { PanelClient } from '../panel-client';
import { GatedEditorController } from './cell-editors';
import { DocumentActions } from './document-actions';
import { DocumentGridModel, type OpenedGrid } from './document-grid-model';
import { paintDocumentGrid, setUpDocumentGrid } from './document-data-grid';
import type { EditableRowsModel } from './editable-rows-model';
import { GridCellActions } from './grid-cell-actions';
import { GridColumns } from './grid-columns';
import { GridEditing } from './grid-editing';
import { GridFilters } from './grid-filters';
import { GridState } from './grid-state';
import { GridRequestCopies } from './grid-request-copies';
import { gridToolbar } from './grid-toolbar';

export type { OpenedGrid } from './document-grid-model';

/** What the grid tab needs from the application beyond its kernel. */
export interface GridHost {
  /** Adds a cell with this text below the active cell of the notebook the user works in. */
  insertCell(text: string): Promise<void>;
  /** Export… of this grid tab (its view), as JupyterLab's context menu offers it. */
  exportGrid?(node: HTMLElement): Promise<void>;
}

/** Grid ids restart with the kernel: tab ids must not. */
let tabs = 0;

/**
 * A main-area tab browsing one index or collection: its toolbar, its editing bar, the filter
 * bar (and search box), a lazily filled grid of all its documents, and its status line. What it
 * shows and asks the kernel lives in its model; closing the tab closes the grid in the kernel,
 * which releases its cursor (an Elasticsearch point in time).
 */
export class DocumentGridWidget extends ThemedGridPanel {
  /** The tab's view and its calls to the kernel. */
  readonly viewModel: DocumentGridModel;
  readonly editing: GridEditing;
  /** Shown, hidden, ordered, pinned columns and their widths, kept per target. */
  readonly columnLayout: GridColumns;
  private readonly grid = new DataGrid({
    headerVisibility: 'all',
    stretchLastColumn: true
  });
  private readonly state: GridState;
  private readonly filters: GridFilters;
  private readonly valueView = new ValueView();
  private readonly cells: GridCellActions;
  /** The request this grid sends, copied or inserted into the notebook. */
  readonly copies: GridRequestCopies;
  private sized = false;

  constructor(
    client: PanelClient,
    opened: OpenedGrid,
    private readonly host: GridHost
  ) {
    super();
    this.viewModel = new DocumentGridModel(client, opened);
    const rows = this.viewModel.rows;
    this.id = `searchbook-grid-${opened.gridId}-${++tabs}`;
    this.addClass('searchbook-DocumentGrid');
    this.title.label = `${opened.target} · ${opened.connection}`;
    this.title.caption = `Documents of ${opened.target} on ${opened.connection}`;
    this.title.closable = true;
    this.filters = new GridFilters(this.viewModel, () => this.focusGrid());
    setUpDocumentGrid(this.grid, rows, this.title.label);
    this.columnLayout = new GridColumns(
      rows,
      this.grid,
      opened.connection,
      opened.target,
      {
        headerClicked: column => void this.viewModel.sortBy(column),
        cellOpened: (row, column) => this.cells.editOrOpen(row, column)
      }
    );
    this.editing = new GridEditing(
      rows,
      this.grid,
      () => ({ ...this.viewModel.opened, client }),
      this.viewModel.pendingSync
    );
    this.grid.editorController = new GatedEditorController(this.editing);
    this.addDocumentActions();
    this.grid.editingEnabled = true;
    this.state = new GridState(this.viewModel, this.grid, () =>
      this.backToShownView()
    );
    this.follow();
    this.cells = new GridCellActions(
      this.grid,
      rows,
      this.valueView,
      this.columnLayout,
      this.editing,
      {
        label: this.title.label,
        sortBy: column => void this.viewModel.sortBy(column),
        showError: message => this.state.showError(message)
      }
    );
    this.copies = new GridRequestCopies(
      this.viewModel,
      text => host.insertCell(text),
      message => this.state.showError(message)
    );
    this.layOut();
  }

  /** The rows shown, with the pending changes over them: the grid's DataModel. */
  get model(): EditableRowsModel {
    return this.viewModel.rows;
  }

  get gridId(): string {
    return this.viewModel.opened.gridId;
  }

  get connection(): string {
    return this.viewModel.opened.connection;
  }

  get target(): string {
    return this.viewModel.opened.target;
  }

  /** This tab can no longer read: its kernel or its grid in the kernel is gone. */
  get isGone(): boolean {
    return this.viewModel.isGone;
  }

  /** The datagrid, for scrolling from commands and tests. */
  get dataGrid(): DataGrid {
    return this.grid;
  }

  /** The grid's view: filter rows, the engine sort in click order, the search query. */
  get view(): GridView {
    return this.viewModel.view;
  }

  /** The engine answered a new view (filters, sort): the tab's restore state follows it. */
  get viewChanged(): Signal<DocumentGridModel, GridView> {
    return this.viewModel.viewChanged;
  }

  /** A save inserted or deleted documents of this target. */
  get documentsChanged(): DocumentGridModel['documentsChanged'] {
    return this.viewModel.documentsChanged;
  }

  /**
   * Another tab shows a target of this name on another connection: the connection, which tells
   * them apart, goes first in the tab's title, so a title cut short still says which is which.
   * The grid's accessible name and the tab's tooltip keep the full name.
   */
  connectionFirst(first: boolean): void {
    const { target, connection } = this.viewModel.opened;
    this.title.label = first
      ? `${connection} · ${target}`
      : `${target} · ${connection}`;
  }

  /** Puts the keyboard in the filter bar. */
  focusFilter(): void {
    this.filters.bar.focusFirst();
  }

  /** Gives the grid the keyboard focus (its active cell kept): opening or activating the tab does. */
  focusGrid(): void {
    this.cells.keyboard.focus();
  }

  /** Reads the grid again from the start (or opens the bar's view afresh where it never showed). */
  refresh(): Promise<void> {
    return this.viewModel.refresh();
  }

  /** Reopens the grid through the engine with the current view. */
  applyView(): Promise<void> {
    return this.viewModel.applyView();
  }

  /** Shows `view` in the bar and the header marks: the grid was opened with it (a tab restored after a reload). */
  adoptView(view: GridView): void {
    this.viewModel.adopt(view);
    this.filters.show(view, true);
  }

  /** "Back to the previous filter": the view whose rows were shown last, in the bar and the grid. */
  private backToShownView(): void {
    this.filters.show(this.viewModel.back(), false);
  }

  override dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.columnLayout.dispose();
    this.viewModel.dispose();
    super.dispose();
  }

  /** A closed tab is done with: dispose it, which closes the grid in the kernel. */
  protected override onCloseRequest(
    msg: Parameters<Panel['processMessage']>[0]
  ): void {
    super.onCloseRequest(msg);
    this.dispose();
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

  protected override onResized(): void {
    MessageLoop.sendMessage(this.grid, Widget.ResizeMessage.UnknownSize);
    this.state.notice.place();
  }

  /** Show, edit, duplicate a document and filter by a value: on the editing bar, before its count. */
  private addDocumentActions(): void {
    const documents = new DocumentActions(
      this.model,
      this.grid,
      () => ({ client: this.viewModel.client, gridId: this.gridId }),
      this.filters,
      {
        focusGrid: () => this.focusGrid(),
        ...(this.host.exportGrid
          ? { exportView: () => void this.host.exportGrid?.(this.node) }
          : {})
      }
    );
    this.editing.addButtons(documents.buttons);
  }

  /** What the tab itself does on the model's news: the editing bar, the columns' fit. */
  private follow(): void {
    this.viewModel.events.connect((_, event) => {
      if (event.kind === 'gone' && event.kernel) {
        this.editing.kernelGone();
      } else if (event.kind === 'refreshed') {
        this.sized = false;
        this.applyTheme();
      }
    }, this);
  }

  /** Toolbar, editing bar, search box, filter bar, notes, grid, problems, value view. */
  private layOut(): void {
    const toolbar = gridToolbar(
      { refresh: () => this.refresh(), copies: this.copies },
      this.columnLayout.chooser.button,
      this.state.status.node
    );
    const { bar, searchBox } = this.filters;
    for (const widget of [
      toolbar,
      new Widget({ node: this.editing.toolbar }),
      ...(searchBox ? [searchBox] : []),
      bar,
      new Widget({ node: this.state.notes }),
      this.grid,
      new Widget({ node: this.editing.problems }),
      this.valueView
    ]) {
      this.addWidget(widget);
    }
    this.node.append(this.cells.keyboard.announcer, this.state.notice.node);
    // A control of the tab that is gone when its dialog or action ends hands the keyboard to the grid.
    setFocusHome(this.node, () => this.focusGrid());
    this.model.changed.connect(() => this.cells.keyboard.refresh());
  }

  protected override applyTheme(): void {
    const theme = paintDocumentGrid(this.grid, this.model, this.node);
    if (!this.sized) {
      this.sized = true;
      this.columnLayout.fit({ font: theme.font, headerFont: theme.headerFont });
    }
  }
}
