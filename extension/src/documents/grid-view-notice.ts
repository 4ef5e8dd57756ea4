import type { DataGrid } from '@lumino/datagrid';
import type { GridView } from '@searchbook/contracts/panel-protocol';
import { exactJson } from '@searchbook/contracts/exact-json';
import { toolbarButton } from './toolbar-button';

/**
 * What is said over the grid's rows, below its header, when there are none to show: a new view
 * loading, a view that failed (with the previous view one click away), or an empty answer. It
 * sits beside the grid element, not inside it: a grid may hold rows only (a live region or an
 * alert inside would break the grid pattern a screen reader follows).
 */
export class GridViewNotice {
  readonly node = document.createElement('div');

  constructor(
    private readonly grid: DataGrid,
    private readonly backToShownView: () => void
  ) {
    this.node.className = 'searchbook-DocumentGrid-viewState';
    this.node.hidden = true;
  }

  /** Loading or failed: said in place of the rows; undefined: the rows are shown. */
  show(state: 'loading' | 'failed' | undefined, message = ''): void {
    const node = this.node;
    delete node.dataset.empty;
    node.hidden = state === undefined;
    node.classList.toggle('searchbook-mod-error', state === 'failed');
    this.grid.node.setAttribute('aria-busy', String(state === 'loading'));
    this.grid.node.dataset.view = state ?? 'shown';
    if (state === 'loading') {
      node.setAttribute('role', 'status');
      node.textContent = 'Loading…';
    } else if (state === 'failed') {
      node.setAttribute('role', 'alert');
      const text = document.createElement('p');
      text.textContent = `No rows: ${message}`;
      const back = toolbarButton(
        'Back to the previous filter',
        'Show the rows of the filter and sort shown before',
        () => this.backToShownView()
      );
      node.replaceChildren(text, back);
    } else {
      node.replaceChildren();
    }
    this.place();
  }

  /** No rows to show: `text` said in place of them (its first line as a heading); '' when there are rows. */
  sayEmpty(text: string): void {
    const node = this.node;
    if ((node.dataset.empty ?? '') === text) {
      return;
    }
    const empty = text !== '';
    node.hidden = !empty;
    this.grid.node.dataset.view = empty ? 'empty' : 'shown';
    if (!empty) {
      delete node.dataset.empty;
      node.replaceChildren();
      return;
    }
    node.dataset.empty = text;
    node.classList.remove('searchbook-mod-error');
    node.setAttribute('role', 'status');
    const [title, ...rest] = text.split('\n');
    const heading = document.createElement('p');
    heading.className = 'searchbook-DocumentGrid-emptyTitle';
    heading.textContent = title ?? '';
    const lines = rest.map(line => {
      const p = document.createElement('p');
      p.textContent = line;
      return p;
    });
    node.replaceChildren(heading, ...lines);
    this.place();
  }

  /** Over the grid's rows, below its header. */
  place(): void {
    if (this.node.hidden) {
      return;
    }
    const grid = this.grid.node;
    this.node.style.top = `${grid.offsetTop + this.grid.headerHeight}px`;
    this.node.style.left = `${grid.offsetLeft}px`;
    this.node.style.width = `${grid.offsetWidth}px`;
  }
}

/** What an empty grid says: the first line, then the view that matched nothing. */
export function emptyText(view: GridView | undefined, target: string): string {
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
