import { KEEP_MORE_ROWS } from '../../../contracts/output-rows';
import type { JsonValue } from '../console/cell';
import type {
  AggregationResult,
  ConsoleResult,
  PresentedResult
} from '../engine/driver';
import { cutLongCells } from './cell-cut';
import { escapeControlCharacters } from './control-characters';
import type { EncodedString } from '../protocol/encoded-string';
import { documentRow, documentsOf } from '../../../contracts/answer-rows';
import { fallbacks, type KeptRows } from './fallbacks';
import {
  aggregationColumns,
  ANSWER_FORMAT,
  partialFailureHeadline,
  partialFailureText,
  type DocumentLayout,
  HITS_MIME,
  type HitsPayload,
  JSON_MIME,
  type JsonPayload,
  type ResponseInfo,
  ROWS_MIME,
  TABLE_MIME,
  type TablePayload
} from '../../../contracts/mime-types';
import type { Column } from '../../../contracts/columns';
import { DEFAULT_LIMITS, type OutputLimits } from './output-limits';
import { swappedAnswer } from './swapped-answer';
import { escapeHtml, htmlTable, plainTable } from './text-table';

import type { MimeBundle } from './mime-bundle';
export type { MimeBundle };

/**
 * A payload as the kernel hands it to the wire: its answer already in JSON form, copied into
 * the message as bytes. JSON.stringify of it is the payload its schema describes.
 */
type Sent<P extends { answer?: string | undefined }> = Omit<P, 'answer'> & {
  answer?: EncodedString;
};

/** The status line every output starts with: who answered what, how, and how fast. */
export function statusLine(info: ResponseInfo): string {
  const line = `${info.connection}: ${info.method} ${info.path} → ${info.status} in ${Math.round(info.elapsedMs)} ms`;
  const titled = info.title ? `${info.title} · ${line}` : line;
  // A partial failure is said on the line that would otherwise read as a plain success; its reasons follow (warningOf).
  const headline = partialFailureHeadline(info.partialFailures);
  return headline ? `${titled} · WARNING: ${headline}` : titled;
}

/** The partial failure's warning with its first reasons, under the status line of every fallback; empty when nothing failed. */
function warningOf(info: ResponseInfo): { plain: string; html: string } {
  const text = partialFailureText(info.partialFailures);
  return {
    plain: text,
    html: text
      ? `<pre class="searchbook-warning"><strong>${escapeHtml(text)}</strong></pre>`
      : ''
  };
}

/** The engine's answer as the kernel read it: its JSON text (UTF-8 bytes) and the parsed value. */
export interface Answer {
  bytes: Buffer;
  value: JsonValue;
}

/** A console result as display_data bundles: one, or one per search of a several-search request. */
export function toBundles(
  result: PresentedResult,
  info: ResponseInfo,
  answer: Answer | undefined,
  limits: OutputLimits = DEFAULT_LIMITS
): MimeBundle[] {
  if (result.kind !== 'searches') {
    return [toBundle(result, info, answer, limits)];
  }
  const count = result.searches.length;
  // Which searches failed is said once, over the first: repeated under each, it read as each
  // search's own failure. A failed search says its own status.
  const { partialFailures, ...rest } = info;
  return result.searches.flatMap((search, i) => {
    const bundle = toBundle(
      search.result,
      {
        ...rest,
        ...(i === 0 && partialFailures ? { partialFailures } : {}),
        status: search.status,
        title: `Search ${i + 1} of ${count}: ${search.target || '(no index named)'}`
      },
      {
        bytes: Buffer.from(JSON.stringify(search.raw), 'utf8'),
        value: search.raw
      },
      limits
    );
    // Right under the search it is about, so it cannot be read as one about another.
    return search.notice
      ? [bundle, messageBundle(`Search ${i + 1} of ${count}: ${search.notice}`)]
      : [bundle];
  });
}

