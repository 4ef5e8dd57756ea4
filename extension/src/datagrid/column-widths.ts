import type { DataModel } from '@lumino/datagrid';

/** A grid model whose columns are listed (the output grid's and the panel's). */
type ColumnsModel = DataModel & { readonly columns: readonly unknown[] };

const MIN_WIDTH = 60;
const MAX_WIDTH = 400;
const PADDING = 20;
/** Enough rows to size columns well without measuring ten thousand strings. */
const SAMPLE_ROWS = 200;

/**
 * Column widths that fit the column's name and the first rows' text, within sensible bounds.
 * The type line under the name (`keyword · read-only`) widens a column to its first part only:
 * `_id` and `_index` stay narrow yet show their whole type, what follows elided with "…".
 */
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
  return model.columns.map((_, column) => {
    let widest = measure(
      model.data('column-header', 0, column) + ' ▲',
      headerFont
    );
    if (model.rowCount('column-header') > 1) {
      const [first = '', ...rest] = String(
        model.data('column-header', 1, column) ?? ''
      ).split(' · ');
      // What the header draws when the rest is cut: the type whole, then "…".
      widest = Math.max(
        widest,
        measure(rest.length > 0 ? `${first}…` : first, font)
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
