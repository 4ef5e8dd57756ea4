import { type DataModel, MutableDataModel } from '@lumino/datagrid';
import { Signal } from '@lumino/signaling';
import type {
  Block,
  Column,
  SentRequest
} from '@searchbook/contracts/panel-protocol';
import type { RowKey, RowVersion } from '@searchbook/contracts/edit-protocol';
import type { MarkedText } from '@searchbook/contracts/search-preview';
import { cellText } from '../datagrid/cell-text';
import { columnHeaderText } from '../datagrid/rows-model';
import { ownValue } from '@searchbook/contracts/own-fields';
import { arrangeColumns, type ColumnLayout } from '../datagrid/column-layout';

/** Blocks fetched at once: more would only fetch rows the user already scrolled past. */
const IN_FLIGHT = 2;
/** Blocks kept in memory; the least recently painted are dropped (and fetched again if needed). */
const KEPT_BLOCKS = 200;

export interface PagedStatus {
  loadedRows: number;
  total: number;
  last?: SentRequest & { requests: number };
  error?: string;
  /** Rows being fetched (numbered from 1 as the grid shows them), while they are. */
  loading?: { first: number; last: number };
}

/**
 * A document grid's rows, fetched block by block as the viewport needs them, the way
 * JupyterLab's CSV viewer model fills itself: `data()` answers what is loaded, asks for the
 * block it lacks, and `changed` repaints the cells when the block arrives. The newest request
 * goes first, so a scrollbar drag fetches where it stops, not every block on the way.
 */
export class PagedRowsModel extends MutableDataModel {
  readonly statusChanged = new Signal<this, PagedStatus>(this);
  /** Every column, in the engine's order. */
  private columnList: Column[];
  /** The columns shown, in the user's layout: what grid positions address. */
  private shownList: Column[] = [];
  private pinned = 0;
  private layout: ColumnLayout | undefined;
  private readonly blocks = new Map<number, Block>();
  private readonly queued: number[] = [];
  private readonly inFlight = new Set<number>();
  private readonly failed = new Set<number>();
  private status: PagedStatus;
  private generation = 0;
  /** Header marks of the engine sort: column name → ` ▲1`. */
  private sortMarks = new Map<string, string>();
  /** Places (in the snapshot read) of documents deleted since, ascending: the grid shows the others. */
  private hidden: number[] = [];
  /** The first block when it came with only the rows of the first screen: it is read whole next. */
  private partialBlock: number | undefined;

  constructor(
    columns: readonly Column[],
    private total: number,
    readonly blockSize: number,
    first: Block,
    private readonly fetchBlock: (
      block: number
    ) => Promise<{ block: Block; total: number }>
  ) {
    super();
    this.columnList = [...columns];
    this.arrange();
    this.status = { loadedRows: 0, total };
    this.storeFirst(first);
  }

  /** The columns shown, left to right (pinned ones first): column positions of the grid index this. */
  get columns(): readonly Column[] {
    return this.shownList;
  }

  /** Every column, hidden ones too, in the engine's order (what filters offer). */
  get allColumns(): readonly Column[] {
    return this.columnList;
  }

  /** The first this many shown columns are pinned. */
  get pinnedCount(): number {
    return this.pinned;
  }

  /** Shows, hides, orders and pins columns by name; cells keep their fields, only their places move. */
  setLayout(layout: ColumnLayout): void {
    this.layout = layout;
    this.arrange();
    this.emitChanged({ type: 'model-reset' });
  }

  private arrange(): void {
    const arranged = this.layout
      ? arrangeColumns(this.columnList, this.layout)
      : { shown: [...this.columnList], pinnedCount: 0 };
    this.shownList = arranged.shown;
    this.pinned = arranged.pinnedCount;
  }

  get currentStatus(): PagedStatus {
    return this.status;
  }

  rowCount(region: DataModel.RowRegion): number {
    return region === 'body'
      ? this.leadingRows + this.total - this.hidden.length
      : 2;
  }

  /** Documents saved into the target since it was read, shown besides the snapshot (an editable grid's saved insertions); 0 here. */
  protected get addedDocuments(): number {
    return 0;
  }

  /** The target was read anew and its rows hold the documents saved into it since: they are no longer shown apart. */
  protected forgetAddedDocuments(): void {}