/** Turns a console result into the MIME bundle of one display_data output. */
export function toBundle(
  result: ConsoleResult,
  info: ResponseInfo,
  answer: Answer | undefined,
  limits: OutputLimits = DEFAULT_LIMITS
): MimeBundle {
  const caption = statusLine(info);
  switch (result.kind) {
    case 'hits': {
      const aggregations = (result.aggregations ?? []).map(table =>
        withFirstRows(table, limits.gridRows)
      );
      const layout = result.documents && answer ? result.documents : undefined;
      const count =
        layout && answer
          ? documentsOf(answer.value, layout).length
          : result.rows.length;
      const held = Math.min(count, limits.gridRows);
      const omitted = count - held;
      const answerKept =
        layout && answer
          ? keptAnswer(answer, layout.at, held, omitted, limits)
          : undefined;
      const stored =
        answerKept === undefined
          ? cutLongCells(result.rows.slice(0, limits.gridRows))
          : undefined;
      const payload: Sent<HitsPayload> = {
        info,
        columns: result.columns,
        ...(answerKept !== undefined && layout
          ? {
              answer: answerKept,
              answerFormat: ANSWER_FORMAT,
              documents: layout
            }
          : { rows: stored?.rows ?? [] }),
        ...(result.total ? { total: result.total } : {}),
        omittedRows: omitted,
        cut: stored?.cut ?? [],
        aggregations
      };
      const total = result.total
        ? `${result.total.relation === 'gte' ? '≥' : ''}${result.total.value} total, `
        : '';
      const summary = `${caption} (${total}${held} shown${leftOut(omitted)})`;
      const kept: KeptRows = {
        held,
        row: rowReader(stored?.rows, answer, layout, result.columns),
        store: stored ? 'rows' : 'answer',
        mimeType: HITS_MIME,
        omittedRows: omitted
      };
      return {
        [HITS_MIME]: payload,
        ...rowsAsValues(kept, limits),
        ...fallbacks(
          summary,
          result.columns.map(c => c.name),
          kept,
          fallbackBudget(answerKept, limits),
          aggregations,
          warningOf(info)
        )
      };
    }
    case 'table': {
      const shownRows = result.rows.slice(0, limits.gridRows);
      const omitted = result.rows.length - shownRows.length;
      const answerKept =
        answer && Array.isArray(answer.value)
          ? keptAnswer(answer, [], shownRows.length, omitted, limits)
          : undefined;
      const { rows, cut } =
        answerKept === undefined
          ? cutLongCells(shownRows)
          : { rows: shownRows, cut: [] };
      const columns = result.columns
        ? result.columns.map(c => c.name)
        : [...new Set(rows.flatMap(r => Object.keys(r)))];
      // A typed table's rows are not its answer's elements: the rows are kept, the answer only for Raw JSON.
      const rawKept =
        result.columns && answer && omitted === 0
          ? keptAnswer(answer, [], rows.length, 0, limits)
          : undefined;
      const payload: Sent<TablePayload> = {
        info,
        columns,
        ...(answerKept === undefined
          ? { rows }
          : { answer: answerKept, answerFormat: ANSWER_FORMAT }),
        ...(rawKept ? { answer: rawKept, answerFormat: ANSWER_FORMAT } : {}),
        omittedRows: omitted,
        cut,
        ...(result.columns ? { types: result.columns.map(c => c.type) } : {}),
        ...(result.notes?.length ? { notes: result.notes } : {})
      };
      const summary = `${caption} (${result.rows.length} rows${leftOut(omitted)})`;
      const kept: KeptRows = {
        held: rows.length,
        row: i => rows[i] ?? {},
        store: answerKept === undefined ? 'rows' : 'answer',
        mimeType: TABLE_MIME,
        omittedRows: omitted
      };
      const shown = fallbacks(
        summary,
        columns,
        kept,
        fallbackBudget(answerKept ?? rawKept, limits),
        [],
        warningOf(info),
        result.columns?.map(c => c.type)
      );
      const notes = result.notes ?? [];
      return {
        [TABLE_MIME]: payload,
        ...rowsAsValues(kept, limits),
        'text/html': [
          shown['text/html'],
          ...notes.map(line => `<p>${escapeHtml(line)}</p>`)
        ].join('\n'),
        'text/plain': [shown['text/plain'], ...notes].join('\n')
      };
    }
    case 'json': {
      const pretty = cutText(
        JSON.stringify(result.value, null, 2),
        'JSON',
        limits
      );
      const payload: JsonPayload = {
        info,
        ...(result.fields ? { fields: result.fields } : {})
      };
      const warning = warningOf(info);
      return {
        [JSON_MIME]: payload,
        'application/json': capJson(result.value, limits),
        'text/html': `<div class="searchbook-json"><div>${escapeHtml(caption)}</div>${warning.html}<pre>${escapeHtml(pretty)}</pre></div>`,
        'text/plain': [caption, warning.plain, pretty]
          .filter(Boolean)
          .join('\n')
      };
    }
    case 'text':
      return {
        'text/plain': [
          caption,
          warningOf(info).plain,
          escapeControlCharacters(cutText(result.text, 'text', limits))
        ]
          .filter(Boolean)
          .join('\n')
      };
  }
}

/** An aggregation table as the notebook keeps it: its first `keep` rows, the others counted (the footer says so under the table). */
/** The table as the notebook keeps it: its column order written out, its rows up to `keep`. */
function withFirstRows(
  table: AggregationResult,
  keep: number
): AggregationResult {
  const ordered = { ...table, columns: aggregationColumns(table) };
  return table.rows.length > keep
    ? {
        ...ordered,
        rows: table.rows.slice(0, keep),
        omittedRows: table.rows.length - keep
      }
    : ordered;
}

