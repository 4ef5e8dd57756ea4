import { type DataModel, MutableDataModel } from '@lumino/datagrid';
import { type ISignal, Signal } from '@lumino/signaling';
import type { CellEdit, RowKey } from '@searchbook/contracts/edit-protocol';
import type { Block, Column } from '@searchbook/contracts/panel-protocol';
import type { MarkedText } from '@searchbook/contracts/search-preview';
import { cellText } from '../datagrid/cell-text';
import type { ColumnLayout } from '../datagrid/column-layout';
import { columnHeaderText } from '../datagrid/rows-model';
import {
  type FetchBlock,
  type PagedChange,
  PagedRows,
  type PagedStatus
} from './paged-rows';
import type { PendingChanges, Problem, SaveOutcome } from './pending-changes';
import { PendingOverlay } from './pending-overlay';
import {
  cellMark,
  type Mark,
  ROW_MARKS,
  type RowAt,
  rowMark
} from './row-marks';
import { ShownRows } from './shown-rows';
import { valueText } from './value-text';

export type { Mark, RowAt } from './row-marks';

/**
 * The document grid's DataModel: the rows read block by block (`PagedRows`) with the user's
 * edits laid over them (`PendingOverlay`): new rows first, edited cells showing what was typed,
 * rows to delete marked. Lumino's cell editor commits into `setData`, which records a pending
 * change instead of writing anywhere.
 */
export class EditableRowsModel extends MutableDataModel {
  /** The pending changes changed (a cell typed, a row inserted or marked, a save answered). */
  readonly pendingChanged = new Signal<this, void>(this);
  /** A save inserted or deleted documents: the target's count changed. */
  readonly documentsChanged = new Signal<this, void>(this);
  private readonly overlay: PendingOverlay;
  private readonly rows: PagedRows;
  private readonly shown: ShownRows;
  /** Header marks of the engine sort: column name → ` ▲1`. */
  private sortMarks = new Map<string, string>();

  constructor(
    columns: readonly Column[],
    total: number,
    readonly blockSize: number,
    first: Block,
    fetchBlock: FetchBlock,
    readonly pending: PendingChanges,
    readonly target: () => string
  ) {
    super();
    this.overlay = new PendingOverlay(pending);
    this.rows = new PagedRows(
      columns,
      total,
      blockSize,
      first,
      fetchBlock,
      this.overlay
    );
    this.shown = new ShownRows(this.rows, this.overlay);
    this.rows.changed.connect((_, change) => this.rowsChanged(change));
  }

  /** The columns shown, left to right (pinned ones first): column positions of the grid index this. */
  get columns(): readonly Column[] {
    return this.rows.columns;
  }

  /** Every column, hidden ones too, in the engine's order (what filters offer). */
  get allColumns(): readonly Column[] {
    return this.rows.allColumns;
  }

  /** The first this many shown columns are pinned. */
  get pinnedCount(): number {
    return this.rows.pinnedCount;
  }

  get currentStatus(): PagedStatus {
    return this.rows.currentStatus;
  }

  get statusChanged(): ISignal<PagedRows, PagedStatus> {
    return this.rows.statusChanged;
  }

  /** The documents the grid holds now: the snapshot's, less those deleted since, plus those inserted since. */
  get shownTotal(): number {
    return this.rows.shownTotal;
  }

  private get leadingRows(): number {
    return this.shown.leadingRows;
  }

  /** Shows, hides, orders and pins columns by name; cells keep their fields, only their places move. */
  setLayout(layout: ColumnLayout): void {
    this.rows.setLayout(layout);
    this.emitChanged({ type: 'model-reset' });
  }

  rowCount(region: DataModel.RowRegion): number {
    return region === 'body' ? this.shown.count : 2;
  }

  data(region: DataModel.CellRegion, row: number, column: number): string {
    switch (region) {
      case 'body': {
        const value = this.value(row, column);
        return value === undefined ? '' : cellText(value);
      }
      case 'column-header': {
        const col = this.columns[column];
        return col
          ? columnHeaderText(
              col,
              row,
              this.allColumns.some(c => c.origin === 'mapping'),
              this.sortMarks.get(col.name) ?? ''
            )
          : '';
      }
      case 'row-header':
        return this.rowHeader(row);
      case 'corner-header':
        return row === 0 ? '#' : '';
    }
  }

  columnCount(region: DataModel.ColumnRegion): number {
    return region === 'body' ? this.columns.length : 1;
  }

  private rowHeader(row: number): string {
    const at = this.rowAt(row);
    const mark = at ? rowMark(at, this.pending) : undefined;
    const number =
      at?.kind === 'new'
        ? 'new'
        : at?.kind === 'document' && at.inserted
          ? 'saved'
          : String(row - this.leadingRows + 1);
    return mark && mark !== 'saved' && mark !== 'new'
      ? `${ROW_MARKS[mark]} ${number}`
      : number;
  }

  rowAt(row: number): RowAt | undefined {
    return this.shown.rowAt(row);
  }

  /** The value shown: what the user typed over what is stored; undefined while its block is not loaded (its fetch is then asked for). */
  value(row: number, column: number): unknown {
    return this.shown.value(row, this.columns[column]?.name);
  }

