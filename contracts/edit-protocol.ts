/**
 * The editing messages of the `searchbook.panel` comm: saving a grid's pending changes (and
 * showing the requests a save would send), loading a cut cell's whole value before it is
 * edited, and deleting or emptying an index or collection. Engine-neutral: the panel sends
 * what the user typed and where; the kernel types it by the mapping or schema, builds the
 * engine's requests in the driver, and answers per change.
 *
 * A save is all or nothing before anything is sent: when one typed value is refused, the
 * reply lists every refusal and no request goes out. Once sent, each change stands alone:
 * the reply says per change whether it was saved, hit a concurrent change, or failed.
 */
import { z } from 'zod';
import { fieldsRecord, hasField } from './own-fields';
import { GridRowSchema, JsonValueSchema } from './mime-types';
import { PANEL_PROTOCOL_VERSION } from './protocol-version';

const Base = {
  v: z.literal(PANEL_PROTOCOL_VERSION),
  requestId: z.string().min(1)
};
const ReplyBase = {
  v: z.literal(PANEL_PROTOCOL_VERSION),
  requestId: z.string()
};
const GridId = z.string().min(1);
/** The panel's own name for a pending change, echoed in every answer about it. */
const ChangeKey = z.string().min(1);

/**
 * The engine's version of a document as it was read (Elasticsearch `_seq_no` and
 * `_primary_term`), sent back with a write so a concurrent change is never overwritten.
 */
export const RowVersionSchema = z.object({
  seqNo: z.number().int().nonnegative(),
  primaryTerm: z.number().int().positive()
});
export type RowVersion = z.infer<typeof RowVersionSchema>;

/** Where a row lives: its own index or collection (a row found through an alias or pattern is written there) and its id. */
export const RowKeySchema = z.object({
  index: z.string().min(1),
  id: z.string().min(1)
});
export type RowKey = z.infer<typeof RowKeySchema>;

/** A cell as the user left it: the text typed (the kernel types it by the column's mapping or schema; JSON columns hold JSON text), or null to store null. */
export const CellEditSchema = z.string().nullable();
export type CellEdit = z.infer<typeof CellEditSchema>;
const Fields = fieldsRecord(
  CellEditSchema,
  'fields maps column names to the texts typed, or null'
).refine(fields => !hasField(fields, ''), 'a column name is never empty');
/**
 * Fields as the grid read them, sent by a change to a row of an engine that keeps no versions
 * (Typesense): the kernel reads the stored document first, and a field that differs is a
 * `conflict`, with nothing written.
 */
const Expected = fieldsRecord(
  JsonValueSchema,
  'expected maps column names to the values read'
).refine(fields => !hasField(fields, ''), 'a column name is never empty');

export const RowChangeSchema = z.discriminatedUnion('kind', [
  /** Only the changed fields are sent (a partial update); `expected` holds those fields as read. */
  z.object({
    kind: z.literal('update'),
    key: ChangeKey,
    row: RowKeySchema,
    version: RowVersionSchema.optional(),
    expected: Expected.optional(),
    fields: Fields
  }),
  /**
   * A new row in the grid's target; without an id the engine names it (the panel always sends
   * one, random where the user typed none, so that sending it again creates nothing twice: an
   * id already holding exactly the document sent answers `saved`). An insert never
   * replaces a document that has its id (Elasticsearch: `op_type=create`): that is a
   * `conflict` carrying the stored document. To replace it knowingly, send the insert again
   * with the `version` that conflict gave (Elasticsearch); on Typesense, which keeps no
   * versions, send the fields as an `update` of that row instead.
   */
  z.object({
    kind: z.literal('insert'),
    key: ChangeKey,
    index: z.string().min(1),
    id: z.string().min(1).optional(),
    version: RowVersionSchema.optional(),
    fields: Fields
  }),
  /** `expected`: the row as read, less the cells the grid showed cut. */
  z.object({
    kind: z.literal('delete'),
    key: ChangeKey,
    row: RowKeySchema,
    version: RowVersionSchema.optional(),
    expected: Expected.optional()
  })
]);
export type RowChange = z.infer<typeof RowChangeSchema>;

/** A request a save sends or would send, for "Show requests" and for the record of what was done. */
export const PlannedRequestSchema = z.object({
  key: ChangeKey,
  method: z.string(),
  path: z.string(),
  body: JsonValueSchema.optional(),
  /** The body's JSON text as sent, when `body` cannot hold it exactly (a whole number past 2^53 reads back rounded). */
  bodyText: z.string().optional()
});
export type PlannedRequest = z.infer<typeof PlannedRequestSchema>;

/**
 * A typed value the kernel will not send (a fraction in an integer field, a date off the
 * mapping's format, invalid JSON with its line and column, a read-only column). Nothing was sent.
 */
export const EditRefusalSchema = z.object({
  key: ChangeKey,
  column: z.string().optional(),
  message: z.string(),
  line: z.number().int().positive().optional(),
  col: z.number().int().positive().optional()
});
export type EditRefusal = z.infer<typeof EditRefusalSchema>;

const SentRequest = z.object({
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  elapsedMs: z.number()
});
/** A document as the grid shows it: the same shape as a block's rows. */
const GridRow = GridRowSchema;

