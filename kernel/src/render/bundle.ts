import { KEEP_MORE_ROWS } from '../../../contracts/output-rows';
import type { JsonValue } from '../console/cell';
import type {
  AggregationResult,
  ConsoleResult,
  PresentedResult
} from '../driver-core/driver';
import { type CutRows, cutLongCells } from './cell-cut';
import type { Elision } from '../driver-core/http/elided-json';
import { fieldRecord, ownValue } from '../../../contracts/own-fields';
import { escapeControlCharacters } from './control-characters';
import type { EncodedString } from '../protocol/encoded-string';
import { MessageBuffer } from '../protocol/message-buffer';
import { isUtf8 } from 'node:buffer';
import {
  documentRow,
  documentsOf,
  swapQuotes,
  tableRows
} from '../../../contracts/answer-rows';
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
import {
  DEFAULT_LIMITS,
  MAX_OUTPUT_COLUMNS,
  type OutputLimits
} from './output-limits';
import { swappedAnswer } from './swapped-answer';
import { escapeHtmlText, htmlTable, plainTable } from './text-table';

import type { MimeBundle } from './mime-bundle';
import { isJsonObject } from '../../../contracts/json';
import { exactJson, holdsExactNumber } from '../../../contracts/exact-json';
export type { MimeBundle };

/**
 * A payload as the kernel hands it to the wire: its answer already in JSON form, copied into
 * the message as bytes (or sent as a buffer of the message, its index in `answerBuffer`).
 * Serialised into a message, it is the payload its schema describes.
 */
type Sent<P extends { answer?: string | undefined }> = Omit<
  P,
  'answer' | 'exactRows' | 'answerBuffer'
> & {
  answer?: EncodedString;
  exactRows?: EncodedString;
  answerBuffer?: MessageBuffer;
};

/** An answer kept: the swapped string the notebook keeps, or its bytes in a buffer of the message. */
type KeptAnswer = EncodedString | MessageBuffer;

/** An answer kept, and the bytes of its JSON text: the fallbacks' share is counted from them, however it is sent. */
interface Kept {
  answer: KeptAnswer;
  bytes: number;
}

/** The payload's fields holding a kept answer. */
function answerFields(
  kept: KeptAnswer
): { answer: EncodedString } | { answerBuffer: MessageBuffer } {
  return kept instanceof MessageBuffer
    ? { answerBuffer: kept }
    : { answer: kept };
}

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
      ? `<pre class="searchbook-warning"><strong>${escapeHtmlText(text)}</strong></pre>`
      : ''
  };
}

/** The engine's answer as the kernel read it: its JSON text (UTF-8 bytes) and the parsed value. */
export interface Answer {
  bytes: Buffer;
  value: JsonValue;
  /** Containers whose values past the read budget were left out before parsing (driver-core/http/elided-json.ts). */
  elisions?: readonly Elision[];
  /** `value` holds the documents' shape only, their values blanked (driver-core/http/shared-sources.ts); `bytes` is whole. */
  shapeOnly?: true;
  /** With `shapeOnly`, when each document can be read alone: the whole document `i`, read from its own bytes. */
  document?: { count: number; at(i: number): JsonValue };
}

/**
 * Whether the bundle of a hits result reads nothing of its documents but their count and
 * shape, and the rows its text and HTML grids show, each read alone: an answer sent as its own
 * bytes (OutputLimits.answerAsBuffer), whole (no row past the cap, no column cut, not too large
 * to keep), its grids not shown (valueOnly) or its documents readable one by one. Only then may
 * its answer be one read for its shape only; any other is read whole first.
 */
