import type { DataModel } from '@lumino/datagrid';
import { Signal } from '@lumino/signaling';
import type {
  CellEdit,
  RowKey,
  RowVersion
} from '@searchbook/contracts/edit-protocol';
import type { Block, Column } from '@searchbook/contracts/panel-protocol';
import { cellText } from '../datagrid/cell-text';
import { PagedRowsModel } from './paged-rows-model';
import {
  type GridRow,
  type PendingChanges,
  type Problem,
  rowKeyString,
  type SaveOutcome
} from './pending-changes';
import {
  fieldRecord,
  hasField,
  ownValue
} from '@searchbook/contracts/own-fields';
import { exactJson } from '@searchbook/contracts/exact-json';

/** What a grid row is: a new row not yet saved, a document (with where it lives, once loaded). */
export type RowAt =
  | { kind: 'new'; key: string; values: GridRow }
  | {
      kind: 'document';
      key: RowKey | undefined;
      version: RowVersion | undefined;
      values: GridRow | undefined;
      deleted: boolean;
      inserted: boolean;
    };

/** How a cell is marked, painted as its background and told in its row header. */
export type Mark =
  'changed' | 'new' | 'deleted' | 'refused' | 'conflict' | 'failed';

/** A saved write, shown until the grid reads its target again (its snapshot predates the write). */
interface SavedRow {
  document: GridRow | undefined;
  version: RowVersion | undefined;
  deleted: boolean;
}

/** A document a save inserted, shown first among the documents. */
interface SavedInsertion {
  key: RowKey;
  version: RowVersion | undefined;
  document: GridRow;
}

const ROW_MARKS: Record<Mark, string> = {
  changed: '✎',
  new: '+',
  deleted: '✕',
  refused: '!',
  conflict: '⚠',
  failed: '!'
};

/**
 * The document grid's rows with the user's pending changes laid over them: new rows first,
 * edited cells showing what was typed, rows to delete marked. Lumino's cell editor commits
 * into `setData`, which records a pending change instead of writing anywhere.
 */
export class EditableRowsModel extends PagedRowsModel {
  /** The pending changes changed (a cell typed, a row inserted or marked, a save answered). */
  readonly pendingChanged = new Signal<this, void>(this);
  /** A save inserted or deleted documents: the target's count changed. */
  readonly documentsChanged = new Signal<this, void>(this);
  private saved = new Map<string, SavedRow>();
  private insertedRows: SavedInsertion[] = [];
  /** Whole values of cut cells, loaded before editing them. */
  private readonly whole = new Map<string, unknown>();

  constructor(
    columns: readonly Column[],
    total: number,
    blockSize: number,
    first: Block,
    fetchBlock: (block: number) => Promise<{ block: Block; total: number }>,
    readonly pending: PendingChanges,
    private readonly target: () => string
  ) {
    super(columns, total, blockSize, first, fetchBlock);
  }

  protected override get leadingRows(): number {
    return this.pending.newRows.length + this.insertedRows.length;
  }

  protected override get addedDocuments(): number {
    // Asked by the base constructor too, before this class's fields exist.
    return (this.insertedRows as SavedInsertion[] | undefined)?.length ?? 0;
  }

  protected override forgetAddedDocuments(): void {
    this.insertedRows = [];
  }

  rowAt(row: number): RowAt | undefined {
    const fresh = this.pending.newRows[row];
    if (fresh) {
      const id = this.idColumn();
      return {
        kind: 'new',
        key: fresh.key,
        values: { ...fresh.fields, ...(id ? { [id]: fresh.id } : {}) }
      };
    }
    const inserted = this.insertedRows[row - this.pending.newRows.length];
    if (inserted) {
      const saved = this.saved.get(rowKeyString(inserted.key));
      return {
        kind: 'document',
        key: inserted.key,
        version: saved?.version ?? inserted.version,
        values: saved?.document ?? inserted.document,
        deleted: saved?.deleted ?? false,
        inserted: true
      };
    }
    const shown = row - this.leadingRows;
    if (shown < 0 || shown >= this.rowCount('body') - this.leadingRows) {
      return undefined;
    }
    const docRow = this.docRowAt(shown);
    const values = this.documentRow(docRow);
    const { key, version } = this.documentKey(docRow);
    const saved = key ? this.saved.get(rowKeyString(key)) : undefined;
    return {
      kind: 'document',
      key,
      version: saved ? saved.version : version,
      values: saved?.document ?? values,
      deleted: saved?.deleted ?? false,
      inserted: false
    };
  }