export const ChangeResultSchema = z.discriminatedUnion('status', [
  z.object({
    key: ChangeKey,
    status: z.literal('saved'),
    /** For an insert without an id: the id the engine gave. */
    row: RowKeySchema,
    version: RowVersionSchema.optional(),
    /** The document as now stored (absent after a delete). */
    document: GridRow.optional(),
    request: SentRequest
  }),
  z.object({
    key: ChangeKey,
    status: z.literal('conflict'),
    message: z.string(),
    /** The document as someone else left it; null when it was deleted meanwhile. */
    current: GridRow.nullable(),
    /** Send this version to overwrite the concurrent change knowingly. */
    version: RowVersionSchema.optional(),
    request: SentRequest
  }),
  z.object({
    key: ChangeKey,
    status: z.literal('failed'),
    message: z.string(),
    httpStatus: z.number().int().optional(),
    request: SentRequest.optional()
  })
]);
export type ChangeResult = z.infer<typeof ChangeResultSchema>;

/** A piece of a document's metadata as the engine keeps it (`_index`, `_id`, `_version`, `_seq_no`, `_primary_term`; a Typesense collection and id). */
export const DocumentMetaSchema = z.object({
  name: z.string().min(1),
  value: JsonValueSchema
});
export type DocumentMeta = z.infer<typeof DocumentMetaSchema>;

export const TargetActionIdSchema = z.enum(['delete', 'empty']);
export type TargetActionId = z.infer<typeof TargetActionIdSchema>;

/** A destructive action on an index or collection, with the exact request the confirmation shows. */
export const TargetActionSchema = z.object({
  action: TargetActionIdSchema,
  label: z.string(),
  /** `DELETE /products`, as it will be sent. */
  request: z.string(),
  /** Why it cannot be done here (Typesense older than 28.0 has no truncate). */
  unavailable: z.string().optional()
});
export type TargetAction = z.infer<typeof TargetActionSchema>;

export const EditRequestSchemas = [
  /** The requests a save would send, or the refusals that stop it; nothing is sent. */
  z.object({
    ...Base,
    type: z.literal('plan'),
    gridId: GridId,
    changes: z.array(RowChangeSchema).min(1)
  }),
  z.object({
    ...Base,
    type: z.literal('save'),
    gridId: GridId,
    changes: z.array(RowChangeSchema).min(1)
  }),
  /** A cut cell's whole value, loaded before it is edited so the fragment is never saved. */
  z.object({
    ...Base,
    type: z.literal('wholeValue'),
    gridId: GridId,
    row: RowKeySchema,
    column: z.string().min(1)
  }),
  /** A row's whole document as stored now, with its metadata: shown and edited as JSON. */
  z.object({
    ...Base,
    type: z.literal('wholeDocument'),
    gridId: GridId,
    row: RowKeySchema
  }),
  /** What may be done to an index or collection, with the requests. */
  z.object({
    ...Base,
    type: z.literal('targetActions'),
    connection: z.string().min(1),
    target: z.string().min(1)
  }),
  /** Runs one; `confirmName` is the name the user typed, checked again by the kernel. */
  z.object({
    ...Base,
    type: z.literal('targetAction'),
    connection: z.string().min(1),
    target: z.string().min(1),
    action: TargetActionIdSchema,
    confirmName: z.string(),
    /**
     * What the confirmation showed, as the kernel read it when the menu opened: the documents
     * the target held. When given, the kernel reads the count again just before sending and
     * sends nothing if it changed, so what is deleted or emptied is what the user confirmed.
     */
    basis: z
      .object({ documents: z.number().int().nonnegative().nullable() })
      .optional()
  })
] as const;

export const EditReplySchemas = [
  z.object({
    ...ReplyBase,
    type: z.literal('plan'),
    gridId: z.string(),
    requests: z.array(PlannedRequestSchema),
    refusals: z.array(EditRefusalSchema)
  }),
  /** `results` is empty when `refusals` is not: then nothing was sent. */
  z.object({
    ...ReplyBase,
    type: z.literal('saved'),
    gridId: z.string(),
    results: z.array(ChangeResultSchema),
    refusals: z.array(EditRefusalSchema)
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('wholeValue'),
    gridId: z.string(),
    row: RowKeySchema,
    column: z.string(),
    value: JsonValueSchema
  }),
  /**
   * `document`: as the engine stores it (Elasticsearch `_source`, a Typesense document with its
   * `id`); `values`: the same document as a grid row (each column's value), which edits made
   * from it compare against; `version`: sent back with those edits.
   */
  z.object({
    ...ReplyBase,
    type: z.literal('wholeDocument'),
    gridId: z.string(),
    row: RowKeySchema,
    document: JsonValueSchema,
    meta: z.array(DocumentMetaSchema),
    values: GridRow,
    version: RowVersionSchema.optional()
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('targetActions'),
    connection: z.string(),
    target: z.string(),
    actions: z.array(TargetActionSchema),
    /** The documents it holds now, read from the server (null: the engine does not say); absent for a name the listing does not hold (an alias, a pattern). */
    documents: z.number().int().nonnegative().nullable().optional()
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('targetActionDone'),
    connection: z.string(),
    target: z.string(),
    action: TargetActionIdSchema,
    request: SentRequest,
    message: z.string()
  })
] as const;

export type EditReply = z.infer<(typeof EditReplySchemas)[number]>;

export type EditRequest = z.infer<(typeof EditRequestSchemas)[number]>;
