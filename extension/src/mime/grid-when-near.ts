import { Panel } from '@lumino/widgets';
import type { GridView } from '../datagrid/grid-view';

type PanelMessage = Parameters<Panel['processMessage']>[0];

/** How far outside the scrolled view a grid is built, so it is drawn before it is reached. */
const AHEAD = '1000px 0px';
/** A placeholder's height until its grid is built: a header and up to fifteen rows of 25 px. */
const ROW_PX = 25;
const VISIBLE_ROWS = 15;

/**
 * Holds the place of a grid and builds it only when it comes near the part of the notebook
 * shown: a notebook of many answers then opens paying for the few grids a reader sees, and
 * the rest are built from their answers as they are scrolled to.
 */
export class GridWhenNear extends Panel {
  private grid: GridView | undefined;
  private observer: IntersectionObserver | undefined;

  constructor(
    private readonly build: () => GridView,
    rows: number
  ) {
    super();
    this.addClass('searchbook-GridPlace');
    this.node.style.minHeight = `${(Math.min(rows, VISIBLE_ROWS) + 1) * ROW_PX}px`;
  }

  /** The grid, built now if it was not yet (a copy from the toolbar needs it). */
  ensureBuilt(): GridView {
    if (!this.grid) {
      this.grid = this.build();
      this.node.style.minHeight = '';
      this.stopWatching();
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
    if (this.grid) {
      return;
    }
    // The notebook scrolls inside its own panel: a margin on the page's viewport would not
    // reach past that panel's edge.
    const scroller = this.node.closest<HTMLElement>(
      '.jp-WindowedPanel-outer, .jp-CodeConsole-content'
    );
    this.observer = new IntersectionObserver(
      entries => {
        if (entries.some(entry => entry.isIntersecting)) {
          this.ensureBuilt();
        }
      },
      { root: scroller ?? null, rootMargin: AHEAD }
    );
    this.observer.observe(this.node);
  }

  protected override onBeforeDetach(msg: PanelMessage): void {
    this.stopWatching();
    super.onBeforeDetach(msg);
  }

  private stopWatching(): void {
    this.observer?.disconnect();
    this.observer = undefined;
  }
}
