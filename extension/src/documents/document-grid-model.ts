import { Signal } from '@lumino/signaling';
import type {
  Block,
  GridReply,
  GridView,
  SortKey
} from '@searchbook/contracts/panel-protocol';
import type { GridSearch } from '@searchbook/contracts/search-preview';
import { type PanelClient, PanelRequestError } from '../panel-client';
import { searchbookSettings } from '../settings/searchbook-settings';
import { EditableRowsModel } from './editable-rows-model';
import { FIRST_SCREEN_ROWS } from './first-screen';
import { PendingSync } from './pending-store';

export type OpenedGrid = Omit<
  Extract<GridReply, { type: 'opened' }>,
  'v' | 'requestId' | 'type'
>;

/** The filter rows, their join, the raw filter and match case: a view less its sort. */
export type FilterView = Omit<GridView, 'sort'>;

/** What happened to the grid, for its tab to show. */
export type GridEvent =
  /** A new view is being read: its rows are not there yet. */
  | { kind: 'loading' }
  /** The engine answered the view: these rows are shown. */
  | { kind: 'opened'; view: GridView; reply: OpenedGrid }
  /** The view was refused or failed (`filterRow`: the filter row the engine refused). */
  | { kind: 'failed'; message: string; filterRow?: number | 'raw' }
  /** The grid was read again from the start. */
  | { kind: 'refreshing' }
  | { kind: 'refreshed'; reply: OpenedGrid }
  /** A request of the grid failed; the rows shown stay. */
  | { kind: 'error'; message: string }
  /** The grid can no longer read (`kernel`: its kernel is gone too). */
  | { kind: 'gone'; kernel: boolean }
  /** The sort keys' header marks changed. */
  | { kind: 'sorted' };

const SORT_ARROWS = { asc: '▲', desc: '▼' } as const;

/**
 * A grid tab's model: the view it shows (filter rows, sort, search query), its rows (with the
 * pending changes over them), and its calls to the kernel's panel: open a view, refresh, read
 * blocks, close. Only the newest view asked for is shown; an older answer is closed unseen.
 */
export class DocumentGridModel {
  readonly rows: EditableRowsModel;
  readonly pendingSync: PendingSync;
  readonly events = new Signal<this, GridEvent>(this);
  /** The engine answered a new view (filters, sort): the tab's restore state follows it. */
  readonly viewChanged = new Signal<this, GridView>(this);
  /** A save inserted or deleted documents of this target. */
  readonly documentsChanged = new Signal<
    this,
    { connection: string; target: string }
  >(this);
  private filterView: FilterView;
  private sort: SortKey[] = [];
  /** The search query ranking the rows (where the engine offers a preview); undefined: browsing. */
  private search: GridSearch | undefined;
  /** The view whose rows are shown (the last one the engine answered). */
  private shown: GridView;
  /** Views asked for so far: only the newest one's answer is shown. */
  private viewRequests = 0;
  private loading = false;
  private failure: string | undefined;
  /** Why this grid no longer reads (its connection was replaced or closed, the kernel restarted). */
  private goneWhy: string | undefined;

  constructor(
    readonly client: PanelClient,
    private current: OpenedGrid
  ) {
    // Match case as the settings say, where the engine can match case at all.
    const matchCase =
      current.matchCaseSupported &&
      searchbookSettings.current.matchCaseByDefault;
    this.filterView = { filters: [], join: 'all', raw: '', matchCase };
    this.shown = this.view;
    // Pending changes typed before (a kernel restart, a page reload) come back with the grid.
    this.pendingSync = new PendingSync(current.connection, current.target);
    this.rows = new EditableRowsModel(
      current.columns,
      current.total,
      current.blockSize,
      current.first,
      block => this.read(block),
      this.pendingSync.load(),
      () => this.current.target
    );
    // Other pages on the same JupyterLab share the pending set: their changes show here at once.
    this.pendingSync.watch(this.rows.pending, removed => {
      this.rows.pendingUpdated(true);
      // Another page saved (or dropped) a change shown here: read the rows again, so they show what is stored.
      if (removed) {
        void this.refresh();
      }
    });
    this.rows.documentsChanged.connect(() => {
      const { connection, target } = this.current;
      this.documentsChanged.emit({ connection, target });
    });
    client.ended.connect((_, { gridId, message }) => {
      if (gridId === this.current.gridId) {
        this.setGone(message, false);
      }
    }, this);
    client.failed.connect((_, message) => this.setGone(message, true), this);
  }

  /** What the kernel answered when the grid was last opened or read again. */
  get opened(): OpenedGrid {
    return this.current;
  }

  /** The grid's view: filter rows, the engine sort in click order, the search query. */
  get view(): GridView {
    return {
      ...this.filterView,
      sort: this.sort,
      ...(this.search ? { search: this.search } : {})
    };
  }

  /** The view whose rows are shown: "Back to the previous filter" returns to it. */
  get shownView(): GridView {
    return this.shown;
  }

  /** A new view is being read. */
  get viewLoading(): boolean {
    return this.loading;
  }

  /** Why the view asked for last shows no rows, if it failed. */
  get viewFailure(): string | undefined {
    return this.failure;
  }

  /** Why the grid can no longer read, if it cannot. */
  get gone(): string | undefined {
    return this.goneWhy;
  }

  /** This grid can no longer read: its kernel or its grid in the kernel is gone. */
  get isGone(): boolean {
    return this.goneWhy !== undefined || this.client.isClosed;
  }

