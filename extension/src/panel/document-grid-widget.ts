import { BasicSelectionModel, DataGrid, TextRenderer } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import { Panel, Widget } from '@lumino/widgets';
import type { Block, Column } from '../../../kernel/src/grid/grid-protocol';
import { fitColumnWidths } from '../grid/column-widths';
import { GridKeyHandler } from '../grid/grid-key-handler';
import { onThemeChange, readGridTheme } from '../grid/grid-theme';
import { HeaderMouseHandler } from '../grid/header-mouse-handler';
import { ValueView } from '../grid/value-view';
import type { GridClient } from './grid-client';
import { PagedRowsModel, type PagedStatus } from './paged-rows-model';

export interface OpenedGrid {
  gridId: string;
  connection: string;
  target: string;
  total: number;
  blockSize: number;
  columns: Column[];
  first: Block;
}

const numberFormat = new Intl.NumberFormat('en-US');

/**
 * A main-area tab browsing one index or collection: a lazily filled grid of all its documents,
 * a status line, and refresh. Closing the tab closes the grid in the kernel, which releases
 * its cursor (an Elasticsearch point in time).
 */
export class DocumentGridWidget extends Panel {
  readonly model: PagedRowsModel;
  private readonly grid: DataGrid;
  private readonly status = document.createElement('div');
  private readonly valueView = new ValueView();
  private readonly resizeObserver: ResizeObserver;
  private readonly stopWatchingTheme: () => void;
  private sized = false;

  constructor(
    private readonly client: GridClient,
    private opened: OpenedGrid,
  ) {
    super();
    this.id = `searchbook-grid-${opened.gridId}`;
    this.addClass('searchbook-DocumentGrid');
    this.title.label = `${opened.target} · ${opened.connection}`;
    this.title.caption = `Documents of ${opened.target} on ${opened.connection}`;
    this.title.closable = true;
    this.model = new PagedRowsModel(opened.columns, opened.total, opened.blockSize, opened.first, (block) => this.read(block));

    const bar = new Widget();
    bar.addClass('searchbook-DocumentGrid-bar');
    const refresh = document.createElement('button');
    refresh.className = 'searchbook-Toolbar-button jp-Button';
    refresh.textContent = 'Refresh';
    refresh.title = 'Read the index or collection again from the start';
    refresh.addEventListener('click', () => void this.refresh());
    this.status.className = 'searchbook-Status searchbook-DocumentGrid-status';
    this.status.setAttribute('role', 'status');
    bar.node.append(refresh, this.status);

    this.grid = new DataGrid({ headerVisibility: 'all', stretchLastColumn: true });
    this.grid.addClass('searchbook-DocumentGrid-grid');
    this.grid.dataModel = this.model;
    this.grid.selectionModel = new BasicSelectionModel({ dataModel: this.model, selectionMode: 'cell' });
    this.grid.mouseHandler = new HeaderMouseHandler({ headerClicked: () => undefined, cellOpened: (row, column) => this.openCell(row, column) });
    this.grid.keyHandler = new GridKeyHandler({
      copy: () => undefined,
      openCursorCell: () => this.openCell(this.grid.selectionModel?.cursorRow ?? -1, this.grid.selectionModel?.cursorColumn ?? -1),
      closeDetail: () => this.valueView.hide(),
    });
    const node = this.grid.node;
    node.setAttribute('role', 'grid');
    node.setAttribute('aria-label', this.title.label);
    this.describeGrid();
    this.model.changed.connect(() => this.describeGrid());
    this.model.statusChanged.connect((_, status) => this.showStatus(status));
    this.showStatus(this.model.currentStatus);

    this.addWidget(bar);
    this.addWidget(this.grid);
    this.addWidget(this.valueView);
    this.resizeObserver = new ResizeObserver(() => MessageLoop.sendMessage(this.grid, Widget.ResizeMessage.UnknownSize));
    this.stopWatchingTheme = onThemeChange(() => this.applyTheme());
  }

  get gridId(): string {
    return this.opened.gridId;
  }

  /** The datagrid, for scrolling from commands and tests. */
  get dataGrid(): DataGrid {
    return this.grid;
  }

