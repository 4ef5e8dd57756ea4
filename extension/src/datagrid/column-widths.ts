import type { DataModel } from '@lumino/datagrid';

/** A grid model whose columns are listed (the output grid's and the panel's). */
type ColumnsModel = DataModel & { readonly columns: readonly unknown[] };

const MIN_WIDTH = 60;
const MAX_WIDTH = 400;
const PADDING = 20;
/**
 * Rows the widths are fitted to: the first screens of rows, not the first two hundred. Each row
 * sampled is built from its document as the grid is first drawn, while a notebook opens and
 * this code runs unoptimized: two hundred were most of building an output's grid. A longer
 * value further down is elided, and shown whole in the value view.
 */
const SAMPLE_ROWS = 50;
/** Cell text past this many characters is wider than any column anyway. */
const MEASURED_CHARS = 80;

let context: CanvasRenderingContext2D | null | undefined;

/** Each character's width, per font, measured the first time a grid draws it in that font. */
const characterWidths = new Map<string, Map<string, number>>();

/** The width of text as the canvas draws it in a font (8 px a character without a canvas). */
function measureText(text: string, font: string): number {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) {
    return text.length * 8;
  }
  context.font = font;
  return context.measureText(text).width;
}

/**
 * The width of a cell's text as the sum of its characters' widths: within a pixel or two of
 * measuring the whole string (kerning aside), and a map read a character instead of a canvas
 * call a cell, which made sizing the columns most of building a grid while a notebook scrolls.
 */
function cellTextWidth(text: string, font: string): number {
  let widths = characterWidths.get(font);
  if (!widths) {
    widths = new Map();
    characterWidths.set(font, widths);
  }
  let total = 0;
  for (const character of text) {
    let width = widths.get(character);
    if (width === undefined) {
      width = measureText(character, font);
      widths.set(character, width);
    }
    total += width;
  }
  return total;
}

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
  const sample = Math.min(model.rowCount('body'), SAMPLE_ROWS);
  return model.columns.map((_, column) => {
    let widest = measureText(
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
        measureText(rest.length > 0 ? `${first}…` : first, font)
      );
    }
    for (let r = 0; r < sample && widest + PADDING < MAX_WIDTH; r++) {
      const text = model.data('body', r, column);
      widest = Math.max(
        widest,
        cellTextWidth(
          text.length > MEASURED_CHARS ? text.slice(0, MEASURED_CHARS) : text,
          font
        )
      );
    }
    return Math.round(
      Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest + PADDING))
    );
  });
}
