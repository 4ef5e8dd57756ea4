import type { FilterRow, GridView } from '@searchbook/contracts/panel-protocol';
import type { DocumentGridModel, GridEvent } from './document-grid-model';
import { FilterBar } from './filter-bar';
import { SearchBox } from './search-box';

/**
 * The grid tab's filter bar and, where the engine offers a search preview, its search box:
 * what they apply becomes the model's view; what the engine answers (the view applied, a
 * refused filter row, columns found later) shows in them.
 */
export class GridFilters {
  readonly bar: FilterBar;
  readonly searchBox: SearchBox | undefined;

  constructor(
    private readonly model: DocumentGridModel,
    focusGrid: () => void
  ) {
    const opened = model.opened;
    this.bar = new FilterBar(opened.columns, {
      matchCase: model.view.matchCase,
      matchCaseSupported: opened.matchCaseSupported,
      rawPlaceholder: opened.rawFilterHint,
      operators: opened.operators
    });
    this.bar.applied.connect((_, view) => void model.setFilter(view));
    if (opened.searchPreview) {
      this.searchBox = new SearchBox(opened.searchPreview);
      const score = opened.searchPreview.scoreColumn;
      this.searchBox.applied.connect(
        (_, search) => void model.setSearch(search, score)
      );
    }
    // Escape in the filter bar (or the search box, once empty) goes back to the grid's active
    // cell, as Escape leaves JupyterLab's find bar for the document.
    for (const node of [this.bar.node, this.searchBox?.node]) {
      node?.addEventListener('keydown', event => {
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault();
          event.stopPropagation();
          focusGrid();
        }
      });
    }
    model.events.connect((_, event) => this.follow(event));
    // New columns come with blocks now and then; cell repaints must not rebuild the menus.
    let offered = opened.columns.length;
    model.rows.changed.connect(() => {
      if (model.rows.allColumns.length === offered) {
        return;
      }
      offered = model.rows.allColumns.length;
      this.bar.setColumns(model.rows.allColumns);
    });
  }

  /** Shows `view` in the bar and the search box (`applied`: as the view the rows were read with). */
  show(view: GridView, applied: boolean): void {
    const { sort: _sort, search, ...filter } = view;
    this.searchBox?.setSearch(search);
    this.bar.setView(filter);
    if (applied) {
      this.bar.markApplied(filter);
    }
  }

  /** "Filter by this value": the row joins the bar's rows (blank ones dropped), and the view is read. */
  add(row: FilterRow): void {
    this.bar.dropBlankRows();
    this.bar.addRow(row);
    this.bar.clearRefusals();
    void this.model.setFilter(this.bar.view());
  }

  /** The bar joins its rows by Any and has some: one more row widens the view. */
  joinsAny(): boolean {
    const view = this.model.view;
    return view.join === 'any' && view.filters.length > 0;
  }

  private follow(event: GridEvent): void {
    if (event.kind === 'opened') {
      this.bar.markApplied(event.view);
      if (event.reply.searchPreview) {
        this.searchBox?.setOffer(event.reply.searchPreview);
      }
      this.bar.setColumns(this.model.rows.allColumns);
    } else if (event.kind === 'failed' && event.filterRow !== undefined) {
      this.bar.showRefusal(event.filterRow, event.message);
    }
  }
}