  /** The value shown: what the user typed over what is stored. */
  override value(row: number, column: number): unknown {
    const name = this.columns[column]?.name;
    const at = this.rowAt(row);
    if (name === undefined || !at?.values) {
      return undefined;
    }
    if (at.kind === 'document' && at.key) {
      const typed = this.pending.fieldOf(at.key, name);
      if (typed !== undefined) {
        return typed;
      }
      const whole = this.whole.get(wholeKey(at.key, name));
      if (whole !== undefined) {
        return whole;
      }
    }
    return ownValue(at.values, name) ?? null;
  }

  /**
   * The cell shows a stored null: the document holds the field, set to null (not an empty
   * text, not a field it lacks), and no edit of it is pending. Its blank cell is marked "null".
   */
  isStoredNull(row: number, column: number): boolean {
    const name = this.columns[column]?.name;
    const at = this.rowAt(row);
    if (name === undefined || at?.kind !== 'document' || !at.values) {
      return false;
    }
    if (at.key && this.pending.fieldOf(at.key, name) !== undefined) {
      return false;
    }
    return hasField(at.values, name) && ownValue(at.values, name) === null;
  }

  /** A row's stored values by column (hidden ones too), less the cells shown cut (their fragment is not what is stored). */
  private readValues(row: number): Record<string, unknown> {
    const read: Record<string, unknown> = fieldRecord();
    for (const col of this.allColumns) {
      if (!this.isCutField(row, col.name)) {
        read[col.name] = this.storedField(row, col.name);
      }
    }
    return read;
  }

  /** The value as stored (the whole one for a cut cell that was loaded). */
  storedValue(row: number, column: number): unknown {
    return this.storedField(row, this.columns[column]?.name);
  }

  private storedField(row: number, name: string | undefined): unknown {
    const at = this.rowAt(row);
    if (name === undefined || !at?.values || at.kind === 'new') {
      return null;
    }
    if (at.key) {
      const whole = this.whole.get(wholeKey(at.key, name));
      if (whole !== undefined) {
        return whole;
      }
    }
    return ownValue(at.values, name) ?? null;
  }

  /** The text the editor opens with: what was typed, or the stored value as text (JSON indented). */
  editText(row: number, column: number): string {
    const col = this.columns[column];
    const at = this.rowAt(row);
    if (!col || !at) {
      return '';
    }
    if (at.kind === 'new') {
      const typed = ownValue(at.values, col.name);
      return typeof typed === 'string' ? typed : '';
    }
    const typed = at.key ? this.pending.fieldOf(at.key, col.name) : undefined;
    if (typed !== undefined) {
      return typed ?? '';
    }
    return valueText(this.storedValue(row, column), col.json) ?? '';
  }

  /** Keeps a cut cell's whole value, so editing starts from it and never from the fragment. */
  setWholeValue(key: RowKey, column: string, value: unknown): void {
    this.whole.set(wholeKey(key, column), value);
  }

  hasWholeValue(key: RowKey, column: string): boolean {
    return this.whole.has(wholeKey(key, column));
  }

  override isCut(row: number, column: number): boolean {
    return this.isCutField(row, this.columns[column]?.name);
  }

  protected override isCutField(
    row: number,
    name: string | undefined
  ): boolean {
    const at = this.rowAt(row);
    if (at?.kind !== 'document' || at.inserted || !name || !at.key) {
      return false;
    }
    return (
      !this.whole.has(wholeKey(at.key, name)) && super.isCutField(row, name)
    );
  }

  /** The cell editor's commit: the text as typed (the kernel types it; an emptied number or date cell stores null). */
  override setData(
    region: DataModel.CellRegion,
    row: number,
    column: number,
    value: unknown
  ): boolean {
    const col = this.columns[column];
    const at = this.rowAt(row);
    if (region !== 'body' || !col || !at) {
      return false;
    }
    const text = typeof value === 'string' ? value : '';
    if (at.kind === 'new') {
      this.pending.editNew(at.key, col.name, text, col.primaryKey === true);
    } else if (at.key) {
      const stored = this.storedValue(row, column);
      this.pending.edit(
        at.key,
        at.version,
        col.name,
        text,
        valueText(stored, col.json) ?? '',
        stored
      );
    } else {
      return false;
    }
    this.pendingUpdated(false);
    return true;
  }

