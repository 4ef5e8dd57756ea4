import { Panel } from '@lumino/widgets';
import { gridHeight, type GridView } from '../datagrid/grid-view';
import { readGridTheme } from '../datagrid/grid-theme';
import { block } from './block';
import { followScrolls, scrolledLately, scrollingPast } from './scroll-speed';

type PanelMessage = Parameters<Panel['processMessage']>[0];

/**
 * How far outside the scrolled view a grid is built in the next frame while the view is being
 * scrolled, so it is drawn before it is reached. Not scrolled, a grid there waits for idle
 * time (SOON): a notebook opening pays in its frames only for the grids a reader sees.
 */
const AHEAD = '1500px 0px';
/**
 * How far outside the view a grid is built in idle time, before the scroll brings it near: a
 * scroll then seldom pays for a build in one of its frames. Inside FAR, so a grid built this
 * way keeps its rows until it is reached.
 */
const SOON_PX = 3500;
const SOON = `${SOON_PX}px 0px`;
/**
 * Idle time an idle build needs left in its slot (a build takes a few milliseconds): less, and
 * it would run into the next frame of a scroll.
 */
const IDLE_BUILD_MS = 8;
/**
 * How far outside it a built grid lets go of its rows (read again from the answer when it
 * comes back near): far enough that scrolling to and fro past it does not read them each time.
 */
const FAR = '5000px 0px';

/**
 * Places in the view (or ahead of a moving scroll) waiting for their grid, in the order they
 * came there. One is built a frame, and only if it is still there then: a notebook first laid
 * out before its outputs have their heights finds every output in view at once, and the grids
 * built first push the others away.
 * Places a scroll is passing faster than anyone reads wait until it slows: building and first
 * painting a grid a frame would keep a fast scroll under 30 frames a second, for grids on
 * screen for a frame or two.
 */
const waiting = new Set<GridWhenNear>();
let scheduled = false;

function buildWaitingSoon(): void {
  if (scheduled) {
    return;
  }
  scheduled = true;
  const next = (): void => {
    scheduled = false;
    for (const place of waiting) {
      if (place.beingPassed()) {
        continue;
      }
      waiting.delete(place);
      if (place.buildIfStillNear()) {
        break;
      }
    }
    if (waiting.size > 0) {
      buildWaitingSoon();
    }
  };
  if (typeof requestAnimationFrame === 'function') {
    requestAnimationFrame(next);
  } else {
    setTimeout(next, 0);
  }
}

/** Places within SOON_PX of the view without their grid, built one per idle slot, nearest first. */
const soon = new Set<GridWhenNear>();
let idleScheduled = false;

function buildSoonWhenIdle(): void {
  if (idleScheduled || typeof requestIdleCallback !== 'function') {
    return;
  }
  idleScheduled = true;
  requestIdleCallback(deadline => {
    idleScheduled = false;
    if (deadline.timeRemaining() >= IDLE_BUILD_MS) {
      let nearest: GridWhenNear | undefined;
      let nearestPx = Number.POSITIVE_INFINITY;
      for (const place of soon) {
        // As last observed, not read from the layout now: a read here, after the previous
        // build changed the page, would recompute its styles and layout once per grid.
        const px = place.observedPxFromView();
        if (px === undefined || px > SOON_PX) {
          soon.delete(place);
        } else if (px < nearestPx) {
          nearest = place;
          nearestPx = px;
        }
      }
      if (nearest && !nearest.beingPassed()) {
        soon.delete(nearest);
        nearest.buildAhead();
      }
    }
    if (soon.size > 0) {
      buildSoonWhenIdle();
    }
  });
}

/** What a grid is built from, and what its place needs to know before it is. */
export interface GridPlan {
  /** Builds the grid, its rows read from the answer only now. */
  build: () => GridView;
  rows: number;
  headerRows: number;
  /**
   * Readies what the build will read, off the page's script where it can (an answer's
   * decompression): called once, as the place first comes within SOON of the view; a place
   * near the view waits for it before its build is queued. Never rejects.
   */
  prepare?: () => Promise<void>;
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
  /** Whether the place was in the view when last told. */
  private inView = false;
  /** Whether the place was within AHEAD of the view when last told. */
  private ahead = false;
  /** Pixels from the view when the SOON observer last saw the place within its margin. */
  private observedPx = Number.POSITIVE_INFINITY;
  /** The panel the place scrolls in (the notebook's, the console's). */
  private scroller: HTMLElement | null = null;
  private prepared: Promise<void> | undefined;

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

