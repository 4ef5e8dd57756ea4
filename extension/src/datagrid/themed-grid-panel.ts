import { Panel } from '@lumino/widgets';
import { onThemeChange } from './grid-theme';

type PanelMessage = Parameters<Panel['processMessage']>[0];

/**
 * A panel holding a canvas grid: the canvas neither follows its node's size nor JupyterLab's
 * theme by itself, so while attached the panel reports resizes and theme changes to it.
 */
export abstract class ThemedGridPanel extends Panel {
  private readonly resizeObserver = new ResizeObserver(entries => {
    this.contentWidth = entries.at(-1)?.contentRect.width;
    this.onResized();
  });
  /**
   * The node's content width as last observed, undefined until the first observation: read
   * from the observer, not the layout, since a layout read per grid forces the page's styles
   * and layout to be recomputed once per grid while a notebook of many outputs opens.
   */
  protected contentWidth: number | undefined;
  private readonly stopWatchingTheme = onThemeChange(() => this.applyTheme());

  /** The node changed size: tell the grid (and fit whatever depends on its size). */
  protected abstract onResized(): void;

  /** Reads JupyterLab's theme variables into the grid's colours, fonts and sizes. */
  protected abstract applyTheme(): void;

  override dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.resizeObserver.disconnect();
    this.stopWatchingTheme();
    super.dispose();
  }

  protected override onAfterAttach(msg: PanelMessage): void {
    super.onAfterAttach(msg);
    this.resizeObserver.observe(this.node);
    this.applyTheme();
  }

  protected override onBeforeDetach(msg: PanelMessage): void {
    this.resizeObserver.unobserve(this.node);
    this.contentWidth = undefined;
    super.onBeforeDetach(msg);
  }
}
