import { Panel } from '@lumino/widgets';
import { onThemeChange } from './grid-theme';

type PanelMessage = Parameters<Panel['processMessage']>[0];

/**
 * A panel holding a canvas grid: the canvas neither follows its node's size nor JupyterLab's
 * theme by itself, so while attached the panel reports resizes and theme changes to it.
 */
export abstract class ThemedGridPanel extends Panel {
  private readonly resizeObserver = new ResizeObserver(() => this.onResized());
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
    super.onBeforeDetach(msg);
  }
}
