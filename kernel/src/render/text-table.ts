import type { JsonValue } from '../console/cell';
import { ownValue } from '../../../contracts/own-fields';
import { escapeControlCharacters } from './control-characters';
import { cellText } from '../json/cell-text';

/** Each column's cell text of a row, computed once for every table a row appears in. */
export function rowTexts(
  columns: readonly string[],
  row: Record<string, JsonValue>
): string[] {
  return columns.map(c => cellText(ownValue(row, c)));
}

const HTML_SPECIAL = /[&<>]/;

/**
 * Text as HTML text content, written between tags: only `&`, `<` and `>` need entities there.
 * Never use it for an attribute's value, where a quote would end the attribute. Quotes stay as they are, as pandas writes its tables:
 * JupyterLab's table of contents sanitizes every output's HTML when a notebook opens, and each
 * entity costs its parser several times a plain character (JSON cells hold a quote every few).
 */
export function escapeHtmlText(text: string): string {
  // Most cells hold none: a test is cheaper than the replaces. Three single-character passes
  // beat one that calls back per character.
  if (!HTML_SPECIAL.test(text)) {
    return text;
  }
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** An escaped HTML table, so GitHub and nbconvert show rows without the extension; rows may come as htmlRow lines. */
export function htmlTable(
  caption: string,
  columns: string[],
  rows: Record<string, JsonValue>[] | string[],
  /** Each column's engine type, shown under its name (typed tables). */
  types?: readonly string[]
): string {
  const head = columns
    .map(
      (c, i) =>
        `<th>${escapeHtmlText(c)}${types?.[i] ? `<br><small>${escapeHtmlText(types[i])}</small>` : ''}</th>`
    )
    .join('');
  const body = rows
    .map(row => (typeof row === 'string' ? row : htmlRow(columns, row)))
    .join('\n');
  return `<table class="searchbook-table">\n<caption>${escapeHtmlText(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** Values longer than these are clipped with `…` in the HTML and plain-text tables. */
export const CLIP_HTML = 200;
export const CLIP_PLAIN = 40;

export function htmlRow(
  columns: string[],
  row: Record<string, JsonValue>
): string {
  return htmlRowOf(rowTexts(columns, row));
}

/** A table row of cell texts (rowTexts), escaped and clipped. */
export function htmlRowOf(texts: readonly string[]): string {
  let cells = '';
  for (const text of texts) {
    cells += `<td>${escapeHtmlText(clip(text, CLIP_HTML))}</td>`;
  }
  return `<tr>${cells}</tr>`;
}

/** A cell text as a plain table shows it: on one line, clipped. */
export function plainCell(text: string): string {
  // Most texts' only whitespace is single spaces, which the replace would copy unchanged.
  return clip(
    escapeControlCharacters(
      FOLDED_WHITESPACE.test(text) ? text.replace(/\s+/g, ' ') : text
    ),
    CLIP_PLAIN
  );
}

/** Whitespace a plain cell folds: any run of two or more, or any one that is not a space. */
const FOLDED_WHITESPACE = /\s\s|[^\S ]/;

/** A fixed-width table for text/plain, with long values clipped so it stays readable. */
export function plainTable(
  columns: string[],
  rows: Record<string, JsonValue>[]
): string {
  return plainTableOf(
    columns,
    rows.map(row => rowTexts(columns, row).map(plainCell))
  );
}

/** The same table from its plain cells (plainCell of each rowTexts). */
export function plainTableOf(
  columns: readonly string[],
  cells: readonly string[][],
  /** Each column's engine type, as a second header line (typed tables). */
  types?: readonly string[]
): string {
  const widths = columns.map((c, i) =>
    cells.reduce(
      (widest, r) => Math.max(widest, (r[i] as string).length),
      Math.max(c.length, types?.[i]?.length ?? 0)
    )
  );
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return [
    line(columns),
    ...(types ? [line(columns.map((_, i) => types[i] ?? ''))] : []),
    line(widths.map(w => '-'.repeat(w))),
    ...cells.map(line)
  ].join('\n');
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