  /** The documents the grid holds now: the snapshot's, less those deleted since, plus those inserted since. */
  get shownTotal(): number {
    return this.total - this.hidden.length + this.addedDocuments;
  }

  /** A document's place in the snapshot read, from its place among the documents shown. */
  protected docRowAt(shown: number): number {
    let docRow = shown;
    for (const h of this.hidden) {
      if (h <= docRow) {
        docRow++;
      } else {
        break;
      }
    }
    return docRow;
  }

  /** A document's place among those shown, from its place in the snapshot. */
  private shownAt(docRow: number): number {
    return docRow - this.hidden.filter(h => h < docRow).length;
  }

  /**
   * A document deleted since the snapshot was read leaves the grid at once (the snapshot still
   * holds it); false when its block is no longer in memory.
   */
  protected hideDocument(key: RowKey): boolean {
    for (const block of this.blocks.values()) {
      const at =
        block.keys?.findIndex(k => k.index === key.index && k.id === key.id) ??
        -1;
      if (at < 0) {
        continue;
      }
      const docRow = block.offset + at;
      if (!this.hidden.includes(docRow)) {
        this.hidden = [...this.hidden, docRow].sort((a, b) => a - b);
      }
      return true;
    }
    return false;
  }

  /** The status again, after the documents shown changed without a read. */
  protected restate(): void {
    this.setStatus({
      ...this.status,
      loadedRows: this.loadedCount(),
      total: this.shownTotal
    });
  }

  /**
   * Rows in memory as the status counts them: those read, less those deleted since (a deleted
   * document stays in its block), plus those saved into the target since (shown too), so the
   * status never says "3 of 2 rows loaded" after a delete nor "1 of 2" after a saved new row.
   */
  private loadedCount(): number {
    let rows = this.addedDocuments;
    for (const block of this.blocks.values()) {
      const end = block.offset + block.rows.length;
      rows +=
        block.rows.length -
        this.hidden.filter(h => h >= block.offset && h < end).length;
    }
    return Math.max(0, Math.min(this.shownTotal, rows));
  }

  /** Rows shown before the documents (an editable grid's new rows); 0 here. */
  protected get leadingRows(): number {
    return 0;
  }

  /** A leading row's cell text. */
  protected leadingData(_row: number, _column: number): string {
    return '';
  }

  /** Read-only here: an editable grid takes edits. */
  setData(
    _region: DataModel.CellRegion,
    _row: number,
    _column: number,
    _value: unknown
  ): boolean {
    return false;
  }

  columnCount(region: DataModel.ColumnRegion): number {
    return region === 'body' ? this.shownList.length : 1;
  }

  data(region: DataModel.CellRegion, row: number, column: number): string {
    switch (region) {
      case 'body': {
        if (row < this.leadingRows) {
          return this.leadingData(row, column);
        }
        const value = this.value(row, column);
        return value === undefined ? '' : cellText(value);
      }
      case 'column-header': {
        const col = this.shownList[column];
        return col
          ? columnHeaderText(
              col,
              row,
              this.columnList.some(c => c.origin === 'mapping'),
              this.sortMarks.get(col.name) ?? ''
            )
          : '';
      }
      case 'row-header':
        return String(row - this.leadingRows + 1);
      case 'corner-header':
        return row === 0 ? '#' : '';
    }
  }

  /** The value of a cell, or undefined while its block is not loaded (its fetch is then asked for). */
  value(row: number, column: number): unknown {
    const name = this.shownList[column]?.name;
    const values = this.documentRow(this.docRowAt(row - this.leadingRows));
    return name === undefined || values === undefined
      ? undefined
      : (ownValue(values, name) ?? null);
  }

  /** A document's row (by its place among the documents), or undefined while its block is not loaded (its fetch is then asked for). */
  protected documentRow(docRow: number): Block['rows'][number] | undefined {
    const index = Math.floor(docRow / this.blockSize);
    const block = this.blocks.get(index);
    if (!block || !this.holds(docRow)) {
      this.want(index);
      return undefined;
    }
    // Painted: keep it among the most recently used.
    this.blocks.delete(index);
    this.blocks.set(index, block);
    return block.rows[docRow - block.offset];
  }

