import type { JsonValue } from '../console/cell';
import type { MimeBundle } from './bundle';
import { aggregationTitle } from './mime-types';
import { cellText, CLIP_PLAIN, clip, escapeHtml, htmlRow, htmlTable, plainTable } from './text-table';

type Row = Record<string, JsonValue>;

/** What the notebook keeps of a grid, for the sentence under a shortened fallback table. */
export interface KeptRows {
  /** How many rows a grid would show. */
  held: number;
  /** Row `i` of them (rows are rebuilt on demand: only those the fallbacks show are). */
  row(i: number): Row;
  /** Where they are: the engine's answer (`answer`) or the grid's rows (`rows`). */
  store: 'answer' | 'rows';
  /** The MIME type holding them. */
  mimeType: string;
  /** Rows of the answer left out of the notebook by the row cap. */
  omittedRows: number;
}

/**
 * text/plain and escaped text/html, so the notebook reads well without the extension. Each
 * gets about `budgetChars` characters of rows: the first rows that fit, then a sentence saying
 * what the notebook holds and how to see it.
 */
export function fallbacks(
  summary: string,
  columns: string[],
  kept: KeptRows,
  budgetChars: number,
  aggregations: { name: string; kind?: 'aggregation' | 'facet' | undefined; rows: Row[] }[],
): MimeBundle {
  const htmlLines = linesThatFit(kept, (row) => htmlRow(columns, row), budgetChars);
  const candidates = htmlLines.map((line) => line.row);
  const htmlRows = htmlLines.length;
  const plainRows = plainRowsThatFit(columns, candidates, budgetChars);
  // A search asked only for its aggregations (`size: 0`) gets no empty hits table.
  const table = columns.length > 0 && kept.held > 0;
  const aggColumns = (aggRows: Row[]) => [...new Set(aggRows.flatMap((r) => Object.keys(r)))];
  const plain = [
    summary,
    table ? plainTable(columns, candidates.slice(0, plainRows)) : '',
    rest(kept, plainRows),
    ...aggregations.map((a) => `\n${aggregationTitle(a)}\n${plainTable(aggColumns(a.rows), a.rows)}`),
  ];
  const html = [
    table ? htmlTable(summary, columns, htmlLines.map((line) => line.html)) : `<p>${escapeHtml(summary)}</p>`,
    rest(kept, htmlRows) ? `<p>${escapeHtml(rest(kept, htmlRows))}</p>` : '',
    ...aggregations.map((a) => htmlTable(aggregationTitle(a), aggColumns(a.rows), a.rows)),
  ];
  return { 'text/html': html.filter(Boolean).join('\n'), 'text/plain': plain.filter(Boolean).join('\n') };
}

/** The sentence under a table that shows fewer rows than the notebook holds, or than the answer had. */
function rest(kept: KeptRows, shown: number): string {
  const held = kept.held;
  const notKept = kept.omittedRows > 0 ? ` ${kept.omittedRows} more rows of the answer are not in the notebook: set SEARCHBOOK_MAX_ROWS before starting the kernel and run the cell again to keep them.` : '';
  if (shown >= held) return notKept.trim();
  const where = kept.store === 'answer' ? "the engine's answer" : 'its rows';
  return `This table shows the first ${shown} of the ${held} rows this notebook holds (${where}, in the output's ${kept.mimeType} data); open the notebook in JupyterLab with the searchbook extension to see every row in a grid.${notKept}`;
}

/** The leading rows whose lines fit the budget (at least one when there are any). */
function linesThatFit(kept: KeptRows, line: (row: Row) => string, budget: number): { row: Row; html: string }[] {
  const lines: { row: Row; html: string }[] = [];
  let used = 0;
  for (let i = 0; i < kept.held; i++) {
    const row = kept.row(i);
    const html = line(row);
    used += html.length + 1;
    if (used > budget && i > 0) break;
    lines.push({ row, html });
  }
  return lines;
}

/** Plain tables pad every line to the widest cell, so the cost of a row grows with the rows before it. */
function plainRowsThatFit(columns: string[], rows: Row[], budget: number): number {
  const widths = columns.map((c) => c.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Row;
    columns.forEach((c, j) => {
      widths[j] = Math.max(widths[j] as number, clip(cellText(row[c]), CLIP_PLAIN).length);
    });
    const line = widths.reduce((a, b) => a + b + 2, 0);
    if (line * (i + 3) > budget) return Math.max(i, 1);
  }
  return rows.length;
}
