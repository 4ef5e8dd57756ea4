import type { JsonValue } from '../console/cell';

/** A cell's text as every fallback shows it: strings as they are, everything else as JSON. */
export function cellText(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/** An escaped HTML table, so GitHub and nbconvert show rows without the extension; rows may come as htmlRow lines. */
export function htmlTable(caption: string, columns: string[], rows: Record<string, JsonValue>[] | string[]): string {
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = rows.map((row) => (typeof row === 'string' ? row : htmlRow(columns, row))).join('\n');
  return `<table class="searchbook-table">\n<caption>${escapeHtml(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** Values longer than these are clipped with `…` in the HTML and plain-text tables. */
export const CLIP_HTML = 200;
export const CLIP_PLAIN = 40;

export function htmlRow(columns: string[], row: Record<string, JsonValue>): string {
  return `<tr>${columns.map((c) => `<td>${escapeHtml(clip(cellText(row[c]), CLIP_HTML))}</td>`).join('')}</tr>`;
}

/** A fixed-width table for text/plain, with long values clipped so it stays readable. */
export function plainTable(columns: string[], rows: Record<string, JsonValue>[]): string {
  const cells = rows.map((row) => columns.map((c) => clip(cellText(row[c]).replace(/\s+/g, ' '), CLIP_PLAIN)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] as string).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i] as number)).join('  ').trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
