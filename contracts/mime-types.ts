import { KEEP_MORE_ROWS } from './output-rows';
import { z } from 'zod';
import { ColumnSchema } from './columns';
import { fieldsRecord } from './own-fields';
import { ExactNumber } from './exact-json';
import { type TypedSecretKind, TypedSecretKindSchema } from './typed-secrets';
import { ANSWER_FORMATS } from './answer-format';

/**
 * The MIME payloads the kernel emits and the extension renders: defined once, here, and
 * imported by both halves.
 */
export const HITS_MIME = 'application/vnd.searchbook.hits+json';
export const TABLE_MIME = 'application/vnd.searchbook.table+json';
/** A request still waiting for its answer: what it waits for and for how long; replaced by the answer. */
export const PROGRESS_MIME = 'application/vnd.searchbook.progress+json';
/** A `%connect` refused for a secret typed into it: the extension offers to remove it from the cell. */
export const TYPED_SECRET_MIME = 'application/vnd.searchbook.typed-secret+json';
/** A JSON answer: who answered, plus the fields of a mapping or schema; the value itself is the bundle's `application/json`. */
export const JSON_MIME = 'application/vnd.searchbook.json+json';
/**
 * The grid's rows of a hits output, as JSON values, for a program that reads the answer
 * (searchbook's IPython extension): sent only by a kernel started with
 * `SEARCHBOOK_ROWS_AS_VALUES=1`, and only where the payload cannot rebuild them (columns left
 * out of it); that extension rebuilds all others from the payload and takes this off before
 * showing the output, so a notebook never keeps the rows a second time beside the answer.
 */
export const ROWS_MIME = 'application/vnd.searchbook.rows+json';

/**
 * A search answer's bytes, sent as they arrived (its `answerBuffer`, a buffer of the message)
 * before the kernel reads them, to searchbook's IPython extension only, when it asks
 * (`answerEarly`): it parses them while the kernel reads them, and uses that parse when the
 * answer's output carries the same bytes. Never shown, never kept in a notebook.
 */
export const ANSWER_BYTES_MIME = 'application/vnd.searchbook.answer-bytes';

export const JsonValueSchema: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    // Before the record: an ExactNumber (exact-json.ts) is kept as the instance it is.
    z.instanceof(ExactNumber),
    z.string(),
    z.array(JsonValueSchema),
    // Not z.record, which leaves a key named `__proto__` out: a document may hold one.
    fieldsRecord(JsonValueSchema, 'objects hold JSON values')
  ])
);

/**
 * Part of a request that failed while the request as a whole succeeded: items of a bulk write,
 * searches of a multi-search, shards of a search, lines of an import. Shown on the status line.
 */
export const PartialFailureSchema = z.object({
  failed: z.number().int().nonnegative(),
  of: z.number().int().nonnegative(),
  /** What was counted: `items`, `searches`, `documents`, `shards`, `lines`. */
  unit: z.string(),
  /** `failed`, or `not found` (documents of a multi-get). */
  outcome: z.enum(['failed', 'not found']),
  /** The first distinct reasons the engine gave, each naming its item. */
  reasons: z.array(z.string())
});
export type PartialFailure = z.infer<typeof PartialFailureSchema>;

