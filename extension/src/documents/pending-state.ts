/**
 * The pending set's shapes: what is stored in the browser (validated by these schemas when read
 * back), what a save answers for each change, and the small helpers the set reads them with.
 */
import { z } from 'zod';
import {
  type CellEdit,
  CellEditSchema,
  type ChangeResult,
  type RowChange,
  type RowKey,
  RowKeySchema,
  type RowVersion,
  RowVersionSchema
} from '@searchbook/contracts/edit-protocol';
import { GridRowSchema } from '@searchbook/contracts/mime-types';
import { fieldsRecord, ownValue } from '@searchbook/contracts/own-fields';

export type GridRow = z.infer<typeof GridRowSchema>;

/** Why a pending change is not saved yet: the kernel refused a typed value (nothing sent), someone else changed the row, or the engine failed the write. */
export const ProblemSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('refused'),
    refusals: z.array(
      z.object({
        column: z.string().optional(),
        message: z.string(),
        line: z.number().optional(),
        col: z.number().optional()
      })
    )
  }),
  z.object({
    kind: z.literal('conflict'),
    message: z.string(),
    current: GridRowSchema.nullable(),
    version: RowVersionSchema.optional()
  }),
  z.object({ kind: z.literal('failed'), message: z.string() })
]);
export type Problem = z.infer<typeof ProblemSchema>;

const Fields = fieldsRecord(
  CellEditSchema,
  'edited cells are texts or null by column'
);
/** An existing row with edited cells, or marked for deletion (its edits kept, in case the mark is taken back). */
const EditedRowSchema = z.object({
  key: z.string(),
  row: RowKeySchema,
  version: RowVersionSchema.optional(),
  /** Where the engine keeps no version: values as read (each edited field; for a deletion, the row), for the kernel to compare before writing. */
  expected: GridRowSchema.optional(),
  fields: Fields,
  deleted: z.boolean(),
  problem: ProblemSchema.optional()
});
/**
 * A row the user inserted, under the `id` typed, or when that is empty under `autoId`: chosen
 * when the row is made and kept with it, so a save sent again after its answer was lost (a
 * kernel restart mid-save) finds the document it created instead of creating a second one.
 */
const NewRowSchema = z.object({
  key: z.string(),
  id: z.string(),
  autoId: z.string().min(1).optional(),
  version: RowVersionSchema.optional(),
  fields: Fields,
  problem: ProblemSchema.optional()
});
export type EditedRow = z.infer<typeof EditedRowSchema>;
export type NewRow = z.infer<typeof NewRowSchema>;

/** The stored form (localStorage): what a page reload or a kernel restart must not lose. */
export const PendingStateSchema = z.object({
  v: z.literal(1),
  next: z.number().int().nonnegative(),
  edited: z.array(EditedRowSchema),
  added: z.array(NewRowSchema)
});
export type PendingState = z.infer<typeof PendingStateSchema>;

/** What a save did to one change, for the grid to show: the stored document, or why it is still pending. */
export type SaveOutcome =
  | {
      key: string;
      status: 'saved';
      kind: RowChange['kind'];
      row: RowKey;
      version?: RowVersion;
      document?: GridRow;
    }
  | { key: string; status: 'pending'; problem: Problem };

/** A document's key as the pending set files it. */
export function rowKeyString(row: RowKey): string {
  return `row:${row.index}/${row.id}`;
}

/** The id a new row is stored under: the one typed, or the one chosen for it. */
export function idOf(row: NewRow): string | undefined {
  return row.id !== '' ? row.id : row.autoId;
}

/** The values an update expects to find, for its edited fields only. */
export function expectedOf(
  row: EditedRow
): Pick<Extract<RowChange, { kind: 'update' }>, 'expected'> {
  return row.expected && !row.version
    ? { expected: fieldsIn(row.expected, row.fields) }
    : {};
}

/** What `values` holds for each of `fields`, null where it holds nothing. */
export function fieldsIn(
  values: Record<string, unknown>,
  fields: Record<string, unknown>
): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(fields).map(column => [
      column,
      ownValue(values, column) ?? null
    ])
  );
}

export function groupBy<T>(
  items: readonly T[],
  keyOf: (item: T) => string
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  }
  return groups;
}

/** Edited values in a fields record (nested records hold the fields of objects). */
export function leafCount(fields: Readonly<Record<string, unknown>>): number {
  let n = 0;
  for (const value of Object.values(fields)) {
    n +=
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? leafCount(value as Record<string, unknown>)
        : 1;
  }
  return n;
}

/** Why a change a save did not store is still pending: someone else changed the row, or the write failed. */
export function unsavedProblem(
  result: Exclude<ChangeResult, { status: 'saved' }>
): Problem {
  return result.status === 'conflict'
    ? {
        kind: 'conflict',
        message: result.message,
        current: result.current,
        ...(result.version ? { version: result.version } : {})
      }
    : { kind: 'failed', message: result.message };
}

/**
 * Without versions, what edits kept over a saved row expect to find: each value as the save
 * left it, or else as first read (a deletion expects the whole row read).
 */
export function expectedAfterSave(
  result: Extract<ChangeResult, { status: 'saved' }>,
  fields: Record<string, CellEdit>,
  deleted: boolean,
  read: Record<string, unknown> | undefined
): Record<string, unknown> {
  const columns = deleted
    ? [...new Set([...Object.keys(read ?? {}), ...Object.keys(fields)])]
    : Object.keys(fields);
  return Object.fromEntries(
    columns.map(c => [
      c,
      (result.document && ownValue(result.document, c)) ??
        (read && ownValue(read, c)) ??
        null
    ])
  );
}