  /** Where a loaded document lives and its version as read (what edits are addressed to). */
  protected documentKey(docRow: number): {
    key: RowKey | undefined;
    version: RowVersion | undefined;
  } {
    const block = this.blocks.get(Math.floor(docRow / this.blockSize));
    const at = block ? docRow - block.offset : -1;
    return {
      key: block?.keys?.[at],
      version: block?.versions?.[at] ?? undefined
    };
  }

  /** The cell holds a fragment of a longer array or object (cut by the kernel, so a long value never fills the grid). */
  isCut(row: number, column: number): boolean {
    return this.isCutField(row, this.shownList[column]?.name);
  }

  /** `isCut` by the column's name (shown or not). */
  protected isCutField(row: number, name: string | undefined): boolean {
    const docRow = this.docRowAt(row - this.leadingRows);
    const block = this.blocks.get(Math.floor(docRow / this.blockSize));
    return (
      block !== undefined &&
      block.cut.some(c => c.row === docRow - block.offset && c.column === name)
    );
  }

  /** The parts of a cell the engine matched to the view's search query, if it marked any. */
  highlight(row: number, column: number): MarkedText | undefined {
    const name = this.shownList[column]?.name;
    if (row < this.leadingRows || name === undefined) {
      return undefined;
    }
    const docRow = this.docRowAt(row - this.leadingRows);
    const block = this.blocks.get(Math.floor(docRow / this.blockSize));
    return block?.highlights?.[docRow - block.offset]?.find(
      h => h.column === name
    )?.parts;
  }

  isLoaded(row: number): boolean {
    return (
      row < this.leadingRows ||
      this.holds(this.docRowAt(row - this.leadingRows))
    );
  }

  /** Marks the headers of the columns the engine sorts by. */
  setSortMarks(marks: Map<string, string>): void {
    this.sortMarks = marks;
    if (this.shownList.length > 0) {
      this.emitChanged({
        type: 'cells-changed',
        region: 'column-header',
        row: 0,
        column: 0,
        rowSpan: 1,
        columnSpan: this.shownList.length
      });
    }
  }

  /** Starts over after a refresh: new columns, total and first block. */
  reset(columns: readonly Column[], total: number, first: Block): void {
    this.generation++;
    this.blocks.clear();
    this.queued.length = 0;
    this.inFlight.clear();
    this.failed.clear();
    this.hidden = [];
    this.columnList = [...columns];
    this.arrange();
    this.total = total;
    this.status = { loadedRows: 0, total };
    this.storeFirst(first);
    this.emitChanged({ type: 'model-reset' });
  }

  /**
   * The first block of an open or a refresh; when it holds fewer rows than the block has (the
   * open asked for the first screen's rows only), the whole block is asked for at once.
   */
  private storeFirst(first: Block): void {
    this.store(first);
    this.partialBlock =
      first.rows.length < Math.min(this.blockSize, this.total - first.offset)
        ? first.block
        : undefined;
    if (this.partialBlock !== undefined) {
      this.want(this.partialBlock);
    }
  }

  /** Whether the row's block is in memory with that row (a partial first block lacks its later rows). */
  private holds(docRow: number): boolean {
    const block = this.blocks.get(Math.floor(docRow / this.blockSize));
    return block !== undefined && docRow - block.offset < block.rows.length;
  }

  /** The block is in memory whole (not only the first screen's rows of it). */
  private complete(index: number): boolean {
    return this.blocks.has(index) && index !== this.partialBlock;
  }

  /** No rows until the next reset: a new view is being read, and the previous view's rows are not its rows. */
  clearRows(): void {
    this.reset(this.columnList, 0, {
      block: 0,
      offset: 0,
      rows: [],
      cut: [],
      columns: [],
      requests: []
    });
  }

  private want(index: number): void {
    if (this.inFlight.has(index) || this.failed.has(index)) {
      return;
    }
    const at = this.queued.indexOf(index);
    if (at >= 0) {
      this.queued.splice(at, 1);
    }
    this.queued.push(index);
    // Out of the paint: fetching may emit changes, which a paint must not see.
    queueMicrotask(() => this.pump());
  }

