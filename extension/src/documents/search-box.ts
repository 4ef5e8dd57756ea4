import { Signal } from '@lumino/signaling';
import { Widget } from '@lumino/widgets';
import type {
  GridSearch,
  SearchPreview
} from '@searchbook/contracts/search-preview';
import { toolbarButton } from './toolbar-button';

let counter = 0;

/**
 * The grid's search preview, where the engine offers one: a query box (`q`) and the fields it
 * searches (`query_by`, the engine's default fields until edited). Search asks the grid to
 * open the view ranked by the query; Clear returns to browsing, the filters kept. Enter in
 * either box searches, Escape in the query box clears it.
 */
export class SearchBox extends Widget {
  /** The query to rank by, or undefined to browse. */
  readonly applied = new Signal<this, GridSearch | undefined>(this);
  private readonly q = document.createElement('input');
  private readonly queryBy = document.createElement('input');
  private readonly state = document.createElement('span');
  private active: GridSearch | undefined;

  constructor(private offer: SearchPreview) {
    super();
    this.addClass('searchbook-SearchBox');
    this.node.setAttribute('role', 'search');
    this.node.setAttribute('aria-label', 'Search preview');
    const id = `searchbook-search-${++counter}`;
    const label = (control: HTMLInputElement, text: string, suffix: string) => {
      const node = document.createElement('label');
      control.id = `${id}-${suffix}`;
      node.htmlFor = control.id;
      node.textContent = text;
      node.className = 'searchbook-SearchBox-label';
      return node;
    };
    this.q.type = 'search';
    this.q.className = 'searchbook-SearchBox-q';
    this.q.title = offer.hint;
    this.q.placeholder = 'Search: words to rank the rows by';
    this.queryBy.type = 'text';
    this.queryBy.className = 'searchbook-SearchBox-queryBy';
    this.queryBy.title =
      'The fields searched, comma-separated (query_by); empty: the placeholder’s fields';
    this.showDefaults();
    for (const input of [this.q, this.queryBy]) {
      input.addEventListener('keydown', event => {
        if (event.key === 'Enter') {
          event.preventDefault();
          this.submit();
        } else if (event.key === 'Escape' && input === this.q && this.q.value) {
          // Escape in the query box clears it, as a search field does; the grid keeps the key otherwise.
          event.preventDefault();
          event.stopPropagation();
          this.clear();
        }
      });
    }
    this.state.className = 'searchbook-SearchBox-state';
    this.state.setAttribute('aria-live', 'polite');
    this.node.append(
      label(this.q, 'q', 'q'),
      this.q,
      label(this.queryBy, 'query_by', 'query-by'),
      this.queryBy,
      toolbarButton(
        'Search',
        'Rank the rows by text match of q over query_by; the filters still apply',
        () => this.submit()
      ),
      toolbarButton(
        'Clear',
        'Clear the query and browse the rows in the grid’s usual order, the filters kept',
        () => this.clear()
      ),
      this.state
    );
    this.showState();
  }

  /** The query the grid shows, or undefined while it browses. */
  get current(): GridSearch | undefined {
    return this.active;
  }

  /** Shows `search` in the boxes: the grid was opened with it (a tab restored after a reload, the previous view). */
  setSearch(search: GridSearch | undefined): void {
    this.active = search;
    this.q.value = search?.q ?? '';
    this.queryBy.value = search?.queryBy ?? '';
    this.showState();
  }

  /** The engine's offer for the view just opened (its default fields may have changed with the schema). */
  setOffer(offer: SearchPreview): void {
    this.offer = offer;
    this.showDefaults();
  }

  focusQuery(): void {
    this.q.focus();
  }

  private showDefaults(): void {
    this.queryBy.placeholder =
      this.offer.queryBy.join(',') || 'fields to search, e.g. title,author';
  }

  private submit(): void {
    const q = this.q.value.trim();
    if (q === '') {
      this.clear();
      return;
    }
    this.active = { q, queryBy: this.queryBy.value.trim() };
    this.showState();
    this.applied.emit(this.active);
  }

  private clear(): void {
    const wasActive = this.active !== undefined;
    this.active = undefined;
    this.q.value = '';
    this.showState();
    if (wasActive) {
      this.applied.emit(undefined);
    }
  }

  private showState(): void {
    this.node.classList.toggle(
      'searchbook-mod-active',
      this.active !== undefined
    );
    this.state.textContent = this.active
      ? `Ranked by ${this.offer.scoreColumn}; matches in ${this.offer.highlightColumn}`
      : 'Browsing';
  }
}
