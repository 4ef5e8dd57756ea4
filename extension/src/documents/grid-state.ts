import type { DataGrid } from '@lumino/datagrid';
import type { DocumentGridModel, GridEvent } from './document-grid-model';
import type { PagedStatus } from './paged-rows';
import { GridStatusLine } from './grid-status-line';
import { emptyText, GridViewNotice } from './grid-view-notice';

/**
 * What the grid tab says about its rows, following its model: the status line, the engine's
 * notes on the view, the notice over the rows (loading, failed, empty), and the grid element's
 * row and column counts for assistive technology and UI automation.
 */
export class GridState {
  readonly status: GridStatusLine;
  readonly notice: GridViewNotice;
  readonly notes = document.createElement('div');

  constructor(
    private readonly model: DocumentGridModel,
    private readonly grid: DataGrid,
    backToShownView: () => void
  ) {
    this.status = new GridStatusLine(grid.node);
    this.notice = new GridViewNotice(grid, backToShownView);
    this.notes.className = 'searchbook-DocumentGrid-notes';
    this.notes.setAttribute('role', 'note');
    this.notes.hidden = true;
    const rows = model.rows;
    this.describeGrid();
    rows.changed.connect(() => {
      this.describeGrid();
      this.sayIfEmpty();
    });
    rows.statusChanged.connect((_, status) => this.show(status));
    this.show(rows.currentStatus);
    this.showNotes(model.opened.notes);
    model.events.connect((_, event) => this.follow(event));
  }

  /** Says why an action failed on the status line, beside the figures. */
  showError(message: string): void {
    this.show({ ...this.model.rows.currentStatus, error: message });
  }

  private follow(event: GridEvent): void {
    switch (event.kind) {
      case 'loading':
        this.grid.scrollTo(this.grid.scrollX, 0);
        return this.showViewState('loading');
      case 'opened':
        this.showViewState(undefined);
        this.grid.scrollTo(this.grid.scrollX, 0);
        this.showNotes(event.reply.notes);
        return this.describeGrid();
      case 'failed':
        return this.showViewState('failed', event.message);
      case 'refreshing':
        return this.status.say('Refreshing…');
      case 'refreshed':
        return this.showNotes(event.reply.notes);
      case 'error':
        return this.showError(event.message);
      case 'gone':
        return this.show(this.model.rows.currentStatus);
      case 'sorted':
        this.grid.node.dataset.sort = JSON.stringify(this.model.sortKeys);
    }
  }

  private show(status: PagedStatus): void {
    this.status.show(status, this.model);
    this.sayIfEmpty();
  }

  private showViewState(
    state: 'loading' | 'failed' | undefined,
    message = ''
  ): void {
    this.notice.show(state, message);
    this.show(this.model.rows.currentStatus);
  }

  private showNotes(notes: readonly string[]): void {
    this.notes.textContent = notes.join(' ');
    this.notes.hidden = notes.length === 0;
  }

  private describeGrid(): void {
    const rows = this.model.rows;
    const node = this.grid.node;
    node.setAttribute('aria-rowcount', String(rows.rowCount('body')));
    node.setAttribute('aria-colcount', String(rows.columnCount('body')));
    node.dataset.columns = JSON.stringify(rows.columns.map(c => c.name));
  }

  /**
   * No rows to show (and no new row typed): said in place of the rows, with the view that
   * matched nothing, or that the index or collection holds no documents.
   */
  private sayIfEmpty(): void {
    if (this.model.viewLoading || this.model.viewFailure !== undefined) {
      return;
    }
    const rows = this.model.rows;
    const empty =
      rows.currentStatus.total === 0 &&
      rows.rowCount('body') === 0 &&
      !rows.currentStatus.loading;
    this.notice.sayEmpty(
      empty ? emptyText(this.model.shownView, this.model.opened.target) : ''
    );
  }
}