/** The grid's rows under ROWS_MIME, when the kernel was asked for them (limitsFromEnv). */
function rowsAsValues(kept: KeptRows, limits: OutputLimits): MimeBundle {
  return limits.rowsAsValues
    ? {
        [ROWS_MIME]: {
          rows: Array.from({ length: kept.held }, (_, i) => kept.row(i))
        }
      }
    : {};
}

/** Row `i` of the grid: from the rows kept, or rebuilt from the answer's documents. */
function rowReader(
  rows: Record<string, JsonValue>[] | undefined,
  answer: Answer | undefined,
  layout: DocumentLayout | undefined,
  columns: readonly Column[]
): KeptRows['row'] {
  if (rows || !answer || !layout) {
    return i => rows?.[i] ?? {};
  }
  const documents = documentsOf(answer.value, layout);
  const build = documentRow(layout, columns);
  return i => build(documents[i] ?? null);
}

/**
 * The answer's JSON text as the notebook keeps it: the engine's own bytes, or, past the row
 * cap, the answer without the documents left out. Undefined when it is too large to keep.
 */
function keptAnswer(
  answer: Answer,
  at: DocumentLayout['at'],
  keep: number,
  omitted: number,
  limits: OutputLimits
): EncodedString | undefined {
  const bytes =
    omitted === 0
      ? answer.bytes
      : Buffer.from(
          JSON.stringify(withFirstDocuments(answer.value, at, keep)),
          'utf8'
        );
  return bytes.length <= limits.answerChars ? swappedAnswer(bytes) : undefined;
}

/** A copy of `value` whose array at `at` keeps its first `keep` elements; the rest is shared. */
function withFirstDocuments(
  value: JsonValue,
  at: DocumentLayout['at'],
  keep: number
): JsonValue {
  const [head, ...rest] = at;
  if (head === undefined) {
    return Array.isArray(value) ? value.slice(0, keep) : value;
  }
  if (Array.isArray(value) && typeof head === 'number') {
    return value.map((v, i) =>
      i === head ? withFirstDocuments(v, rest, keep) : v
    );
  }
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof head === 'string' &&
    Object.hasOwn(value, head)
  ) {
    return {
      ...value,
      [head]: withFirstDocuments(value[head] as JsonValue, rest, keep)
    };
  }
  return value;
}

/** Each fallback's share of the notebook: a part of the answer kept, never less than a screenful nor more than a long page. */
function fallbackBudget(
  answer: EncodedString | undefined,
  limits: OutputLimits
): number {
  const share = Math.floor((answer?.json.length ?? 0) * limits.fallbackShare);
  return Math.min(
    limits.fallbackMaxChars,
    Math.max(limits.fallbackChars, share)
  );
}

function leftOut(omitted: number): string {
  return omitted > 0
    ? `; ${omitted} rows left out of the notebook, ${KEEP_MORE_ROWS} to keep more`
    : '';
}

/** A plain message bundle (magics' answers). */
export function messageBundle(
  text: string,
  rows?: Record<string, JsonValue>[]
): MimeBundle {
  if (!rows) {
    return { 'text/plain': text };
  }
  const columns = [...new Set(rows.flatMap(r => Object.keys(r)))];
  return {
    'text/plain': rows.length ? `${text}\n${plainTable(columns, rows)}` : text,
    'text/html': rows.length
      ? htmlTable(text, columns, rows)
      : `<p>${escapeHtml(text)}</p>`
  };
}

/**
 * The text of the fallbacks (the answer's JSON, or its text): whole up to the size
 * `application/json` keeps, else its first page, cut as long cells are (`...`) and saying so,
 * since one value may be a string of hundreds of megabytes.
 */
function cutText(
  text: string,
  what: 'JSON' | 'text',
  limits: OutputLimits
): string {
  if (text.length <= limits.rawJsonChars) {
    return text;
  }
  return `${text.slice(0, limits.fallbackMaxChars)}...\n(cut: the answer's ${what} is ${text.length} characters; the notebook keeps its first ${limits.fallbackMaxChars}. Ask the engine for fewer documents or fields to see all of it.)`;
}

/** `application/json` must stay JSON; an oversized body is replaced by a note saying so. */
function capJson(value: JsonValue, limits: OutputLimits): JsonValue {
  const size = JSON.stringify(value)?.length ?? 0;
  return size <= limits.rawJsonChars
    ? value
    : {
        searchbook: `raw response of ${size} characters left out of the notebook`
      };
}
