import type { DataModel } from '@lumino/datagrid';

/** A grid model whose columns are listed (the output grid's and the panel's). */
type ColumnsModel = DataModel & { readonly columns: readonly unknown[] };

const MIN_WIDTH = 48;
const MAX_WIDTH = 360;
const PADDING = 20;
/** Enough rows to size columns well without measuring ten thousand strings. */
const SAMPLE_ROWS = 200;

/** Column widths that fit the header and the first rows' text, within sensible bounds. */
export function fitColumnWidths(
  model: ColumnsModel,
  font: string,
  headerFont: string
): number[] {
  const context = document.createElement('canvas').getContext('2d');
  const measure = (text: string, f: string): number => {
    if (!context) {
      return text.length * 8;
    }
    context.font = f;
    return context.measureText(text).width;
  };
  const sample = Math.min(model.rowCount('body'), SAMPLE_ROWS);
  const headerRows = model.rowCount('column-header');
  return model.columns.map((_, column) => {
    let widest = 0;
    for (let r = 0; r < headerRows; r++) {
      widest = Math.max(
        widest,
        measure(model.data('column-header', r, column) + ' ▲', headerFont)
      );
    }
    for (let r = 0; r < sample; r++) {
      widest = Math.max(
        widest,
        measure(model.data('body', r, column).slice(0, 80), font)
      );
    }
    return Math.round(
      Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest + PADDING))
    );
  });
}
