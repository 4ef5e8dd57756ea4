import {
  CellRenderer,
  type GraphicsContext,
  TextRenderer
} from '@lumino/datagrid';
import type { MarkedText } from '@searchbook/contracts/search-preview';
import { cellText } from '../datagrid/cell-text';

const MARK_ALPHA = 0.45;

/**
 * The document grid's body cells, with the parts of a value the engine matched to a search
 * query painted on a mark background behind the text. The parts are plain text (the kernel
 * took the engine's markup apart); they are drawn only when, joined, they read exactly as the
 * cell does, so a pending edit or a cut cell is never marked wrongly.
 */
export class HighlightRenderer extends TextRenderer {
  private readonly marks: (
    row: number,
    column: number
  ) => MarkedText | undefined;
  private readonly markColor: string;

  constructor(
    options: TextRenderer.IOptions & {
      /** The matched parts of a body cell, if the engine marked any. */
      marks: (row: number, column: number) => MarkedText | undefined;
      markColor: string;
    }
  ) {
    super(options);
    this.marks = options.marks;
    this.markColor = options.markColor;
  }

  override paint(gc: GraphicsContext, config: CellRenderer.CellConfig): void {
    this.drawBackground(gc, config);
    this.drawMarks(gc, config);
    this.drawText(gc, config);
  }

  /** Mark backgrounds at the matched parts' places in the left-aligned text, clipped to the cell. */
  private drawMarks(
    gc: GraphicsContext,
    config: CellRenderer.CellConfig
  ): void {
    const parts = this.marks(config.row, config.column);
    if (!parts?.some(p => p.marked)) {
      return;
    }
    const texts = parts.map(p => cellText(p.text));
    if (texts.join('') !== this.format(config)) {
      return;
    }
    const font = CellRenderer.resolveOption(this.font, config);
    if (!font) {
      return;
    }
    gc.font = font;
    gc.fillStyle = this.markColor;
    // Translucent, so the theme's text color reads on it in light and dark themes alike.
    gc.globalAlpha = MARK_ALPHA;
    const right = config.x + config.width - this.horizontalPadding;
    let x = config.x + this.horizontalPadding;
    parts.forEach((part, i) => {
      const width = gc.measureText(texts[i] ?? '').width;
      if (part.marked && x < right) {
        gc.fillRect(
          x,
          config.y + 2,
          Math.min(width, right - x),
          config.height - 4
        );
      }
      x += width;
    });
    gc.globalAlpha = 1;
  }
}