  /** The sort keys, in click order. */
  get sortKeys(): readonly SortKey[] {
    return this.sort;
  }

  /** The request as a console cell, on the grid's connection. */
  cellText(): string {
    return `%use ${this.current.connection}\n${this.current.request.cell}`;
  }

  /** The filter bar's rows were applied. */
  setFilter(filter: FilterView): Promise<void> {
    this.filterView = filter;
    return this.applyView();
  }

  /** The search box's query was applied (undefined: back to browsing, which has no score to sort by). */
  setSearch(
    search: GridSearch | undefined,
    scoreColumn: string
  ): Promise<void> {
    this.search = search;
    if (!search) {
      this.sort = this.sort.filter(k => k.column !== scoreColumn);
    }
    return this.applyView();
  }

  /** Header click on the column at this grid position: ascending, then descending, then off; a new column sorts after the others. */
  async sortBy(column: number): Promise<void> {
    const name = this.rows.columns[column]?.name;
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
    return this.applyView();
  }

  /** Takes `view` as the one shown, without reading (the grid was opened with it). */
  adopt(view: GridView): void {
    this.take(view);
    this.shown = view;
  }

  /** Takes the view whose rows were shown last back, and reads it; returns it for the bar. */
  back(): GridView {
    const view = this.shown;
    this.take(view);
    void this.applyView();
    return view;
  }

  private take(view: GridView): void {
    const { sort, search, ...filter } = view;
    this.filterView = filter;
    this.sort = sort;
    this.search = search;
    this.markSort();
  }

  /**
   * Reopens the grid through the engine with the current view. Until the engine answers, the
   * rows of the previous view are gone and the grid says it is loading; a refused or failed
   * view keeps its message in place of rows.
   */
  async applyView(): Promise<void> {
    const asked = ++this.viewRequests;
    const view = this.view;
    this.rows.clearRows();
    this.setPhase(true, undefined);
    this.events.emit({ kind: 'loading' });
    try {
      const reply = await this.client.request(
        {
          type: 'open',
          connection: this.current.connection,
          target: this.current.target,
          blockSize: this.current.blockSize,
          view,
          firstRows: FIRST_SCREEN_ROWS
        },
        'opened'
      );
      if (asked !== this.viewRequests) {
        // A newer view (a second header click) was asked for meanwhile: this one is already stale.
        this.closeGrid(reply.gridId);
        return;
      }
      const old = this.current.gridId;
      this.current = reply;
      this.goneWhy = undefined;
      this.closeGrid(old);
      this.shown = view;
      this.setPhase(false, undefined);
      this.rows.reset(reply.columns, reply.total, reply.first);
      this.markSort();
      this.events.emit({ kind: 'opened', view, reply });
      this.viewChanged.emit(view);
    } catch (err) {
      if (asked !== this.viewRequests) {
        return;
      }
      const message = (err as Error).message;
      this.setPhase(false, message);
      this.events.emit({
        kind: 'failed',
        message,
        ...(err instanceof PanelRequestError && err.filterRow !== undefined
          ? { filterRow: err.filterRow }
          : {})
      });
    }
  }

  /** Reads the grid again from the start (a grid gone or a view not shown opens its view afresh). */
  async refresh(): Promise<void> {
    if (
      (this.goneWhy !== undefined ||
        this.failure !== undefined ||
        this.loading) &&
      !this.client.isClosed
    ) {
      return this.applyView();
    }
    this.events.emit({ kind: 'refreshing' });
    const asked = this.viewRequests;
    try {
      const reply = await this.client.request(
        { type: 'refresh', gridId: this.current.gridId },
        'opened'
      );
      // A new filter or sort was asked for meanwhile: these rows are of the view it replaces.
      if (asked !== this.viewRequests) {
        return;
      }
      this.current = reply;
      this.rows.reset(reply.columns, reply.total, reply.first);
      this.events.emit({ kind: 'refreshed', reply });
    } catch (err) {
      if (asked === this.viewRequests) {
        this.events.emit({ kind: 'error', message: (err as Error).message });
      }
    }
  }

  /** Stops following other pages and the kernel, and closes the grid in the kernel (which releases its cursor). */
  dispose(): void {
    this.pendingSync.unwatch();
    Signal.clearData(this);
    if (!this.client.isClosed) {
      this.closeGrid(this.current.gridId);
    }
  }

  private read(block: number): Promise<{ block: Block; total: number }> {
    return this.client
      .request({ type: 'read', gridId: this.current.gridId, block }, 'block')
      .then(reply => ({ block: reply.block, total: reply.total }));
  }

  private closeGrid(gridId: string): void {
    void this.client
      .request({ type: 'close', gridId }, 'closed')
      .catch(() => undefined);
  }

  private setPhase(loading: boolean, failure: string | undefined): void {
    this.loading = loading;
    this.failure = failure;
  }

  private setGone(message: string, kernel: boolean): void {
    this.goneWhy = message;
    this.events.emit({ kind: 'gone', kernel });
  }

  /** Header marks for the columns the engine sorts by; a column left out (see the note) gets none. */
  private markSort(): void {
    const applied = this.sort.filter(k =>
      this.current.sortedBy.includes(k.column)
    );
    const many = applied.length > 1;
    this.rows.setSortMarks(
      new Map(
        applied.map((k, i) => [
          k.column,
          ` ${SORT_ARROWS[k.direction]}${many ? i + 1 : ''}`
        ])
      )
    );
    this.events.emit({ kind: 'sorted' });
  }
}
