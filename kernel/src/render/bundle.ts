import type { JsonValue } from '../console/cell';
import type { ConsoleResult } from '../drivers/driver';
import { HITS_MIME, type HitsPayload, type ResponseInfo, TABLE_MIME, type TablePayload } from './mime-types';
import { escapeHtml, htmlTable, plainTable } from './text-table';

export type MimeBundle = Record<string, unknown>;

/** Limits that keep notebooks small: the grid gets this many rows, the fallbacks fewer. */
export const LIMITS = { gridRows: 10_000, fallbackRows: 50, rawJsonChars: 1_000_000 };

/** Turns a console result into the MIME bundle of one display_data output. */
export function toBundle(result: ConsoleResult, info: ResponseInfo, raw: JsonValue | undefined): MimeBundle {
  const caption = `${info.connection}: ${info.method} ${info.path} → ${info.status} in ${Math.round(info.elapsedMs)} ms`;
  const rawJson = raw === undefined ? {} : { 'application/json': capJson(raw) };
  switch (result.kind) {
    case 'hits': {
      const rows = result.rows.slice(0, LIMITS.gridRows);
      const payload: HitsPayload = {
        info,
        columns: result.columns,
        rows,
        ...(result.total ? { total: result.total } : {}),
        omittedRows: result.rows.length - rows.length,
        aggregations: result.aggregations ?? [],
      };
      const names = result.columns.map((c) => c.name);
      const total = result.total ? `${result.total.relation === 'gte' ? '≥' : ''}${result.total.value} total, ` : '';
      const summary = `${caption} (${total}${result.rows.length} shown)`;
      return {
        [HITS_MIME]: payload,
        'text/html': htmlTable(summary, names, rows.slice(0, LIMITS.fallbackRows)),
        'text/plain': `${summary}\n${plainTable(names, rows.slice(0, LIMITS.fallbackRows))}`,
        ...rawJson,
      };
    }
    case 'table': {
      const rows = result.rows.slice(0, LIMITS.gridRows);
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
      const payload: TablePayload = { info, columns, rows, omittedRows: result.rows.length - rows.length };
      const summary = `${caption} (${result.rows.length} rows)`;
      return {
        [TABLE_MIME]: payload,
        'text/html': htmlTable(summary, columns, rows.slice(0, LIMITS.fallbackRows)),
        'text/plain': `${summary}\n${plainTable(columns, rows.slice(0, LIMITS.fallbackRows))}`,
        ...rawJson,
      };
    }
    case 'json': {
      const pretty = JSON.stringify(result.value, null, 2);
      return {
        'application/json': capJson(result.value),
        'text/html': `<div class="searchbook-json"><div>${escapeHtml(caption)}</div><pre>${escapeHtml(pretty)}</pre></div>`,
        'text/plain': `${caption}\n${pretty}`,
      };
    }
    case 'text':
      return { 'text/plain': `${caption}\n${result.text}` };
  }
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
function capJson(value: JsonValue): JsonValue {
  const size = JSON.stringify(value)?.length ?? 0;
  return size <= LIMITS.rawJsonChars ? value : { searchbook: `raw response of ${size} characters left out of the notebook` };
}
