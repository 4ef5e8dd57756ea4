import { Panel } from '@lumino/widgets';
import { gridHeight, type GridView } from '../datagrid/grid-view';
import { readGridTheme } from '../datagrid/grid-theme';
import { block } from './block';

type PanelMessage = Parameters<Panel['processMessage']>[0];

/** How far outside the scrolled view a grid is built, so it is drawn before it is reached. */
const AHEAD = '1500px 0px';
/**
 * How far outside it a built grid lets go of its rows (read again from the answer when it
 * comes back near): far enough that scrolling to and fro past it does not read them each time.
 */
const FAR = '5000px 0px';

/** What a grid is built from, and what its place needs to know before it is. */
export interface GridPlan {
  /** Builds the grid, its rows read from the answer only now. */
  build: () => GridView;
  rows: number;
  headerRows: number;
}

/**
 * Holds the place of a grid, at its height, and builds it only when it comes near the part
 * of the notebook shown: a notebook of many answers opens paying for the few grids a reader
 * sees, and each of the others reads its rows from its answer when it is scrolled to. Where
 * the page cannot tell what is shown (no IntersectionObserver), the grid is built at once.
 */
export class GridWhenNear extends Panel {
  private grid: GridView | undefined;
  private observers: IntersectionObserver[] = [];

  constructor(private readonly plan: GridPlan) {
    super();
    this.addClass('searchbook-GridPlace');
    const height = gridHeight(
      plan.headerRows,
      plan.rows,
      readGridTheme().rowHeight,
      false
    );
    this.node.style.minHeight = `${height}px`;
    if (typeof IntersectionObserver === 'undefined') {
      this.buildOrSayWhyNot();
    }
  }

  /** Builds the grid (or reads its rows again); an answer that cannot be read says so there. */
  private buildOrSayWhyNot(): void {
    if (this.grid) {
      // Read now, before the grid paints them in a frame of the scroll.
      void this.grid.model.rows;
      return;
    }
    try {
      this.ensureBuilt();
    } catch (error) {
      this.stopWatching();
      this.node.style.minHeight = '';
      const reason = error instanceof Error ? error.message : String(error);
      this.node.replaceChildren(
        block(
          'searchbook-Unreadable-reason',
          `searchbook cannot show these rows: the answer this output keeps could not be read (${reason.slice(0, 300)}).`
        )
      );
    }
  }

  /** The grid, built now if it was not yet (a copy from the toolbar needs its rows). */
  ensureBuilt(): GridView {
    if (!this.grid) {
      this.grid = this.plan.build();
      this.node.style.minHeight = '';
      this.addWidget(this.grid);
    }
    return this.grid;
  }

  override dispose(): void {
    this.stopWatching();
    super.dispose();
  }

  protected override onAfterAttach(msg: PanelMessage): void {
    super.onAfterAttach(msg);
    if (typeof IntersectionObserver === 'undefined') {
      return;
    }
    // The notebook and the console scroll inside their own panels: a margin on the page's
    // viewport would not reach past that panel's edge.
    const root = this.node.closest<HTMLElement>(
      '.jp-WindowedPanel-outer, .jp-CodeConsole-content'
    );
    const near = new IntersectionObserver(
      entries => {
        if (entries.some(entry => entry.isIntersecting)) {
          this.buildOrSayWhyNot();
        }
      },
      { root, rootMargin: AHEAD }
    );
    const far = new IntersectionObserver(
      entries => {
        if (entries.every(entry => !entry.isIntersecting)) {
          this.grid?.model.releaseRows();
        }
      },
      { root, rootMargin: FAR }
    );
    this.observers = [near, far];
    for (const observer of this.observers) {
      observer.observe(this.node);
    }
  }

  protected override onBeforeDetach(msg: PanelMessage): void {
    this.stopWatching();
    // Off the page (a notebook that keeps only the cells in view attached): nothing to show.
    this.grid?.model.releaseRows();
    super.onBeforeDetach(msg);
  }

  private stopWatching(): void {
    for (const observer of this.observers) {
      observer.disconnect();
    }
    this.observers = [];
  }
}
