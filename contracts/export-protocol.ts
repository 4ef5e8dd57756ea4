/**
 * The export messages of the `searchbook.panel` comm: the side panel's "Export…" on an index or
 * collection, or on a grid's current filter. The export runs in the kernel exactly as `%export`
 * does; while it runs the kernel sends `exportProgress` messages carrying the export request's
 * id (they are not its answer), then answers the request once: `exported`, or an `error` saying
 * how far it got. `cancelExport` stops it (answered at once with `exportCancelled`).
 *
 * Files are named as on a `%export` line: a relative name lands in the kernel's working
 * directory, which Jupyter sets to the directory of the notebook the kernel belongs to.
 */
import { z } from 'zod';
import { EXPORT_FORMATS } from './export-formats';
import { PANEL_PROTOCOL_VERSION } from './protocol-version';

const Base = {
  v: z.literal(PANEL_PROTOCOL_VERSION),
  requestId: z.string().min(1)
};
const ReplyBase = {
  v: z.literal(PANEL_PROTOCOL_VERSION),
  requestId: z.string()
};
/** The panel's name for one export, to cancel it and to match its progress. */
const ExportId = z.string().min(1);

export const ExportFormatSchema = z.enum(EXPORT_FORMATS);

export const ExportProgressSchema = z.object({
  documents: z.number().int().nonnegative(),
  /** Documents the export will hold; null when the engine did not say. */
  total: z.number().int().nonnegative().nullable(),
  bytes: z.number().int().nonnegative(),
  elapsedMs: z.number().nonnegative(),
  /** The line `%export` shows for the same figures (documents of total, rate, time left). */
  text: z.string()
});
export type ExportProgressInfo = z.infer<typeof ExportProgressSchema>;

export const ExportRequestSchemas = [
  z.object({
    ...Base,
    type: z.literal('export'),
    exportId: ExportId,
    connection: z.string().min(1),
    target: z.string().min(1),
    /** As on a %export line: relative to the notebook's directory. */
    file: z
      .string()
      .trim()
      .min(
        1,
        'Name the file to write, for example products.jsonl (it is written next to the notebook).'
      ),
    format: ExportFormatSchema,
    /** Only these fields (dotted names); absent for whole documents. */
    fields: z.array(z.string().trim().min(1)).min(1).optional(),
    /** Export what this open grid shows: its target under its current filter. */
    gridId: z.string().min(1).optional(),
    overwrite: z.boolean().default(false)
  }),
  z.object({ ...Base, type: z.literal('cancelExport'), exportId: ExportId })
] as const;

export const ExportReplySchemas = [
  z.object({
    ...ReplyBase,
    type: z.literal('exportProgress'),
    exportId: z.string(),
    progress: ExportProgressSchema
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('exported'),
    exportId: z.string(),
    file: z.string(),
    progress: ExportProgressSchema
  }),
  z.object({
    ...ReplyBase,
    type: z.literal('exportCancelled'),
    exportId: z.string()
  })
] as const;

export type PanelExportRequest = z.infer<(typeof ExportRequestSchemas)[number]>;
export type PanelExportReply = z.infer<(typeof ExportReplySchemas)[number]>;