/** Who answered and how, shown on the grid's status line. */
export const ResponseInfoSchema = z.object({
  connection: z.string(),
  /** The engine's registered name, checked where the kernel produces it, so a notebook saved with any name still reads. */
  engine: z.string(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  elapsedMs: z.number(),
  /** One search of several in one request: `Search 2 of 3: books`. */
  title: z.string().optional(),
  /** Parts of the request that failed although it answered 2xx (`3 of 1,000 items failed`). */
  partialFailures: z.array(PartialFailureSchema).optional()
});

/**
 * One grid row: an object of JSON values, checked and kept as it is. z.record would leave out a
 * field named `__proto__` (it cannot set one on the object it builds), and documents may hold one.
 */
export const GridRowSchema = fieldsRecord(
  JsonValueSchema,
  'a row is an object of JSON values'
);

const RowsSchema = z.array(GridRowSchema);

/**
 * Where the documents sit in the engine's answer, so the grid's rows are rebuilt from the
 * answer itself (answer-rows.ts) instead of being stored in the notebook a second time.
 */
export const DocumentLayoutSchema = z.object({
  /** Keys and indexes from the answer to its array of documents; `[]`: the answer is that array (an object there is one document). */
  at: z.array(z.union([z.string(), z.number().int().nonnegative()])),
  /** From one element of that array to the document (`['_source']`, `['document']`, or `[]` for the element itself). */
  source: z.array(z.string()),
  /** Leading columns read from the element (`_id` → `['_id']`), `null` where the element lacks them. */
  meta: z.record(z.string(), z.array(z.string()))
});
export type DocumentLayout = z.infer<typeof DocumentLayoutSchema>;

/**
 * The engine's answer as the JSON text it sent (hits beyond the row cap left out), with every
 * `"` and `'` swapped (`answerFormat` says so; answer-format.ts reads it back). A string,
 * not a parsed value, so a saved notebook holds it on one line, and swapped, so that line
 * needs almost no escapes: a notebook holds about 1.0× the engine's bytes instead of 1.15×.
 */
const AnswerSchema = z.string();
export { ANSWER_FORMAT, COMPRESSED_ANSWER_FORMAT } from './answer-format';
/** Answers over 64 KiB are kept compressed (answer-format.ts); swappedAnswerText reads either. */
const AnswerFormatSchema = z.enum(ANSWER_FORMATS);

/**
 * In place of `answer`, for a frontend that asked for it (searchbook's Python magics): the
 * index of the message buffer holding the engine's answer as its own JSON bytes (UTF-8, quotes
 * as sent). Never in a notebook: what shows the output puts `answer` back.
 */
const AnswerBufferSchema = z.number().int().nonnegative();

/**
 * Rows kept in the payload (as `rows`) that hold a number a double cannot hold (an ES|QL
 * `long` past 2^53): their JSON text, quotes swapped as the answer's, in place of `rows`, since
 * JupyterLab reads a bundle with JSON.parse and would round the number.
 */
const ExactRowsSchema = z.string();

/**
 * One table of an aggregation answer (or of a Typesense facet). A bucket aggregation inside the
 * buckets of another has a table of its own, titled with the path (`brands > colors`), whose
 * leading columns are the parent buckets' keys. Older notebooks have only name and rows.
 */
export const AggregationTableSchema = z.object({
  name: z.string(),
  /** Beside `rows` (which Python reads), their exact text where they hold a number a double cannot hold (a `terms` key past 2^53). */
  exactRows: ExactRowsSchema.optional(),
  /** `facet`: a Typesense facet (facet_by); older notebooks have none, meaning an aggregation. */
  kind: z.enum(['aggregation', 'facet']).optional(),
  rows: RowsSchema,
  /**
   * The columns in the engine's order (keys, count, then the sub-aggregations). Rows alone do
   * not keep it: a saved notebook's JSON may sort each row's keys (nbformat writes them sorted).
   * Older notebooks have none; their rows' keys are the order.
   */
  columns: z.array(z.string()).optional(),
  /** The columns that name a bucket (parent keys, then its own key), joined for the bar chart's labels. */
  keyColumns: z.array(z.string()).optional(),
  /** What the engine says about the table as a whole, as sentences (`and 1,204 documents in other buckets (sum_other_doc_count)`). */
  notes: z.array(z.string()).optional(),
  /** Parts of the answer the table cannot show, named by their path in the answer (`brands.buckets[].x`): read them in Raw JSON. */
  notShown: z.array(z.string()).optional(),
  /** Rows after the kernel's row cap (output-rows.ts) left out of the notebook (a table of buckets in buckets multiplies rows). */
  omittedRows: z.number().int().positive().optional()
});
export type AggregationTable = z.infer<typeof AggregationTableSchema>;

export const HitsPayloadSchema = z
  .object({
    info: ResponseInfoSchema,
    columns: z.array(ColumnSchema),
    /** Rows as the grid shows them: only when the answer could not be kept (too large, cells cut), and in notebooks saved before `answer`. */
    rows: RowsSchema.optional(),
    exactRows: ExactRowsSchema.optional(),
    answer: AnswerSchema.optional(),
    answerBuffer: AnswerBufferSchema.optional(),
    answerFormat: AnswerFormatSchema.optional(),
    /**
     * How many rows the kept answer holds (its documents), so an output says it and sizes its
     * grid without reading the answer until the grid is built. Older notebooks have none: the
     * answer is counted then.
     */
    rowCount: z.number().int().nonnegative().optional(),
    documents: DocumentLayoutSchema.optional(),
    total: z
      .object({ value: z.number(), relation: z.enum(['eq', 'gte']) })
      .optional(),
    /** Rows left out of the bundle to keep the notebook small. */
    omittedRows: z.number().int().nonnegative(),
    /** Cells holding a fragment of a longer array or object (see render/cell-cut.ts). */
    cut: z
      .array(
        z.object({ row: z.number().int().nonnegative(), column: z.string() })
      )
      .default([]),
    aggregations: z.array(AggregationTableSchema).default([])
  })
  .refine(
    p =>
      p.rows !== undefined ||
      p.exactRows !== undefined ||
      ((p.answer !== undefined || p.answerBuffer !== undefined) &&
        p.documents !== undefined),
    {
      message:
        'a hits payload holds either rows or an answer with its document layout'
    }
  );
export type HitsPayload = z.infer<typeof HitsPayloadSchema>;

export const TablePayloadSchema = z
  .object({
    info: ResponseInfoSchema,
    columns: z.array(z.string()),
    /** As for hits: only when the answer could not be kept, and in older notebooks. */
    rows: RowsSchema.optional(),
    exactRows: ExactRowsSchema.optional(),
    /** The engine's array (or JSONL lines, as one array) as JSON text; each element is one row. */
    answer: AnswerSchema.optional(),
    answerBuffer: AnswerBufferSchema.optional(),
    answerFormat: AnswerFormatSchema.optional(),
    /** As for hits: the rows the kept answer holds (its elements); older notebooks have none. */
    rowCount: z.number().int().nonnegative().optional(),
    omittedRows: z.number().int().nonnegative(),
    cut: z
      .array(
        z.object({ row: z.number().int().nonnegative(), column: z.string() })
      )
      .default([]),
    /** The engine's type of each column, in `columns` order, shown in the header (ES|QL's `long`, `keyword`); absent when the answer types nothing. */
    types: z.array(z.string()).optional(),
    /** What the engine says about the table as a whole, as sentences under it (`Partial answer (is_partial): ...`). */
    notes: z.array(z.string()).optional()
  })
  .refine(
    p =>
      p.rows !== undefined ||
      p.exactRows !== undefined ||
      p.answer !== undefined ||
      p.answerBuffer !== undefined,
    {
      message: 'a table payload holds either rows or an answer'
    }
  );
export type TablePayload = z.infer<typeof TablePayloadSchema>;
export type ResponseInfo = z.infer<typeof ResponseInfoSchema>;

/** One field of a mapping or collection schema, as the field / type table lists it. */
export const FieldTypeSchema = z.object({
  field: z.string(),
  type: z.string()
});
export type FieldType = z.infer<typeof FieldTypeSchema>;

export const JsonPayloadSchema = z.object({
  info: ResponseInfoSchema,
  /** Set when the answer is a mapping or collection schema: every field with its type, dotted. */
  fields: z.array(FieldTypeSchema).optional(),
  /**
   * Set, with the bundle's `application/json` left out, when the answer holds a number a
   * double cannot hold (a long past 2^53): its exact JSON text, quotes swapped as a hits
   * answer's, since JupyterLab reads application/json with JSON.parse and would round it.
   */
  answer: AnswerSchema.optional(),
  answerFormat: AnswerFormatSchema.optional()
});
export type JsonPayload = z.infer<typeof JsonPayloadSchema>;

export const ProgressPayloadSchema = z.object({
  /** `es: GET /products/_search`, `Connecting to Elasticsearch at http://host:9200 (at most 10 s)`. */
  waitingFor: z.string(),
  elapsedMs: z.number().nonnegative(),
  /** Interrupting the kernel stops it (a request); the renderer offers a stop control. */
  stoppable: z.boolean()
});
export type ProgressPayload = z.infer<typeof ProgressPayloadSchema>;

export const TypedSecretPayloadSchema = z.object({
  /** `password`, `key`, `address`, or the `option` of an engine's own kind. */
  option: z.string(),
  /** The engine's own kind, when it is one: how to name it and what removing it does. */
  kind: TypedSecretKindSchema.optional()
});
export type TypedSecretPayload = z.infer<typeof TypedSecretPayloadSchema>;

/** How messages name the typed secrets every engine has. */
const TYPED_SECRET_WORDS: Readonly<Record<string, string>> = {
  password: 'password',
  key: 'key',
  address: 'password in the address'
};

/** How messages name a kind of typed secret: `password`, `AWS credential`. */
export function typedSecretWords(
  option: string,
  kind: TypedSecretKind | undefined
): string {
  return TYPED_SECRET_WORDS[option] ?? kind?.words ?? 'secret';
}

/** The heading of an aggregation or facet table: `Aggregation brands`, `Facet genre`. */
export function aggregationTitle(table: {
  name: string;
  kind?: 'aggregation' | 'facet' | undefined;
}): string {
  return `${table.kind === 'facet' ? 'Facet' : 'Aggregation'} ${table.name}`;
}

/** The lines under an aggregation table: the engine's notes, then what the table leaves to Raw JSON. Plain text, for every renderer. */
/** An aggregation table's columns in order, for every place that shows it. */
export function aggregationColumns(
  table: Pick<AggregationTable, 'rows' | 'columns'>
): string[] {
  return (
    table.columns ?? [...new Set(table.rows.flatMap(row => Object.keys(row)))]
  );
}

export function aggregationFooter(
  table: Pick<
    AggregationTable,
    'rows' | 'notes' | 'notShown' | 'omittedRows' | 'kind'
  >
): string[] {
  const notShown = table.notShown ?? [];
  const omitted = table.omittedRows ?? 0;
  return [
    // An empty table under its title would read as a table that failed to show; in the
    // engine's own words (a facet has values counted, an aggregation buckets).
    ...(table.rows.length === 0 && omitted === 0
      ? [
          table.kind === 'facet'
            ? 'No values: the engine counted none for this facet.'
            : 'No buckets: the engine answered this aggregation with none.'
        ]
      : []),
    ...(omitted > 0
      ? [
          `${counts.format(omitted)} more rows of this table are not in the notebook (read them in Raw JSON, or ${KEEP_MORE_ROWS} and run the cell again to keep them).`
        ]
      : []),
    ...(table.notes ?? []),
    ...(notShown.length > 0
      ? [
          `Not shown in this table (read them in Raw JSON, the engine's answer): ${notShown.join(', ')}.`
        ]
      : [])
  ];
}

const counts = new Intl.NumberFormat('en-US');

/** `3 of 1,000 items failed`, for each part that did; empty when none did. */
export function partialFailureHeadline(
  failures: readonly PartialFailure[] | undefined
): string {
  return (failures ?? [])
    .map(
      f =>
        `${counts.format(f.failed)} of ${counts.format(f.of)} ${f.unit} ${f.outcome}`
    )
    .join('; ');
}

/** The warning of a partial failure with its first reasons, one line each; empty when nothing failed. */
export function partialFailureText(
  failures: readonly PartialFailure[] | undefined
): string {
  return (failures ?? [])
    .map(f => {
      const headline = `Warning: ${counts.format(f.failed)} of ${counts.format(f.of)} ${f.unit} ${f.outcome}`;
      return f.reasons.length > 0
        ? `${headline}. First reasons:\n${f.reasons.map(r => `  - ${r}`).join('\n')}`
        : `${headline}.`;
    })
    .join('\n');
}
