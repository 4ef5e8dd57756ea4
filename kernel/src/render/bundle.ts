import type { JsonValue } from '../console/cell';
import type { ConsoleResult, PresentedResult } from '../drivers/driver';
import { cutLongCells } from './cell-cut';
import { aggregationTitle, HITS_MIME, type HitsPayload, JSON_MIME, type JsonPayload, type ResponseInfo, TABLE_MIME, type TablePayload } from './mime-types';
import { DEFAULT_LIMITS, type OutputLimits } from './output-limits';
import { escapeHtml, htmlTable, plainTable } from './text-table';

export type MimeBundle = Record<string, unknown>;

/** The status line every output starts with: who answered what, how, and how fast. */
export function statusLine(info: ResponseInfo): string {
  const line = `${info.connection}: ${info.method} ${info.path} → ${info.status} in ${Math.round(info.elapsedMs)} ms`;
  return info.title ? `${info.title} · ${line}` : line;
}

/** A console result as display_data bundles: one, or one per search of a several-search request. */
export function toBundles(result: PresentedResult, info: ResponseInfo, raw: JsonValue | undefined, limits: OutputLimits = DEFAULT_LIMITS): MimeBundle[] {
  if (result.kind !== 'searches') return [toBundle(result, info, raw, limits)];
  const count = result.searches.length;
  return result.searches.map((search, i) =>
    toBundle(search.result, { ...info, status: search.status, title: `Search ${i + 1} of ${count}: ${search.target || '(no index named)'}` }, search.raw, limits),
  );
}

/** Turns a console result into the MIME bundle of one display_data output. */
export function toBundle(result: ConsoleResult, info: ResponseInfo, raw: JsonValue | undefined, limits: OutputLimits = DEFAULT_LIMITS): MimeBundle {
  const caption = statusLine(info);
  const rawJson = raw === undefined ? {} : { 'application/json': capJson(raw, limits) };
  switch (result.kind) {
    case 'hits': {
      const { rows, cut } = cutLongCells(result.rows.slice(0, limits.gridRows));
      const omitted = result.rows.length - rows.length;
      const payload: HitsPayload = {
        info,
        columns: result.columns,
        rows,
        ...(result.total ? { total: result.total } : {}),
        omittedRows: omitted,
        cut,
        aggregations: result.aggregations ?? [],
      };
      const total = result.total ? `${result.total.relation === 'gte' ? '≥' : ''}${result.total.value} total, ` : '';
      const summary = `${caption} (${total}${rows.length} shown${leftOut(omitted)})`;
      return {
        [HITS_MIME]: payload,
        ...fallbacks(summary, result.columns.map((c) => c.name), rows, limits, result.aggregations ?? []),
        ...rawJson,
      };
    }
    case 'table': {
      const { rows, cut } = cutLongCells(result.rows.slice(0, limits.gridRows));
      const omitted = result.rows.length - rows.length;
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
      const payload: TablePayload = { info, columns, rows, omittedRows: omitted, cut };
      const summary = `${caption} (${result.rows.length} rows${leftOut(omitted)})`;
      return { [TABLE_MIME]: payload, ...fallbacks(summary, columns, rows, limits, []), ...rawJson };
    }
    case 'json': {
      const pretty = JSON.stringify(result.value, null, 2);
      const payload: JsonPayload = { info, ...(result.fields ? { fields: result.fields } : {}) };
      return {
        [JSON_MIME]: payload,
        'application/json': capJson(result.value, limits),
        'text/html': `<div class="searchbook-json"><div>${escapeHtml(caption)}</div><pre>${escapeHtml(pretty)}</pre></div>`,
        'text/plain': `${caption}\n${pretty}`,
      };
    }
    case 'text':
      return { 'text/plain': `${caption}\n${result.text}` };
  }
}

/** text/plain and escaped text/html, so the notebook reads well without the extension. */
function fallbacks(
  summary: string,
  columns: string[],
  rows: Record<string, JsonValue>[],
  limits: OutputLimits,
  aggregations: { name: string; kind?: 'aggregation' | 'facet'; rows: Record<string, JsonValue>[] }[],
): MimeBundle {
  const shown = rows.slice(0, limits.fallbackRows);
  const more = rows.length > shown.length ? `${rows.length - shown.length} more rows in the grid` : '';
  const aggColumns = (aggRows: Record<string, JsonValue>[]) => [...new Set(aggRows.flatMap((r) => Object.keys(r)))];
  const plain = [summary, plainTable(columns, shown), more, ...aggregations.map((a) => `\n${aggregationTitle(a)}\n${plainTable(aggColumns(a.rows), a.rows)}`)];
  const html = [htmlTable(summary, columns, shown), more ? `<p>${escapeHtml(more)}</p>` : '', ...aggregations.map((a) => htmlTable(aggregationTitle(a), aggColumns(a.rows), a.rows))];
  return { 'text/html': html.filter(Boolean).join('\n'), 'text/plain': plain.filter(Boolean).join('\n') };
}

function leftOut(omitted: number): string {
  return omitted > 0 ? `; ${omitted} rows left out of the notebook, set SEARCHBOOK_MAX_ROWS to keep more` : '';
}

/** A plain message bundle (magics' answers). */
export function messageBundle(text: string, rows?: Record<string, JsonValue>[]): MimeBundle {
  if (!rows) return { 'text/plain': text };
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return {
    'text/plain': rows.length ? `${text}\n${plainTable(columns, rows)}` : text,
    'text/html': rows.length ? htmlTable(text, columns, rows) : `<p>${escapeHtml(text)}</p>`,
  };
}

/** `application/json` must stay JSON; an oversized body is replaced by a note saying so. */
function capJson(value: JsonValue, limits: OutputLimits): JsonValue {
  const size = JSON.stringify(value)?.length ?? 0;
  return size <= limits.rawJsonChars ? value : { searchbook: `raw response of ${size} characters left out of the notebook` };
}
