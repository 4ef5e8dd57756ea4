import { z } from 'zod';
import {
  type CellEdit,
  CellEditSchema,
  type ChangeResult,
  type EditRefusal,
  type RowChange,
  type RowKey,
  RowKeySchema,
  type RowVersion,
  RowVersionSchema
} from '@searchbook/contracts/edit-protocol';
import { GridRowSchema } from '@searchbook/contracts/mime-types';
import { randomDocumentId } from './document-id';
import {
  fieldsRecord,
  hasField,
  ownValue,
  setField
} from '@searchbook/contracts/own-fields';

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

function rowKeyString(row: RowKey): string {
  return `row:${row.index}/${row.id}`;
}

/**
 * The user's pending changes to one grid's index or collection: edited cells by row key, new
 * rows, rows marked for deletion. Pure logic: nothing here sends or paints. A change leaves only
 * when a save reports it saved, or the user drops or discards it.
 */
export class PendingChanges {
  private readonly edited = new Map<string, EditedRow>();
  private added: NewRow[] = [];
  private next = 1;

  constructor(state?: PendingState) {
    if (state) {
      this.replace(state);
    }
  }

  /** Takes the set as stored (another page changed it): what this grid shows from now on. */
  replace(state: PendingState): void {
    this.edited.clear();
    for (const row of state.edited) {
      this.edited.set(row.key, row);
    }
    // Rows stored before ids were chosen here get theirs now.
    this.added = state.added.map(row => ({
      ...row,
      autoId: row.autoId ?? randomDocumentId()
    }));
    this.next = state.next;
  }

  /** Changes a save would send: one per edited, inserted or deleted row. */
  get count(): number {
    let n = this.added.length;
    for (const row of this.edited.values()) {
      if (row.deleted || Object.keys(row.fields).length > 0) {
        n++;
      }
    }
    return n;
  }

  /**
   * What the user did, one by one: every edited value, every deletion mark, every new row. A
   * row with two edited cells is one change a save sends but two edits Discard would drop.
   */
  get editCount(): number {
    let n = this.added.length;
    for (const row of this.edited.values()) {
      n += leafCount(row.fields) + (row.deleted ? 1 : 0);
    }
    return n;
  }

  get newRows(): readonly NewRow[] {
    return this.added;
  }

  get editedRows(): readonly EditedRow[] {
    return [...this.edited.values()];
  }

  state(): PendingState {
    return {
      v: 1,
      next: this.next,
      edited: [...this.edited.values()],
      added: this.added
    };
  }

  /**
   * A cell of an existing row as the user left it; `original` is the stored value's text, so
   * typing it back undoes the edit, and `stored` the value itself: without a version, the one
   * the save expects to find.
   */
  edit(
    row: RowKey,
    version: RowVersion | undefined,
    column: string,
    text: CellEdit,
    original: CellEdit,
    stored: unknown
  ): void {
    const key = rowKeyString(row);
    const entry = this.edited.get(key) ?? {
      key,
      row,
      ...(version ? { version } : {}),
      fields: {},
      deleted: false
    };
    if (text === original) {
      delete entry.fields[column];
      delete entry.expected?.[column];
    } else {
      // The value first read stays expected: it is what the user's edit was made against.
      if (!entry.version && !hasField(entry.fields, column)) {
        entry.expected = { ...entry.expected, [column]: stored };
      }
      setField(entry.fields, column, text);
    }
    delete entry.problem;
    this.store(entry);
  }

  /** A cell of a new row; the identifier column sets the id the document is stored under. */
  editNew(key: string, column: string, text: CellEdit, isId: boolean): void {
    const row = this.added.find(r => r.key === key);
    if (!row) {
      return;
    }
    if (isId) {
      row.id = text ?? '';
    } else if (text === null || text === '') {
      delete row.fields[column];
    } else {
      setField(row.fields, column, text);
    }
    delete row.problem;
  }

  /** A new empty row, first among the new rows; its key. */
  insert(): string {
    // Unique across pages too: two pages inserting at once must not share a key.
    const key = `new:${this.next++}-${randomDocumentId().slice(0, 6)}`;
    this.added.unshift({ key, id: '', autoId: randomDocumentId(), fields: {} });
    return key;
  }

