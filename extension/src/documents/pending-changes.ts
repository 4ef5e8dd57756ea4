import type {
  CellEdit,
  ChangeResult,
  EditRefusal,
  RowChange,
  RowKey,
  RowVersion
} from '@searchbook/contracts/edit-protocol';
import { hasField, ownValue, setField } from '@searchbook/contracts/own-fields';
import { randomDocumentId } from './document-id';
import {
  type EditedRow,
  expectedAfterSave,
  expectedOf,
  fieldsIn,
  groupBy,
  idOf,
  leafCount,
  type NewRow,
  type PendingState,
  type Problem,
  rowKeyString,
  type SaveOutcome,
  unsavedProblem
} from './pending-state';

export {
  type EditedRow,
  type GridRow,
  type NewRow,
  type PendingState,
  PendingStateSchema,
  type Problem,
  ProblemSchema,
  rowKeyString,
  type SaveOutcome
} from './pending-state';

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
    const entry = this.entryOf(row, version);
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
      const entry = this.entryOf(row, version);
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
      const problem = unsavedProblem(result);
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
    const expected = result.version
      ? undefined
      : expectedAfterSave(result, fields, deleted, read);
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

  /** The row's pending entry, or a new one (not stored until it holds a change). */
  private entryOf(row: RowKey, version: RowVersion | undefined): EditedRow {
    const key = rowKeyString(row);
    return (
      this.edited.get(key) ?? {
        key,
        row,
        ...(version ? { version } : {}),
        fields: {},
        deleted: false
      }
    );
  }

  private store(entry: EditedRow): void {
    if (!entry.deleted && Object.keys(entry.fields).length === 0) {
      this.edited.delete(entry.key);
    } else {
      this.edited.set(entry.key, entry);
    }
  }
}
