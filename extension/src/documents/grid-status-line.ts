import type { PagedStatus } from './paged-rows';

const numberFormat = new Intl.NumberFormat('en-US');

/** What the status line needs to know beyond the rows: whether the view shows at all. */
export interface ViewPhase {
  /** A new view is being read. */
  viewLoading: boolean;
  /** Why the view asked for last shows no rows, if it failed. */
  viewFailure: string | undefined;
  /** Why the grid can no longer read, if it cannot. */
  gone: string | undefined;
}

/**
 * The grid tab's status line: `1,000 of 95,000 rows loaded · last: POST /_search 200 · 12 ms`
 * (and the error, if any), also told to the grid element for UI automation.
 */
export class GridStatusLine {
  readonly node = document.createElement('div');

  constructor(private readonly grid: HTMLElement) {
    this.node.className = 'searchbook-Status searchbook-DocumentGrid-status';
    this.node.setAttribute('role', 'status');
  }

  /** Says a text in place of the figures until the next status. */
  say(text: string): void {
    this.node.textContent = text;
  }

  show(status: PagedStatus, phase: ViewPhase): void {
    if (phase.gone !== undefined) {
      status = { ...status, error: phase.gone };
    }
    const parts = [...figures(status, phase)];
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
    this.node.textContent = parts.join(' · ');
    this.grid.dataset.loadedRows = String(status.loadedRows);
    this.grid.setAttribute(
      'aria-busy',
      String(phase.viewLoading || status.loading !== undefined)
    );
    this.node.classList.toggle(
      'searchbook-mod-error',
      status.error !== undefined || phase.viewFailure !== undefined
    );
  }
}

/** The rows loading and loaded; while a new view loads, no count: the figures would be of no view. */
function figures(status: PagedStatus, phase: ViewPhase): string[] {
  if (phase.viewLoading) {
    return ['Loading the rows of the new filter or sort…'];
  }
  if (phase.viewFailure !== undefined && phase.gone === undefined) {
    return [
      'No rows: this filter or sort was not applied (see why below the bar)'
    ];
  }
  const loading = status.loading
    ? [
        `Loading rows ${numberFormat.format(status.loading.first)}–${numberFormat.format(status.loading.last)}…`
      ]
    : [];
  return [
    ...loading,
    `${numberFormat.format(status.loadedRows)} of ${numberFormat.format(status.total)} rows loaded`
  ];
}