  private pump(): void {
    while (this.inFlight.size < IN_FLIGHT && this.queued.length > 0) {
      const index = this.queued.pop() as number;
      if (this.complete(index)) {
        continue;
      }
      this.inFlight.add(index);
      const first = this.shownAt(index * this.blockSize);
      const shown = this.total - this.hidden.length;
      this.setStatus({
        ...this.status,
        loading: {
          first: Math.min(first + 1, shown),
          last: Math.min(first + this.blockSize, shown)
        }
      });
      const generation = this.generation;
      this.fetchBlock(index).then(
        ({ block, total }) => {
          if (generation !== this.generation) {
            return;
          }
          this.inFlight.delete(index);
          this.arrived(block, total);
          this.pump();
        },
        (err: Error) => {
          if (generation !== this.generation) {
            return;
          }
          this.inFlight.delete(index);
          // Not asked again by every repaint; refresh clears it.
          this.failed.add(index);
          const { loading, ...rest } = this.status;
          this.setStatus({
            ...rest,
            ...(loading && this.inFlight.size > 0 ? { loading } : {}),
            error: `Rows ${index * this.blockSize + 1}–${(index + 1) * this.blockSize}: ${err.message}`
          });
          this.pump();
        }
      );
    }
  }

  /**
   * Loads the blocks holding rows `first` to `last` that are not loaded (a copy of a selection
   * scrolled past); rejects when the grid is read afresh meanwhile.
   */
  async loadRows(first: number, last: number): Promise<void> {
    const generation = this.generation;
    const from = this.docRowAt(Math.max(0, first - this.leadingRows));
    const to = this.docRowAt(Math.max(0, last - this.leadingRows));
    for (
      let index = Math.floor(from / this.blockSize);
      index <= Math.floor(to / this.blockSize);
      index++
    ) {
      if (this.complete(index)) {
        continue;
      }
      const { block, total } = await this.fetchBlock(index);
      if (generation !== this.generation) {
        throw new Error(
          'The grid was read again meanwhile: select and copy again.'
        );
      }
      this.arrived(block, total);
    }
  }

  private arrived(block: Block, total: number): void {
    if (block.block === this.partialBlock) {
      this.partialBlock = undefined;
    }
    if (total !== this.total) {
      // Read without a snapshot (an engine paging by offset): this block counts the documents saved or
      // deleted since (here or elsewhere), so the rows held, the places of the deleted ones and the saved
      // insertions shown first are of before, and offsets have moved; the grid reads them anew.
      this.blocks.clear();
      this.failed.clear();
      this.hidden = [];
      this.forgetAddedDocuments();
      this.total = total;
      this.store(block);
      this.emitChanged({ type: 'model-reset' });
      return;
    }
    this.total = total;
    this.store(block);
    const row = this.leadingRows + this.shownAt(block.offset);
    this.emitChanged({
      type: 'cells-changed',
      region: 'body',
      row,
      column: 0,
      rowSpan: Math.max(block.rows.length, 1),
      columnSpan: this.shownList.length
    });
    this.emitChanged({
      type: 'cells-changed',
      region: 'row-header',
      row,
      column: 0,
      rowSpan: Math.max(block.rows.length, 1),
      columnSpan: 1
    });
  }

  private store(block: Block): void {
    this.blocks.set(block.block, block);
    while (this.blocks.size > KEPT_BLOCKS) {
      const oldest = this.blocks.keys().next().value as number;
      this.blocks.delete(oldest);
    }
    const added = block.columns.filter(
      c => !this.columnList.some(k => k.name === c.name)
    );
    if (added.length > 0) {
      const before = this.shownList.map(c => c.name);
      this.columnList.push(...added);
      this.arrange();
      const appended = before.every((n, i) => this.shownList[i]?.name === n);
      if (appended && this.shownList.length > before.length) {
        this.emitChanged({
          type: 'columns-inserted',
          region: 'body',
          index: before.length,
          span: this.shownList.length - before.length
        });
      } else if (!appended) {
        this.emitChanged({ type: 'model-reset' });
      }
    }
    const loadedRows = this.loadedCount();
    const sent = block.requests;
    const last = sent[sent.length - 1];
    const elapsed = sent.reduce((ms, r) => ms + r.elapsedMs, 0);
    const { error: _error, loading, ...rest } = this.status;
    this.setStatus({
      ...rest,
      ...(loading && this.inFlight.size > 0 ? { loading } : {}),
      loadedRows,
      total: this.shownTotal,
      ...(last
        ? { last: { ...last, elapsedMs: elapsed, requests: sent.length } }
        : {})
    });
  }

  private setStatus(status: PagedStatus): void {
    this.status = status;
    this.statusChanged.emit(status);
  }
}