  /**
   * Builds the grid if its place is still near the view and attached; whether it did. Near as
   * the observer last said, which it says after each layout: a grid built in the frame before
   * that pushed this place away has been told by now, without a layout read here (one per grid
   * would recompute the page's styles and layout each time).
   */
  buildIfStillNear(): boolean {
    if (!this.near() || this.grid || !this.isAttached) {
      return false;
    }
    this.buildOrSayWhyNot();
    return true;
  }

  /**
   * In the view, or ahead of a scroll that is moving: its grid is built in a frame, not in idle
   * time. A browser without idle callbacks builds ahead in frames, as nothing else would.
   */
  private near(): boolean {
    return (
      this.inView ||
      (this.ahead &&
        (scrolledLately(this.scroller) ||
          typeof requestIdleCallback !== 'function'))
    );
  }

  /** Whether a scroll is passing the place faster than anyone reads (see scrollingPast): its grid waits. */
  beingPassed(): boolean {
    return scrollingPast(this.scroller);
  }

  /** How far from the view the place was when last observed; undefined once it has its grid or is off the page. */
  observedPxFromView(): number | undefined {
    return this.grid || !this.isAttached ? undefined : this.observedPx;
  }

  /** Builds the grid ahead of the scroll, in idle time. */
  buildAhead(): void {
    waiting.delete(this);
    this.buildOrSayWhyNot();
  }

  /** Builds the grid; an answer that cannot be read says so where its grid would be. */
  private buildOrSayWhyNot(): void {
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
    waiting.delete(this);
    soon.delete(this);
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
    this.scroller = root;
    if (root) {
      followScrolls(root);
    }
    const queueIfNear = (): void => {
      // A built grid reads only the rows it draws, each from its own document's text.
      if (this.near() && !this.grid) {
        // A place a fast scroll is passing is not readied: that work would slow the scroll.
        const ready = this.beingPassed() ? Promise.resolve() : this.prepare();
        void ready.then(() => {
          if (this.near() && !this.grid && !this.isDisposed) {
            waiting.add(this);
            buildWaitingSoon();
          }
        });
      }
    };
    const inView = new IntersectionObserver(
      entries => {
        this.inView = entries.at(-1)?.isIntersecting ?? this.inView;
        queueIfNear();
      },
      { root }
    );
    const near = new IntersectionObserver(
      entries => {
        this.ahead = entries.at(-1)?.isIntersecting ?? this.ahead;
        queueIfNear();
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
    const ahead = new IntersectionObserver(
      entries => {
        const entry = entries.at(-1);
        if (entry?.isIntersecting && !this.grid) {
          if (!this.beingPassed()) {
            void this.prepare();
          }
          this.observedPx = pxOutside(entry, SOON_PX);
          soon.add(this);
          buildSoonWhenIdle();
        } else {
          soon.delete(this);
        }
      },
      { root, rootMargin: SOON }
    );
    this.observers = [inView, near, ahead, far];
    for (const observer of this.observers) {
      observer.observe(this.node);
    }
  }

  protected override onBeforeDetach(msg: PanelMessage): void {
    waiting.delete(this);
    soon.delete(this);
    this.inView = false;
    this.ahead = false;
    this.stopWatching();
    // Off the page (a notebook that keeps only the cells in view attached): nothing to show.
    this.grid?.model.releaseRows();
    super.onBeforeDetach(msg);
  }

  private prepare(): Promise<void> {
    this.prepared ??= this.plan.prepare?.() ?? Promise.resolve();
    return this.prepared;
  }

  private stopWatching(): void {
    for (const observer of this.observers) {
      observer.disconnect();
    }
    this.observers = [];
  }
}

/**
 * How many pixels an observed place lay above or below the view (0: in it). The entry's root
 * box includes the observer's margin, `marginPx` above and below.
 */
function pxOutside(entry: IntersectionObserverEntry, marginPx: number): number {
  const place = entry.boundingClientRect;
  const root = entry.rootBounds;
  const view = root
    ? { top: root.top + marginPx, bottom: root.bottom - marginPx }
    : { top: 0, bottom: window.innerHeight };
  return Math.max(0, place.top - view.bottom, view.top - place.bottom);
}