  insertRow(): void {
    this.pending.insert();
    this.pendingUpdated(true);
  }

  /** Marks the rows for deletion (or takes the mark back); new rows go. */
  deleteRows(rows: readonly number[]): void {
    const existing: Array<{
      row: RowKey;
      version: RowVersion | undefined;
      read?: Record<string, unknown>;
    }> = [];
    const fresh: string[] = [];
    for (const row of rows) {
      const at = this.rowAt(row);
      if (at?.kind === 'new') {
        fresh.push(at.key);
      } else if (at?.key && !at.deleted) {
        existing.push({
          row: at.key,
          version: at.version,
          ...(at.version ? {} : { read: this.readValues(row) })
        });
      }
    }
    this.pending.toggleDelete(existing, fresh);
    this.pendingUpdated(fresh.length > 0);
  }

  discard(): void {
    this.pending.discard();
    this.pendingUpdated(true);
  }

  /** After a save: saved rows show what is stored now, marks cleared; the others keep theirs. */
  showOutcomes(
    outcomes: readonly SaveOutcome[],
    typed: ReadonlyMap<string, Record<string, CellEdit>>
  ): void {
    let documents = false;
    for (const outcome of outcomes) {
      if (outcome.status !== 'saved') {
        continue;
      }
      const key = rowKeyString(outcome.row);
      if (outcome.kind === 'insert') {
        documents = true;
        this.insertedRows.unshift({
          key: outcome.row,
          version: outcome.version,
          document: outcome.document ?? {
            ...this.withId(typed.get(outcome.key) ?? {}, outcome.row.id)
          }
        });
      } else if (outcome.kind === 'delete') {
        documents = true;
        // A deleted document leaves the grid; only one whose block was dropped from memory stays, marked, until the next read.
        const inserted = this.insertedRows.findIndex(
          r => rowKeyString(r.key) === key
        );
        if (inserted >= 0) {
          this.insertedRows.splice(inserted, 1);
        } else if (!this.hideDocument(outcome.row)) {
          this.saved.set(key, {
            document: this.saved.get(key)?.document,
            version: undefined,
            deleted: true
          });
        }
      } else {
        this.saved.set(key, {
          document:
            outcome.document ??
            this.merged(outcome.row, typed.get(outcome.key) ?? {}),
          version: outcome.version,
          deleted: false
        });
      }
    }
    this.pendingUpdated(true);
    if (documents) {
      this.restate();
      this.documentsChanged.emit();
    }
  }

  /** "Drop my change" on a conflict: the row shows what someone else stored. */
  dropChange(key: string, problem: Problem | undefined): void {
    const entry = this.pending.editedRows.find(r => r.key === key);
    this.pending.remove(key);
    if (entry && problem?.kind === 'conflict') {
      this.saved.set(key, {
        document: problem.current ?? undefined,
        version: problem.version,
        deleted: problem.current === null
      });
    }
    this.pendingUpdated(true);
  }

  /** Marks a cell (background) by its change and any problem with it. */
  mark(row: number, column: number): Mark | undefined {
    const at = this.rowAt(row);
    const name = this.columns[column]?.name;
    if (!at || !name) {
      return undefined;
    }
    if (at.kind === 'new') {
      const problem = this.pending.problemOf(at.key);
      return problem ? (problemMark(problem, name) ?? 'new') : 'new';
    }
    if (!at.key) {
      return undefined;
    }
    const entry = this.pending.rowOf(at.key);
    if (at.deleted) {
      return 'deleted';
    }
    if (!entry) {
      return undefined;
    }
    const problem = entry.problem
      ? problemMark(entry.problem, name)
      : undefined;
    if (entry.deleted) {
      return problem ?? 'deleted';
    }
    if (!hasField(entry.fields, name)) {
      return undefined;
    }
    return problem ?? 'changed';
  }

