import type { JupyterFrontEnd } from '@jupyterlab/application';
import { WidgetTracker } from '@jupyterlab/apputils';
import { DockPanel, type Widget } from '@lumino/widgets';
import type { IDocumentGrid } from '../tokens';
import { GridReopenTab } from './grid-reopen-tab';

/**
 * Where the grid tabs live: one dock area beside the notebook. The first grid splits the main
 * area to the right of the notebook or console the user works in; every later one is a tab
 * beside an open grid, so the notebook keeps its width however many grids are open. The
 * tracker knows the open grid tabs (and the ones that could not be reopened after a reload),
 * for the layout restorer.
 */
export class GridTabs {
  readonly tracker = new WidgetTracker<IDocumentGrid>({
    namespace: 'searchbook-grids'
  });

  private readonly moved = new WeakSet<Widget>();

  constructor(
    private readonly shell: JupyterFrontEnd.IShell,
    /** Whether a main-area widget is a notebook or console a first grid opens beside. */
    private readonly worksIn: (widget: Widget) => boolean
  ) {}

  /**
   * Adds a tab to the main area (or, where the main area holds one document, the area below
   * it) and brings it forward. A grid takes the place of its stand-in (a tab restored after a
   * reload), forward only if the stand-in was.
   */
  place(tab: IDocumentGrid, bringForward = true): void {
    const standIn = this.find(tab.connection, tab.target);
    if (standIn instanceof GridReopenTab && standIn !== tab) {
      const wasCurrent = this.shell.currentWidget === standIn;
      const wasSelected = isSelected(standIn);
      this.shell.add(tab, 'main', { mode: 'tab-after', ref: standIn.id });
      // Forgotten first, so the layout restorer keeps the name for the grid.
      standIn.dispose();
      void this.tracker.add(tab);
      if (wasCurrent) {
        this.shell.activateById(tab.id);
      } else if (wasSelected && tab.parent instanceof DockPanel) {
        // The tab shown in its area before the reload is shown again, without taking the focus.
        tab.parent.selectWidget(tab);
      }
      return;
    }
    const main = new Set(this.shell.widgets('main'));
    const last = this.tracker.currentWidget;
    const beside =
      last && last !== tab && main.has(last)
        ? last
        : this.tracker.find(w => w !== tab && main.has(w));
    const current = this.shell.currentWidget;
    this.shell.add(
      tab,
      'main',
      beside
        ? { mode: 'tab-after', ref: beside.id }
        : current && this.worksIn(current)
          ? { mode: 'split-right', ref: current.id }
          : { mode: 'tab-after' }
    );
    // Notebook 7 keeps one document in its main area: the grid goes to the area below it.
    if (!tab.isAttached) {
      this.shell.add(tab, 'down');
    }
    if (!this.tracker.has(tab)) {
      void this.tracker.add(tab);
    }
    if (bringForward) {
      this.shell.activateById(tab.id);
    }
  }

  /**
   * A tab JupyterLab opened beside the current one while a grid was current (the Settings
   * Editor) goes beside the notebook or console instead: the grid area holds grids. Done once
   * per tab, so one the user drags back stays where they put it.
   */
  moveOutOfGridArea(tab: Widget): void {
    if (this.moved.has(tab) || !tab.isAttached) {
      return;
    }
    this.moved.add(tab);
    const dock = tab.parent;
    if (!(dock instanceof DockPanel)) {
      return;
    }
    const bar = [...dock.tabBars()].find(b => b.titles.includes(tab.title));
    const gridsBeside = bar?.titles.some(
      t => t.owner !== tab && this.tracker.has(t.owner as IDocumentGrid)
    );
    const home = [...this.shell.widgets('main')].find(
      w => this.worksIn(w) && !bar?.titles.includes(w.title)
    );
    if (!gridsBeside || !home) {
      return;
    }
    this.shell.add(tab, 'main', { mode: 'tab-after', ref: home.id });
    this.shell.activateById(tab.id);
  }

  /** The tab showing this target of this connection, if one is open. */
  find(connection: string, target: string): IDocumentGrid | undefined {
    return (
      this.tracker.find(
        w => !w.isDisposed && w.connection === connection && w.target === target
      ) ?? undefined
    );
  }
}

/** Whether a tab is the one its tab bar shows. */
function isSelected(tab: Widget): boolean {
  const dock = tab.parent;
  if (!(dock instanceof DockPanel)) {
    return false;
  }
  for (const bar of dock.tabBars()) {
    if (bar.titles.includes(tab.title)) {
      return bar.currentTitle === tab.title;
    }
  }
  return false;
}