  async refresh(): Promise<void> {
    this.status.textContent = 'Refreshing…';
    try {
      const reply = await this.client.request({ type: 'refresh', gridId: this.opened.gridId }, 'opened');
      this.opened = reply;
      this.model.reset(reply.columns, reply.total, reply.first);
      this.sized = false;
      this.applyTheme();
    } catch (err) {
      this.showStatus({ ...this.model.currentStatus, error: (err as Error).message });
    }
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.resizeObserver.disconnect();
    this.stopWatchingTheme();
    if (!this.client.isClosed) void this.client.request({ type: 'close', gridId: this.opened.gridId }, 'closed').catch(() => undefined);
    super.dispose();
  }

  /** A closed tab is done with: dispose it, which closes the grid in the kernel. */
  protected override onCloseRequest(msg: Parameters<Panel['processMessage']>[0]): void {
    super.onCloseRequest(msg);
    this.dispose();
  }

  protected override onAfterAttach(msg: Parameters<Panel['processMessage']>[0]): void {
    super.onAfterAttach(msg);
    this.resizeObserver.observe(this.node);
    this.applyTheme();
  }

  protected override onBeforeDetach(msg: Parameters<Panel['processMessage']>[0]): void {
    this.resizeObserver.unobserve(this.node);
    super.onBeforeDetach(msg);
  }

  private async read(block: number): Promise<{ block: Block; total: number }> {
    const reply = await this.client.request({ type: 'read', gridId: this.opened.gridId, block }, 'block');
    return { block: reply.block, total: reply.total };
  }

  private describeGrid(): void {
    this.grid.node.setAttribute('aria-rowcount', String(this.model.rowCount('body')));
    this.grid.node.setAttribute('aria-colcount', String(this.model.columnCount('body')));
    this.grid.node.dataset.columns = JSON.stringify(this.model.columns.map((c) => c.name));
  }

  /** `1,000 of 95,000 rows loaded · last: POST /_search 200 · 12 ms` (and the error, if any). */
  private showStatus(status: PagedStatus): void {
    const parts = [`${numberFormat.format(status.loadedRows)} of ${numberFormat.format(status.total)} rows loaded`];
    if (status.last) {
      const count = status.last.requests > 1 ? ` (${status.last.requests} requests)` : '';
      parts.push(`last: ${status.last.method} ${status.last.path} ${status.last.status} · ${Math.round(status.last.elapsedMs)} ms${count}`);
    }
    if (status.error) parts.push(`error: ${status.error}`);
    this.status.textContent = parts.join(' · ');
    this.grid.node.dataset.loadedRows = String(status.loadedRows);
    this.status.classList.toggle('searchbook-mod-error', status.error !== undefined);
  }

  private openCell(row: number, column: number): void {
    const col = this.model.columns[column];
    if (!col || row < 0 || !this.model.isLoaded(row)) return;
    this.valueView.open({ column: col.name, row: row + 1, value: this.model.value(row, column), cut: this.model.isCut(row, column) });
  }

  private applyTheme(): void {
    const theme = readGridTheme(this.node);
    this.grid.style = theme.style;
    this.grid.defaultSizes = {
      rowHeight: theme.rowHeight,
      columnWidth: 120,
      rowHeaderWidth: Math.max(48, String(this.model.rowCount('body')).length * 9 + 20),
      columnHeaderHeight: theme.rowHeight,
    };
    this.grid.cellRenderers.update({
      body: new TextRenderer({
        font: theme.font,
        textColor: theme.textColor,
        backgroundColor: ({ row, column }) => (this.model.isCut(row, column) ? theme.cutBackground : ''),
        elideDirection: 'right',
      }),
      'column-header': new TextRenderer({ font: ({ row }) => (row === 0 ? theme.headerFont : theme.font), textColor: ({ row }) => (row === 0 ? theme.textColor : theme.mutedColor) }),
      'row-header': new TextRenderer({ font: theme.font, textColor: theme.mutedColor, horizontalAlignment: 'right' }),
      'corner-header': new TextRenderer({ font: theme.headerFont, textColor: theme.mutedColor }),
    });
    if (!this.sized) {
      this.sized = true;
      fitColumnWidths(this.model, theme.font, theme.headerFont).forEach((width, column) => this.grid.resizeColumn('body', column, width));
    }
  }
}
