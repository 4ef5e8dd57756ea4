import { KEEP_MORE_ROWS } from '../../../contracts/output-rows';
import type { JsonValue } from '../console/cell';
import type { AggregationResult } from '../driver-core/driver';
import type { MimeBundle } from './mime-bundle';
import type { OutputLimits } from './output-limits';
import {
  aggregationColumns,
  aggregationFooter,
  aggregationTitle
} from '../../../contracts/mime-types';
import {
  escapeHtmlText,
  htmlRowOf,
  htmlTable,
  plainCell,
  plainTableOf,
  rowTexts
} from './text-table';

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

/** How much of each table the fallbacks show. */
export type FallbackBudget = Pick<
  OutputLimits,
  'fallbackRows' | 'fallbackWholeRows' | 'fallbackChars'
>;

/**
 * text/plain and escaped text/html, so the notebook reads well without the extension. Each
 * table shows its first rows, as many as the budget allows, then a sentence saying what the
 * notebook holds and how to see it.
 */
export function fallbacks(
  summary: string,
  columns: string[],
  kept: KeptRows,
  budget: FallbackBudget,
  aggregations: AggregationResult[],
  /** A partial failure's warning (plain and escaped HTML), right under the summary; empty when nothing failed. */
  warning: { plain: string; html: string } = { plain: '', html: '' },
  /** Each column's engine type, shown under its name (typed tables). */
  types?: readonly string[]
): MimeBundle {
  const htmlLines = linesThatFit(kept, columns, budget);
  const htmlRows = htmlLines.length;
  const plainCells = plainCellsThatFit(
    columns,
    htmlLines,
    budget.fallbackChars
  );
  // A search asked only for its aggregations (`size: 0`) gets no empty hits table.
  const table = columns.length > 0 && kept.held > 0;
  const aggregationTables = aggregations.map(a =>
    aggregationFallback(a, budget, kept.mimeType)
  );
  const plain = [
    summary,
    warning.plain,
    table ? plainTableOf(columns, plainCells, types) : '',
    rest(kept, plainCells.length),
    ...aggregationTables.map(a => a.plain)
  ];
  const html = [
    warning.html,
    table
      ? htmlTable(
          summary,
          columns,
          htmlLines.map(line => line.html),
          types
        )
      : `<p>${escapeHtmlText(summary)}</p>`,
    rest(kept, htmlRows)
      ? `<p>${escapeHtmlText(rest(kept, htmlRows))}</p>`
      : '',
    ...aggregationTables.map(a => a.html)
  ];
  return {
    'text/html': html.filter(Boolean).join('\n'),
    'text/plain': plain.filter(Boolean).join('\n')
  };
}

/** An aggregation table with its footer, its rows cut to the budget as the hits table's are (a table of buckets in buckets can hold thousands). */
function aggregationFallback(
  table: AggregationResult,
  budget: FallbackBudget,
  mimeType: string
): { plain: string; html: string } {
  const columns = aggregationColumns(table);
  const kept: KeptRows = {
    held: table.rows.length,
    row: i => table.rows[i] ?? {},
    store: 'rows',
    mimeType,
    omittedRows: 0
  };
  const lines = linesThatFit(kept, columns, budget);
  const cells = plainCellsThatFit(columns, lines, budget.fallbackChars);
  const footer = aggregationFooter(table);
  const plainRest = rest(kept, cells.length);
  const htmlRest = rest(kept, lines.length);
  return {
    plain: [
      `\n${aggregationTitle(table)}`,
      plainTableOf(columns, cells),
      ...(plainRest ? [plainRest] : []),
      ...footer
    ].join('\n'),
    html: [
      htmlTable(
        aggregationTitle(table),
        columns,
        lines.map(line => line.html)
      ),
      ...[...(htmlRest ? [htmlRest] : []), ...footer].map(
        line => `<p>${escapeHtmlText(line)}</p>`
      )
    ].join('\n')
  };
}

/** The sentence under a table that shows fewer rows than the notebook holds, or than the answer had. */
function rest(kept: KeptRows, shown: number): string {
  const held = kept.held;
  const notKept =
    kept.omittedRows > 0
      ? ` ${kept.omittedRows} more rows of the answer are not in the notebook: ${KEEP_MORE_ROWS} and run the cell again to keep them.`
      : '';
  if (shown >= held) {
    return notKept.trim();
  }
  const where = kept.store === 'answer' ? "the engine's answer" : 'its rows';
  return `This table shows the first ${shown} of the ${held} rows this notebook holds (${where}, in the output's ${kept.mimeType} data); open the notebook in JupyterLab with the searchbook extension to see every row in a grid.${notKept}`;
}

/** The leading rows whose lines fit the budget (at least one when there are any), with their cell texts. */
function linesThatFit(
  kept: KeptRows,
  columns: readonly string[],
  budget: FallbackBudget
): { texts: string[]; html: string }[] {
  const lines: { texts: string[]; html: string }[] = [];
  let used = 0;
  const rows =
    kept.held <= budget.fallbackWholeRows
      ? kept.held
      : Math.max(1, budget.fallbackRows);
  for (let i = 0; i < rows; i++) {
    const texts = rowTexts(columns, kept.row(i));
    const html = htmlRowOf(texts);
    used += html.length + 1;
    if (used > budget.fallbackChars && i > 0) {
      break;
    }
    lines.push({ texts, html });
  }
  return lines;
}

/**
 * The plain cells of the leading rows that fit the budget. Plain tables pad every line to the
 * widest cell, so the cost of a row grows with the rows before it.
 */
function plainCellsThatFit(
  columns: readonly string[],
  rows: readonly { texts: string[] }[],
  budget: number
): string[][] {
  const widths = columns.map(c => c.length);
  const cells: string[][] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = (rows[i] as { texts: string[] }).texts.map(plainCell);
    row.forEach((cell, j) => {
      widths[j] = Math.max(widths[j] as number, cell.length);
    });
    const line = widths.reduce((a, b) => a + b + 2, 0);
    if (line * (i + 3) > budget && i > 0) {
      break;
    }
    cells.push(row);
  }
  return cells;
}