  rowMark(row: number): Mark | 'saved' | undefined {
    const at = this.rowAt(row);
    if (!at) {
      return undefined;
    }
    if (at.kind === 'new') {
      const problem = this.pending.problemOf(at.key);
      return problem ? problem.kind : 'new';
    }
    if (at.deleted) {
      return 'deleted';
    }
    const entry = at.key ? this.pending.rowOf(at.key) : undefined;
    if (!entry) {
      return at.inserted ? 'saved' : undefined;
    }
    return entry.problem?.kind ?? (entry.deleted ? 'deleted' : 'changed');
  }

  override data(
    region: DataModel.CellRegion,
    row: number,
    column: number
  ): string {
    if (region !== 'row-header') {
      return super.data(region, row, column);
    }
    const mark = this.rowMark(row);
    const at = this.rowAt(row);
    const number =
      at?.kind === 'new'
        ? 'new'
        : at?.kind === 'document' && at.inserted
          ? 'saved'
          : super.data(region, row, column);
    return mark && mark !== 'saved' && mark !== 'new'
      ? `${ROW_MARKS[mark]} ${number}`
      : number;
  }

  protected override leadingData(row: number, column: number): string {
    const value = this.value(row, column);
    return value === undefined ? '' : cellText(value);
  }

  /** A refresh reads a new snapshot, which holds the saved writes: the overlay of them goes. */
  override reset(
    columns: readonly Column[],
    total: number,
    first: Block
  ): void {
    this.saved = new Map();
    this.insertedRows = [];
    super.reset(columns, total, first);
  }

  /** The rows a save's change keys belong to, for moving the cursor to a refused cell. */
  rowOfChange(key: string): number | undefined {
    const fresh = this.pending.newRows.findIndex(r => r.key === key);
    if (fresh >= 0) {
      return fresh;
    }
    for (
      let row = this.pending.newRows.length;
      row < this.rowCount('body');
      row++
    ) {
      if (!this.isLoaded(row)) {
        continue;
      }
      const at = this.rowAt(row);
      if (at?.kind === 'document' && at.key && rowKeyString(at.key) === key) {
        return row;
      }
      if (row > this.leadingRows + 20_000) {
        break;
      }
    }
    return undefined;
  }

  private idColumn(): string | undefined {
    return this.allColumns.find(c => c.primaryKey)?.name;
  }

  private withId(fields: Record<string, CellEdit>, id: string): GridRow {
    const idColumn = this.idColumn();
    return { ...fields, ...(idColumn ? { [idColumn]: id } : {}) };
  }

  private merged(key: RowKey, fields: Record<string, CellEdit>): GridRow {
    for (let row = this.leadingRows; row < this.rowCount('body'); row++) {
      if (!this.isLoaded(row)) {
        continue;
      }
      const at = this.rowAt(row);
      if (
        at?.kind === 'document' &&
        at.key &&
        rowKeyString(at.key) === rowKeyString(key)
      ) {
        return { ...(at.values ?? {}), ...fields };
      }
    }
    return { ...fields };
  }

  /** Repaints the marks and tells listeners (the toolbar's count, the stored copy). */
  pendingUpdated(structure: boolean): void {
    if (structure) {
      this.emitChanged({ type: 'model-reset' });
    } else {
      this.emitChanged({
        type: 'cells-changed',
        region: 'body',
        row: 0,
        column: 0,
        rowSpan: this.rowCount('body'),
        columnSpan: this.columns.length
      });
    }
    this.emitChanged({
      type: 'cells-changed',
      region: 'row-header',
      row: 0,
      column: 0,
      rowSpan: this.rowCount('body'),
      columnSpan: 1
    });
    this.pendingChanged.emit();
  }
}

function wholeKey(key: RowKey, column: string): string {
  return `${rowKeyString(key)}\u0000${column}`;
}

/** A stored value as the text a user edits; null for null (an empty cell). */
export function valueText(value: unknown, json: boolean): CellEdit {
  if (value === null || value === undefined) {
    return null;
  }
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  return exactJson(value, json ? 2 : undefined);
}

function problemMark(problem: Problem, column: string): Mark | undefined {
  if (problem.kind !== 'refused') {
    return problem.kind;
  }
  return problem.refusals.some(
    r => r.column === undefined || r.column === column
  )
    ? 'refused'
    : undefined;
}