export function readsShapeOnly(
  result: PresentedResult,
  answer: Answer,
  limits: OutputLimits
): boolean {
  return (
    result.kind === 'hits' &&
    result.documents !== undefined &&
    limits.answerAsBuffer === true &&
    (limits.valueOnly === true ||
      answer.document?.count ===
        documentsOf(answer.value, result.documents).length) &&
    answer.elisions === undefined &&
    answer.bytes.length <= limits.answerChars &&
    result.columns.length <= MAX_OUTPUT_COLUMNS &&
    documentsOf(answer.value, result.documents).length <= limits.gridRows
  );
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
        bytes: Buffer.from(exactJson(search.raw), 'utf8'),
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
      const read =
        layout && answer
          ? documentsOf(answer.value, layout).length
          : result.rows.length;
      const count =
        (layout && answer ? elidedTotal(answer, layout.at) : undefined) ?? read;
      const columns = outputColumns(result.columns);
      const fit = Math.min(read, limits.gridRows);
      const answerKept =
        layout && answer
          ? keptAnswer(answer, layout.at, fit, count - fit, limits)
          : undefined;
      // Only the rows the notebook keeps are built, each cut to the output's columns and cells.
      const stored =
        answerKept === undefined
          ? storedRows(
              fit,
              rowReader(
                undefined,
                answer,
                layout,
                result.columns,
                () => result.rows
              ),
              columns,
              limits
            )
          : undefined;
      const held = stored ? stored.rows.length : fit;
      const omitted = count - held;
      const payload: Sent<HitsPayload> = {
        info,
        columns,
        ...(answerKept !== undefined && layout
          ? {
              ...answerFields(answerKept.answer),
              answerFormat: ANSWER_FORMAT,
              rowCount: held,
              documents: layout
            }
          : keptRows(stored?.rows ?? [])),
        ...(result.total ? { total: result.total } : {}),
        omittedRows: omitted,
        cut: stored?.cut ?? [],
        aggregations
      };
      const total = result.total
        ? `${result.total.relation === 'gte' ? '≥' : ''}${result.total.value} total, `
        : '';
      const summary = `${caption} (${total}${held} shown${leftOut(omitted)}${columnsLeftOut(result.columns.length, columns.length)})`;
      const kept: KeptRows = {
        held,
        row: lazyRow(() =>
          rowReader(
            stored?.rows,
            answer,
            layout,
            result.columns,
            () => result.rows
          )
        ),
        store: stored ? 'rows' : 'answer',
        mimeType: HITS_MIME,
        omittedRows: omitted
      };
      return {
        [HITS_MIME]: payload,
        // Rebuilt from the answer by Python unless columns were left out of the payload.
        ...(columns.length < result.columns.length
          ? rowsAsValues(kept, limits)
          : {}),
        ...(limits.valueOnly
          ? summaryOnly(summary, warningOf(info))
          : fallbacks(
              summary,
              columns.map(c => c.name),
              kept,
              limits,
              aggregations,
              warningOf(info)
            ))
      };
    }
    case 'table': {
      // An untyped table's rows are its answer's elements: only those kept are made rows.
      const elements =
        !result.columns && answer && Array.isArray(answer.value)
          ? answer.value
          : undefined;
      const count =
        (elements && answer ? elidedTotal(answer, []) : undefined) ??
        (elements ?? result.rows).length;
      const shownRows = elements
        ? tableRows(elements.slice(0, limits.gridRows))
        : result.rows.slice(0, limits.gridRows);
      const answerKept =
        answer && Array.isArray(answer.value)
          ? keptAnswer(
              answer,
              [],
              shownRows.length,
              count - shownRows.length,
              limits
            )
          : undefined;
      const allColumns = result.columns
        ? result.columns.map(c => c.name)
        : [...new Set(shownRows.flatMap(r => Object.keys(r)))];
      const columns = outputColumns(allColumns);
      const { rows, cut } =
        answerKept === undefined
          ? storedRows(
              shownRows.length,
              i => shownRows[i] ?? {},
              columns,
              limits
            )
          : { rows: shownRows, cut: [] };
      const omitted = count - rows.length;
      // A typed table's rows are not its answer's elements: the rows are kept, the answer only for Raw JSON.
      const rawKept =
        result.columns && answer && omitted === 0
          ? keptAnswer(answer, [], rows.length, 0, limits)
          : undefined;
      const payload: Sent<TablePayload> = {
        info,
        columns,
        ...(answerKept === undefined
          ? keptRows(rows)
          : {
              ...answerFields(answerKept.answer),
              answerFormat: ANSWER_FORMAT,
              rowCount: rows.length
            }),
        ...(rawKept
          ? { ...answerFields(rawKept.answer), answerFormat: ANSWER_FORMAT }
          : {}),
        omittedRows: omitted,
        cut,
        ...(result.columns ? { types: result.columns.map(c => c.type) } : {}),
        ...(result.notes?.length ? { notes: result.notes } : {})
      };
      const summary = `${caption} (${count} rows${leftOut(omitted)}${columnsLeftOut(allColumns.length, columns.length)})`;
      const kept: KeptRows = {
        held: rows.length,
        row: i => rows[i] ?? {},
        store: answerKept === undefined ? 'rows' : 'answer',
        mimeType: TABLE_MIME,
        omittedRows: omitted
      };
      const shown = limits.valueOnly
        ? summaryOnly(summary, warningOf(info))
        : fallbacks(
            summary,
            columns,
            kept,
            limits,
            [],
            warningOf(info),
            result.columns?.map(c => c.type)
          );
      const notes = result.notes ?? [];
      return {
        [TABLE_MIME]: payload,
        // Typed rows kept beside an array answer are not that answer's elements: sent as they are.
        ...(result.columns && answerKept !== undefined
          ? rowsAsValues(kept, limits)
          : {}),
        'text/html': [
          shown['text/html'],
          ...notes.map(line => `<p>${escapeHtmlText(line)}</p>`)
        ].join('\n'),
        'text/plain': [shown['text/plain'], ...notes].join('\n')
      };
    }
    case 'json': {
      const pretty = cutText(exactJson(result.value, 2), 'JSON', limits);
      const warning = warningOf(info);
      const kept = capJson(result.value, limits);
      // JupyterLab reads application/json with JSON.parse, which rounds a long past 2^53: a
      // value holding one is left out of it and kept as its exact text in the payload, and
      // frontends without searchbook show the exact text/html instead.
      const exact = holdsExactNumber(kept);
      const payload: Sent<JsonPayload> = {
        info,
        ...(result.fields ? { fields: result.fields } : {}),
        ...(exact
          ? {
              answer: swappedAnswer(Buffer.from(exactJson(kept), 'utf8')),
              answerFormat: ANSWER_FORMAT
            }
          : {})
      };
      return {
        [JSON_MIME]: payload,
        ...(exact ? {} : { 'application/json': kept }),
        'text/html': `<div class="searchbook-json"><div>${escapeHtmlText(caption)}</div>${warning.html}<pre>${escapeHtmlText(pretty)}</pre></div>`,
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

/** The fallbacks of an answer nobody is shown (OutputLimits.valueOnly): its summary line and warning. */
function summaryOnly(
  summary: string,
  warning: { plain: string; html: string }
): { 'text/html': string; 'text/plain': string } {
  return {
    'text/html': [warning.html, `<p>${escapeHtmlText(summary)}</p>`]
      .filter(Boolean)
      .join('\n'),
    'text/plain': [summary, warning.plain].filter(Boolean).join('\n')
  };
}

/** An aggregation table as the notebook keeps it: its first `keep` rows, the others counted (the footer says so under the table). */
/** The table as the notebook keeps it: its column order written out, its rows up to `keep`. */
function withFirstRows(
  table: AggregationResult,
  keep: number
): AggregationResult {
  const ordered = { ...table, columns: aggregationColumns(table) };
  const kept =
    table.rows.length > keep
      ? {
          ...ordered,
          rows: table.rows.slice(0, keep),
          omittedRows: table.rows.length - keep
        }
      : ordered;
  // JupyterLab would round a key past 2^53 in `rows`: the extension reads their exact text.
  return holdsExactNumber(kept.rows)
    ? { ...kept, exactRows: swapQuotes(exactJson(kept.rows)) }
    : kept;
}

/** Rows kept in a payload: as values, or as exact JSON text where they hold a number a double cannot hold. */
function keptRows(
  rows: Record<string, JsonValue>[]
): { rows: Record<string, JsonValue>[] } | { exactRows: EncodedString } {
  return holdsExactNumber(rows)
    ? { exactRows: swappedAnswer(Buffer.from(exactJson(rows), 'utf8')) }
    : { rows };
}

/**
 * The grid's rows under ROWS_MIME, when the kernel was asked for them (limitsFromEnv) and the
 * payload cannot rebuild them: rows the payload stores, or rebuilds from its answer and columns,
 * are not sent twice (python/searchbook/answer_rows.py rebuilds them as answer-rows.ts does).
 */
function rowsAsValues(kept: KeptRows, limits: OutputLimits): MimeBundle {
  return limits.rowsAsValues
    ? {
        [ROWS_MIME]: {
          rows: Array.from({ length: kept.held }, (_, i) => kept.row(i))
        }
      }
    : {};
}

/** Row `i` of the grid: from the rows kept, rebuilt from the answer's documents, or the result's own. */
function rowReader(
  rows: Record<string, JsonValue>[] | undefined,
  answer: Answer | undefined,
  layout: DocumentLayout | undefined,
  columns: readonly Column[],
  /** The result's own rows, read only when the answer cannot rebuild them (reading builds them all). */
  built: () => readonly Record<string, JsonValue>[]
): KeptRows['row'] {
  if (rows) {
    return i => rows[i] ?? {};
  }
  if (!answer || !layout) {
    const own = built();
    return i => own[i] ?? {};
  }
  const build = documentRow(layout, columns);
  // An answer read for its documents' shape: the rows shown are read from their own bytes.
  const alone = answer.shapeOnly ? answer.document : undefined;
  if (alone) {
    return i => build(i < alone.count ? alone.at(i) : null);
  }
  const documents = documentsOf(answer.value, layout);
  return i => build(documents[i] ?? null);
}

/** A row reader made when first read: a summary line alone reads no row. */
function lazyRow(make: () => KeptRows['row']): KeptRows['row'] {
  let row: KeptRows['row'] | undefined;
  return i => (row ??= make())(i);
}

/**
 * The answer's JSON text as the notebook keeps it: the engine's own bytes, or, past the row
 * cap, the answer without the documents left out. Undefined when it is too large to keep.
 * As a buffer of the message when the frontend reads it so (OutputLimits.answerAsBuffer):
 * UTF-8, as the kernel read it (a byte that is no UTF-8 is the replacement character there too).
 */
function keptAnswer(
  answer: Answer,
  at: DocumentLayout['at'],
  keep: number,
  omitted: number,
  limits: OutputLimits
): Kept | undefined {
  const bytes =
    omitted === 0
      ? answer.bytes
      : Buffer.from(
          exactJson(withFirstDocuments(answer.value, at, keep)),
          'utf8'
        );
  if (bytes.length > limits.answerChars) {
    return undefined;
  }
  if (limits.answerAsBuffer) {
    const sent = isUtf8(bytes)
      ? bytes
      : Buffer.from(bytes.toString('utf8'), 'utf8');
    return { answer: new MessageBuffer(sent), bytes: bytes.length };
  }
  return { answer: swappedAnswer(bytes), bytes: bytes.length };
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
    isJsonObject(value) &&
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

/** The total of the container at `at` when the read budget cut it short (driver-core/http/elided-json.ts). */
function elidedTotal(
  answer: Answer,
  at: readonly (string | number)[]
): number | undefined {
  return answer.elisions?.find(
    e =>
      e.path.length === at.length && e.path.every((step, i) => step === at[i])
  )?.total;
}

/** The first MAX_OUTPUT_COLUMNS columns: a row a hundred thousand fields wide is cut as a long cell is. */
function outputColumns<C>(columns: readonly C[]): C[] {
  return columns.slice(0, MAX_OUTPUT_COLUMNS);
}

function columnsLeftOut(all: number, kept: number): string {
  return all > kept
    ? `; ${all - kept} of ${all} columns left out of the notebook, the first ${kept} kept`
    : '';
}

/**
 * The rows a notebook keeps when it cannot keep the answer: the first `held`, each with the
 * output's columns only and its long cells cut, as many as fit in `storedRowsChars`; the
 * rest are counted as left out.
 */
function storedRows(
  held: number,
  row: (i: number) => Record<string, JsonValue>,
  columns: readonly (string | { name: string })[],
  limits: OutputLimits
): CutRows {
  const names = columns.map(c => (typeof c === 'string' ? c : c.name));
  const rows: CutRows['rows'] = [];
  const cut: CutRows['cut'] = [];
  let size = 0;
  for (let i = 0; i < held; i++) {
    const whole = row(i);
    const narrow = fieldRecord<JsonValue>();
    for (const name of names) {
      const value = ownValue(whole, name);
      if (value !== undefined) {
        narrow[name] = value;
      }
    }
    const one = cutLongCells([narrow]);
    const stored = one.rows[0] ?? narrow;
    size += JSON.stringify(stored).length + 1;
    if (size > limits.storedRowsChars && i > 0) {
      break;
    }
    rows.push(stored);
    for (const c of one.cut) {
      cut.push({ row: i, column: c.column });
    }
  }
  return { rows, cut };
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
      : `<p>${escapeHtmlText(text)}</p>`
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
  const size = exactJson(value)?.length ?? 0;
  return size <= limits.rawJsonChars
    ? value
    : {
        searchbook: `raw response of ${size} characters left out of the notebook`
      };
}
