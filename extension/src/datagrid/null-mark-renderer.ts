import { CellRenderer, type GraphicsContext } from '@lumino/datagrid';

export interface NullMarkOptions {
  /** The cell holds null (a blank cell otherwise looks like an empty text). */
  isNull(row: number, column: number): boolean;
  font: string;
  color: string;
}

/**
 * Paints cells with another renderer, then writes a muted, italic "null" in a blank cell that
 * holds null, so null and an empty text no longer look the same. The cell's text (what is
 * copied, filtered and edited) stays blank.
 */
export class NullMarkRenderer extends CellRenderer {
  constructor(
    private readonly inner: CellRenderer,
    private readonly options: NullMarkOptions
  ) {
    super();
  }

  paint(gc: GraphicsContext, config: CellRenderer.CellConfig): void {
    this.inner.paint(gc, config);
    if (
      config.value !== '' ||
      !this.options.isNull(config.row, config.column)
    ) {
      return;
    }
    gc.font = `italic ${this.options.font}`;
    gc.fillStyle = this.options.color;
    gc.textAlign = 'left';
    gc.textBaseline = 'middle';
    gc.fillText('null', config.x + 8, config.y + config.height / 2 + 1);
  }
}