  /**
   * Marks existing rows for deletion, or takes the mark back when every one of them has it; new
   * rows are simply removed. `read`: a row's values as read (cut cells left out), expected by
   * the deletion where there is no version.
   */
  toggleDelete(
    rows: ReadonlyArray<{
      row: RowKey;
      version: RowVersion | undefined;
      read?: Record<string, unknown>;
    }>,
    newKeys: readonly string[] = []
  ): void {
    this.added = this.added.filter(r => !newKeys.includes(r.key));
    const all =
      rows.length > 0 &&
      rows.every(
        ({ row }) => this.edited.get(rowKeyString(row))?.deleted === true
      );
    for (const { row, version, read } of rows) {
      const key = rowKeyString(row);
      const entry = this.edited.get(key) ?? {
        key,
        row,
        ...(version ? { version } : {}),
        fields: {},
        deleted: false
      };
      entry.deleted = !all;
      // Values first read stay expected, as for edits.
      if (entry.deleted && !entry.version && read) {
        entry.expected = { ...read, ...entry.expected };
      }
      delete entry.problem;
      this.store(entry);
    }
  }

  fieldOf(row: RowKey, column: string): CellEdit | undefined {
    const fields = this.edited.get(rowKeyString(row))?.fields;
    return fields && ownValue(fields, column);
  }

  rowOf(row: RowKey): EditedRow | undefined {
    return this.edited.get(rowKeyString(row));
  }

  newRow(key: string): NewRow | undefined {
    return this.added.find(r => r.key === key);
  }

  /** The changes to send, all of them or those named; new rows go into `target`. */
  changes(target: string, only?: readonly string[]): RowChange[] {
    const out: RowChange[] = [];
    for (const row of this.added) {
      if (only && !only.includes(row.key)) {
        continue;
      }
      const id = idOf(row);
      out.push({
        kind: 'insert',
        key: row.key,
        index: target,
        ...(id ? { id } : {}),
        ...(row.version ? { version: row.version } : {}),
        fields: { ...row.fields }
      });
    }
    for (const row of this.edited.values()) {
      if (only && !only.includes(row.key)) {
        continue;
      }
      const version = row.version ? { version: row.version } : {};
      if (row.deleted) {
        out.push({
          kind: 'delete',
          key: row.key,
          row: row.row,
          ...version,
          ...(row.expected && !row.version
            ? { expected: { ...row.expected } }
            : {})
        });
      } else if (Object.keys(row.fields).length > 0) {
        out.push({
          kind: 'update',
          key: row.key,
          row: row.row,
          ...version,
          ...expectedOf(row),
          fields: { ...row.fields }
        });
      }
    }
    return out;
  }

  /** Refused values: nothing was sent; each change keeps its place, marked with why. */
  refuse(refusals: readonly EditRefusal[]): void {
    for (const [key, list] of groupBy(refusals, r => r.key)) {
      this.setProblem(key, {
        kind: 'refused',
        refusals: list.map(({ key: _key, ...rest }) => rest)
      });
    }
  }

  /**
   * Applies a save's answers: saved changes leave, the others stay with their problem. `sent`:
   * the changes as the save sent them; a value typed into a saved row after they were sent
   * (on this page, or on another one and taken in through storage) stays pending.
   */
  settle(
    results: readonly ChangeResult[],
    sent: readonly RowChange[] = []
  ): SaveOutcome[] {
    return results.map((result): SaveOutcome => {
      if (result.status === 'saved') {
        const change = sent.find(c => c.key === result.key);
        const kind = change?.kind ?? this.kindOf(result.key);
        const since = change ? this.typedSince(change) : {};
        // A row marked for deletion while its update was on its way: the mark stays.
        const deleted =
          change?.kind === 'update' &&
          this.edited.get(result.key)?.deleted === true;
        const read = this.edited.get(result.key)?.expected;
        this.remove(result.key);
        if (Object.keys(since).length > 0 || deleted) {
          this.keepOverSaved(result, since, deleted, read);
        }
        return {
          key: result.key,
          status: 'saved',
          kind,
          row: result.row,
          ...(result.version ? { version: result.version } : {}),
          ...(result.document ? { document: result.document } : {})
        };
      }
      const problem: Problem =
        result.status === 'conflict'
          ? {
              kind: 'conflict',
              message: result.message,
              current: result.current,
              ...(result.version ? { version: result.version } : {})
            }
          : { kind: 'failed', message: result.message };
      this.setProblem(result.key, problem);
      return { key: result.key, status: 'pending', problem };
    });
  }