  /**
   * The cell shows a stored null: the document holds the field, set to null (not an empty
   * text, not a field it lacks), and no edit of it is pending. Its blank cell is marked "null".
   */
  isStoredNull(row: number, column: number): boolean {
    return this.shown.isStoredNull(row, this.columns[column]?.name);
  }

  /** The value as stored (the whole one for a cut cell that was loaded). */
  storedValue(row: number, column: number): unknown {
    return this.shown.storedValue(row, this.columns[column]?.name);
  }

  /** The text the editor opens with: what was typed, or the stored value as text (JSON indented). */
  editText(row: number, column: number): string {
    return this.shown.editText(row, this.columns[column]);
  }

  /** Keeps a cut cell's whole value, so editing starts from it and never from the fragment. */
  setWholeValue(key: RowKey, column: string, value: unknown): void {
    this.overlay.setWholeValue(key, column, value);
  }

  hasWholeValue(key: RowKey, column: string): boolean {
    return this.overlay.hasWholeValue(key, column);
  }

  /** The cell holds a fragment of a longer array or object (cut by the kernel, so a long value never fills the grid). */
  isCut(row: number, column: number): boolean {
    return this.shown.isCut(row, this.columns[column]?.name);
  }

  /** The parts of a cell the engine matched to the view's search query, if it marked any. */
  highlight(row: number, column: number): MarkedText | undefined {
    return this.shown.highlight(row, this.columns[column]?.name);
  }

  isLoaded(row: number): boolean {
    return this.shown.isLoaded(row);
  }

  /** The rows a save's change keys belong to, for moving the cursor to a refused cell. */
  rowOfChange(key: string): number | undefined {
    return this.shown.rowOfChange(key);
  }

  /** Loads the rows `first` to `last` that are not loaded (a copy of a selection scrolled past). */
  loadRows(first: number, last: number): Promise<void> {
    return this.rows.loadRows(
      first - this.leadingRows,
      last - this.leadingRows
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
    const existing: Parameters<PendingChanges['toggleDelete']>[0][number][] =
      [];
    const fresh: string[] = [];
    for (const row of rows) {
      const at = this.rowAt(row);
      if (at?.kind === 'new') {
        fresh.push(at.key);
      } else if (at?.key && !at.deleted) {
        existing.push({
          row: at.key,
          version: at.version,
          ...(at.version ? {} : { read: this.shown.readValues(row) })
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
    const documents = this.overlay.recordOutcomes(outcomes, typed, {
      hide: key => this.rows.cache.hide(key),
      merged: (key, fields) => this.shown.merged(key, fields),
      withId: (fields, id) => this.shown.withId(fields, id)
    });
    this.pendingUpdated(true);
    if (documents) {
      this.rows.restate();
      this.documentsChanged.emit();
    }
  }

  /** "Drop my change" on a conflict: the row shows what someone else stored. */
  dropChange(key: string, problem: Problem | undefined): void {
    this.overlay.dropChange(key, problem);
    this.pendingUpdated(true);
  }

  /** Marks a cell (background) by its change and any problem with it. */
  mark(row: number, column: number): Mark | undefined {
    const at = this.rowAt(row);
    const name = this.columns[column]?.name;
    return at && name ? cellMark(at, name, this.pending) : undefined;
  }

  rowMark(row: number): Mark | 'saved' | undefined {
    const at = this.rowAt(row);
    return at ? rowMark(at, this.pending) : undefined;
  }

  /** Marks the headers of the columns the engine sorts by. */
  setSortMarks(marks: Map<string, string>): void {
    this.sortMarks = marks;
    if (this.columns.length > 0) {
      this.emitChanged({
        type: 'cells-changed',
        region: 'column-header',
        row: 0,
        column: 0,
        rowSpan: 1,
        columnSpan: this.columns.length
      });
    }
  }

  /** Starts over after a refresh: new columns, total and first block; the overlay of saved writes goes (the snapshot holds them). */
  reset(columns: readonly Column[], total: number, first: Block): void {
    this.overlay.clearSaved();
    this.rows.reset(columns, total, first);
    this.emitChanged({ type: 'model-reset' });
  }

  /** No rows until the next reset: a new view is being read, and the previous view's rows are not its rows. */
  clearRows(): void {
    this.reset(this.allColumns, 0, {
      block: 0,
      offset: 0,
      rows: [],
      cut: [],
      columns: [],
      requests: []
    });
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
    this.emitRowHeaders(0, this.rowCount('body'));
    this.pendingChanged.emit();
  }

  private emitRowHeaders(row: number, rowSpan: number): void {
    this.emitChanged({
      type: 'cells-changed',
      region: 'row-header',
      row,
      column: 0,
      rowSpan,
      columnSpan: 1
    });
  }

  private rowsChanged(change: PagedChange): void {
    if (change.type === 'reset') {
      this.emitChanged({ type: 'model-reset' });
    } else if (change.type === 'columns-inserted') {
      this.emitChanged({ ...change, region: 'body' });
    } else {
      const row = this.leadingRows + change.first;
      this.emitChanged({
        type: 'cells-changed',
        region: 'body',
        row,
        column: 0,
        rowSpan: change.count,
        columnSpan: this.columns.length
      });
      this.emitRowHeaders(row, change.count);
    }
  }
}
