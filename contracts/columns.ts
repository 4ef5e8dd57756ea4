import { z } from 'zod';

/**
 * A grid column: a dotted path into the document. The one column type of both halves: the
 * engines build it, hits payloads and the panel's comm carry it, the grids show it. The optional
 * fields were added with columns from mappings and schemas; payloads without them (older
 * notebooks) still parse.
 */
export const ColumnSchema = z.object({
  name: z.string(),
  /** The engine's type for the header: mapping/schema types (`text`, `nested`, `int32`, `object[]`; `long | keyword` when the indices of an alias disagree), or the JSON type (`string`, `number`, `array`, ...) of a column known only from the documents; empty when the answer says nothing about types (tables). */
  type: z.string(),
  readOnly: z.boolean(),
  /** The cell holds JSON (arrays, objects, nested parents). */
  json: z.boolean(),
  /** `meta`: `_id`, `_index`, `_score`, Typesense `id`; `mapping`: the index mapping or collection schema; `documents`: a field only the documents hold (or the mapping could not be read). */
  origin: z.enum(['meta', 'mapping', 'documents']).optional(),
  /** A date field's formats as its mapping names them (`epoch_second`, `yyyy/MM/dd HH:mm||epoch_millis`), so a reader of the rows knows what a number or text in it means. */
  format: z.string().optional(),
  /** The document identifier (`_id`, `id`): the primary key of the grid. */
  primaryKey: z.boolean().optional(),
  /** For a leaf of a `nested` / `object[]` field: that field's column name. The cell is an array with one entry per element, `null` where an element omits the leaf; edit it through the parent column. */
  arrayParent: z.string().optional(),
  /** Numbers are statistics (aggregation values): painted rounded and grouped, copied exact. Set by the extension for aggregation tables; the kernel never sends it. */
  statistic: z.boolean().optional()
});
export type Column = z.infer<typeof ColumnSchema>;