  /**
   * "Overwrite": the change is sent again with the version of the write it collided with. A new
   * row whose id was taken replaces that document: with its version where the engine keeps
   * versions, otherwise as an update of that document (Typesense). The key to send, or undefined.
   */
  overwrite(key: string, target: string): string | undefined {
    const entry = this.edited.get(key);
    if (entry?.problem?.kind === 'conflict') {
      const { version, current } = entry.problem;
      if (version) {
        entry.version = version;
      } else {
        delete entry.version;
      }
      // Without versions, yours goes over what was stored when the conflict was seen, and a third write meanwhile is still caught.
      if (entry.expected && current) {
        entry.expected = fieldsIn(
          current,
          entry.deleted ? entry.expected : entry.fields
        );
      }
      delete entry.problem;
      return key;
    }
    const fresh = this.added.find(r => r.key === key);
    const id = fresh && idOf(fresh);
    if (fresh?.problem?.kind !== 'conflict' || !id) {
      return undefined;
    }
    if (fresh.problem.version) {
      fresh.version = fresh.problem.version;
      delete fresh.problem;
      return key;
    }
    const { current } = fresh.problem;
    this.remove(key);
    const row = { index: target, id };
    const expected = current
      ? { expected: fieldsIn(current, fresh.fields) }
      : {};
    const replaced: EditedRow = {
      key: rowKeyString(row),
      row,
      ...expected,
      fields: { ...fresh.fields },
      deleted: false
    };
    this.edited.set(replaced.key, replaced);
    return replaced.key;
  }

  /** "Drop my change", or a new row's removal: the change is gone. */
  remove(key: string): void {
    this.edited.delete(key);
    this.added = this.added.filter(r => r.key !== key);
  }

  discard(): void {
    this.edited.clear();
    this.added = [];
  }

  problemOf(key: string): Problem | undefined {
    return (
      this.edited.get(key)?.problem ??
      this.added.find(r => r.key === key)?.problem
    );
  }

  /** The fields of a change whose text differs from what `change` sent: typed while it was on its way. */
  private typedSince(change: RowChange): Record<string, CellEdit> {
    if (change.kind === 'delete') {
      return {};
    }
    const now =
      change.kind === 'insert'
        ? this.added.find(r => r.key === change.key)?.fields
        : this.edited.get(change.key)?.fields;
    const since: Record<string, CellEdit> = {};
    for (const [column, text] of Object.entries(now ?? {})) {
      if (ownValue(change.fields, column) !== text) {
        setField(since, column, text);
      }
    }
    return since;
  }

  /** Edits typed (or a deletion marked) after a change was sent, pending over the document its save stored. */
  private keepOverSaved(
    result: Extract<ChangeResult, { status: 'saved' }>,
    fields: Record<string, CellEdit>,
    deleted: boolean,
    read: Record<string, unknown> | undefined
  ): void {
    const key = rowKeyString(result.row);
    // Without versions: each value expected as the save left it, or else as first read.
    const columns = deleted
      ? [...new Set([...Object.keys(read ?? {}), ...Object.keys(fields)])]
      : Object.keys(fields);
    const expected = result.version
      ? undefined
      : Object.fromEntries(
          columns.map(c => [
            c,
            (result.document && ownValue(result.document, c)) ??
              (read && ownValue(read, c)) ??
              null
          ])
        );
    this.edited.set(key, {
      key,
      row: result.row,
      ...(result.version ? { version: result.version } : {}),
      ...(expected ? { expected } : {}),
      fields,
      deleted
    });
  }

  private kindOf(key: string): RowChange['kind'] {
    const entry = this.edited.get(key);
    if (!entry) {
      return 'insert';
    }
    return entry.deleted ? 'delete' : 'update';
  }

  private setProblem(key: string, problem: Problem): void {
    const target = this.edited.get(key) ?? this.added.find(r => r.key === key);
    if (target) {
      target.problem = problem;
    }
  }

  private store(entry: EditedRow): void {
    if (!entry.deleted && Object.keys(entry.fields).length === 0) {
      this.edited.delete(entry.key);
    } else {
      this.edited.set(entry.key, entry);
    }
  }
}

/** The id a new row is stored under: the one typed, or the one chosen for it. */
function idOf(row: NewRow): string | undefined {
  return row.id !== '' ? row.id : row.autoId;
}

/** The values an update expects to find, for its edited fields only. */
function expectedOf(
  row: EditedRow
): Pick<Extract<RowChange, { kind: 'update' }>, 'expected'> {
  return row.expected && !row.version
    ? { expected: fieldsIn(row.expected, row.fields) }
    : {};
}

/** What `values` holds for each of `fields`, null where it holds nothing. */
function fieldsIn(
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

function groupBy<T>(
  items: readonly T[],
  keyOf: (item: T) => string
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  }
  return groups;
}

export { rowKeyString };

/** Edited values in a fields record (nested records hold the fields of objects). */
function leafCount(fields: Readonly<Record<string, unknown>>): number {
  let n = 0;
  for (const value of Object.values(fields)) {
    n +=
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? leafCount(value as Record<string, unknown>)
        : 1;
  }
  return n;
}
