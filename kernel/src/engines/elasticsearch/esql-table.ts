/**
 * An ES|QL answer (`POST /_query`, `POST /_query/async`, `GET /_query/async/<id>`) as a typed
 * table: its `columns` in their order with their ES|QL types, one row per array of `values`
 * (one array per column when the request asked `"columnar": true`). Values stay as the engine
 * sent them: nulls as nulls, multi-valued fields as arrays, and a whole number past 2^53
 * (`long`, `unsigned_long`) as the text of its digits, since a JavaScript number would round it.
 * https://www.elastic.co/docs/reference/query-languages/esql/esql-rest
 */
import { z } from 'zod';
import type { ConsoleRequest, JsonValue } from '../../console/cell';
import type { ConsoleResult, EngineResponse } from '../../driver-core/driver';
import { fieldRecord } from '../../../../contracts/own-fields';
import { isJsonObject } from '../../../../contracts/json';

const ColumnInfoSchema = z.object({ name: z.string(), type: z.string() });

/** The parts of the answer the table reads; the rest stays in Raw JSON. */
const EsqlAnswerSchema = z.object({
  columns: z.array(ColumnInfoSchema),
  values: z.array(z.array(z.unknown())),
  all_columns: z.array(ColumnInfoSchema).optional(),
  is_partial: z.boolean().optional(),
  documents_found: z.number().optional(),
  values_loaded: z.number().optional()
});

const counts = new Intl.NumberFormat('en-US');

function isEsqlPath(path: string): boolean {
  return path === '/_query' || path.startsWith('/_query/async');
}

/** The answer's JSON value: read exactly by the transport, whole numbers past 2^53 kept digit for digit. */
function exactAnswer(response: EngineResponse): JsonValue | undefined {
  return response.body.kind === 'json' ? response.body.value : undefined;
}

function askedColumnar(request: ConsoleRequest): boolean {
  const body = request.body?.kind === 'json' ? request.body.value : undefined;
  return isJsonObject(body) && body.columnar === true;
}

/** The table of an ES|QL answer, or undefined when the answer is not one (an error, an async query still running). */
export function esqlTable(
  request: ConsoleRequest,
  response: EngineResponse
): ConsoleResult | undefined {
  if (response.status >= 300 || !isEsqlPath(request.path)) {
    return undefined;
  }
  const parsed = EsqlAnswerSchema.safeParse(exactAnswer(response));
  if (!parsed.success) {
    return undefined;
  }
  const answer = parsed.data;
  const columns = answer.columns;
  const columnar = askedColumnar(request);
  const at = (outer: number, inner: number): JsonValue =>
    (answer.values[outer]?.[inner] ?? null) as JsonValue;
  const rowCount = columnar
    ? Math.max(0, ...answer.values.map(column => column.length))
    : answer.values.length;
  const rows = Array.from({ length: rowCount }, (_, r) => {
    const row = fieldRecord<JsonValue>();
    columns.forEach((column, c) => {
      row[column.name] = columnar ? at(c, r) : at(r, c);
    });
    return row;
  });
  return {
    kind: 'table',
    rows,
    columns: columns.map(c => ({ name: c.name, type: c.type })),
    notes: notesOf(answer)
  };
}

/** What the answer says about the table as a whole, as sentences under it. */
function notesOf(answer: z.infer<typeof EsqlAnswerSchema>): string[] {
  const notes: string[] = [];
  if (answer.is_partial === true) {
    notes.push(
      'Partial answer (is_partial): some shards or clusters did not answer, so rows may be missing. Their failures are in Raw JSON (_clusters).'
    );
  }
  const shown = new Set(answer.columns.map(c => c.name));
  const dropped = (answer.all_columns ?? []).filter(c => !shown.has(c.name));
  if (dropped.length > 0) {
    notes.push(
      `Columns left out because every value is null (drop_null_columns): ${dropped.map(c => `${c.name} (${c.type})`).join(', ')}.`
    );
  }
  if (answer.documents_found !== undefined) {
    notes.push(
      `${counts.format(answer.documents_found)} documents found${answer.values_loaded !== undefined ? `, ${counts.format(answer.values_loaded)} values loaded` : ''}.`
    );
  }
  return notes;
}
