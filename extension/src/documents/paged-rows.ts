import { Signal } from '@lumino/signaling';
import type {
  Block,
  Column,
  SentRequest
} from '@searchbook/contracts/panel-protocol';
import { arrangeColumns, type ColumnLayout } from '../datagrid/column-layout';
import { BlockCache } from './block-cache';

/** Blocks fetched at once: more would only fetch rows the user already scrolled past. */
const IN_FLIGHT = 2;

export interface PagedStatus {
  loadedRows: number;
  total: number;
  last?: SentRequest & { requests: number };
  error?: string;
  /** Rows being fetched (numbered from 1 as the grid shows them), while they are. */
  loading?: { first: number; last: number };
}

/** Documents saved into the target since it was read, shown besides the snapshot. */
export interface AddedDocuments {
  readonly addedCount: number;
  /** The target was read anew and its rows hold them: they are no longer shown apart. */
  forgetAdded(): void;
}

/** What changed in the rows: all of them, some shown documents' rows, or columns added at the end. */
export type PagedChange =
  | { type: 'reset' }
  | { type: 'rows'; first: number; count: number }
  | { type: 'columns-inserted'; index: number; span: number };

export type FetchBlock = (
  block: number
) => Promise<{ block: Block; total: number }>;

/**
 * A grid's documents, fetched block by block as the viewport needs them, the way JupyterLab's
 * CSV viewer model fills itself: `row()` answers what is loaded, asks for the block it lacks,
 * and `changed` tells when the block arrives. The newest request goes first, so a scrollbar
 * drag fetches where it stops, not every block on the way. Rows are addressed by their place
 * among the documents shown.
 */
export class PagedRows {
  readonly statusChanged = new Signal<this, PagedStatus>(this);
  readonly changed = new Signal<this, PagedChange>(this);
  readonly cache: BlockCache;
  /** Every column, in the engine's order. */
  private columnList: Column[];
  /** The columns shown, in the user's layout: what grid positions address. */
  private shownList: Column[] = [];
  private pinned = 0;
  private layout: ColumnLayout | undefined;
  private readonly queued: number[] = [];
  private readonly inFlight = new Set<number>();
  private readonly failed = new Set<number>();
  private status: PagedStatus;
  private generation = 0;

  constructor(
    columns: readonly Column[],
    private total: number,
    readonly blockSize: number,
    first: Block,
    private readonly fetchBlock: FetchBlock,
    private readonly added: AddedDocuments
  ) {
    this.cache = new BlockCache(blockSize);
    this.columnList = [...columns];
    this.arrange();
    this.status = { loadedRows: 0, total };
    this.storeFirst(first);
  }

  get columns(): readonly Column[] {
    return this.shownList;
  }

  get allColumns(): readonly Column[] {
    return this.columnList;
  }

  get pinnedCount(): number {
    return this.pinned;
  }

  get currentStatus(): PagedStatus {
    return this.status;
  }

  /** Documents of the snapshot still shown (those deleted since are not). */
  get shownDocuments(): number {
    return this.total - this.cache.hiddenCount;
  }

  /** The documents the grid holds now: the snapshot's, less those deleted since, plus those inserted since. */
  get shownTotal(): number {
    return this.shownDocuments + this.added.addedCount;
  }

  setLayout(layout: ColumnLayout): void {
    this.layout = layout;
    this.arrange();
  }

  private arrange(): void {
    const arranged = this.layout
      ? arrangeColumns(this.columnList, this.layout)
      : { shown: [...this.columnList], pinnedCount: 0 };
    this.shownList = arranged.shown;
    this.pinned = arranged.pinnedCount;
  }

  /** A shown document's row, or undefined while its block is not loaded (its fetch is then asked for). */
  row(shown: number): Block['rows'][number] | undefined {
    const docRow = this.cache.docRowAt(shown);
    const row = this.cache.row(docRow);
    if (row === undefined) {
      this.want(this.cache.blockOf(docRow));
    }
    return row;
  }

  isLoaded(shown: number): boolean {
    return this.cache.holds(this.cache.docRowAt(shown));
  }

  /** The status again, after the documents shown changed without a read. */
  restate(): void {
    this.setStatus({
      ...this.status,
      loadedRows: this.loadedCount(),
      total: this.shownTotal
    });
  }

  /**
   * Rows in memory as the status counts them: those read, less those deleted since, plus those
   * saved into the target since (shown too), so the status never says "3 of 2 rows loaded"
   * after a delete nor "1 of 2" after a saved new row.
   */
  private loadedCount(): number {
    const rows = this.added.addedCount + this.cache.loadedRows();
    return Math.max(0, Math.min(this.shownTotal, rows));
  }

  /** Starts over after a refresh: new columns, total and first block. */
  reset(columns: readonly Column[], total: number, first: Block): void {
    this.generation++;
    this.cache.clear();
    this.queued.length = 0;
    this.inFlight.clear();
    this.failed.clear();
    this.columnList = [...columns];
    this.arrange();
    this.total = total;
    this.status = { loadedRows: 0, total };
    this.storeFirst(first);
  }

  private storeFirst(first: Block): void {
    const partial = this.cache.storeFirst(first, this.total);
    this.stored(first);
    if (partial) {
      this.want(first.block);
    }
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
      if (this.cache.complete(index)) {
        continue;
      }
      this.inFlight.add(index);
      const first = this.cache.shownAt(index * this.blockSize);
      const shown = this.shownDocuments;
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
          this.fetchFailed(index, err);
          this.pump();
        }
      );
    }
  }

  private fetchFailed(index: number, err: Error): void {
    // Not asked again by every repaint; refresh clears it.
    this.failed.add(index);
    const { loading, ...rest } = this.status;
    this.setStatus({
      ...rest,
      ...(loading && this.inFlight.size > 0 ? { loading } : {}),
      error: `Rows ${index * this.blockSize + 1}–${(index + 1) * this.blockSize}: ${err.message}`
    });
  }

  /**
   * Loads the blocks holding shown rows `first` to `last` that are not loaded (a copy of a
   * selection scrolled past); rejects when the grid is read afresh meanwhile.
   */
  async loadRows(first: number, last: number): Promise<void> {
    const generation = this.generation;
    const from = this.cache.blockOf(this.cache.docRowAt(Math.max(0, first)));
    const to = this.cache.blockOf(this.cache.docRowAt(Math.max(0, last)));
    for (let index = from; index <= to; index++) {
      if (this.cache.complete(index)) {
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
    if (total !== this.total) {
      // Read without a snapshot (an engine paging by offset): this block counts the documents saved or
      // deleted since (here or elsewhere), so the rows held, the places of the deleted ones and the saved
      // insertions shown first are of before, and offsets have moved; the grid reads them anew.
      this.cache.clear();
      this.failed.clear();
      this.added.forgetAdded();
      this.total = total;
      this.cache.store(block);
      this.stored(block);
      this.changed.emit({ type: 'reset' });
      return;
    }
    this.cache.store(block);
    this.stored(block);
    this.changed.emit({
      type: 'rows',
      first: this.cache.shownAt(block.offset),
      count: Math.max(block.rows.length, 1)
    });
  }

  /** After a block is kept: columns it brings are added, the status counts it. */
  private stored(block: Block): void {
    this.addColumns(block.columns);
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

  private addColumns(columns: readonly Column[]): void {
    const added = columns.filter(
      c => !this.columnList.some(k => k.name === c.name)
    );
    if (added.length === 0) {
      return;
    }
    const before = this.shownList.map(c => c.name);
    this.columnList.push(...added);
    this.arrange();
    const appended = before.every((n, i) => this.shownList[i]?.name === n);
    if (appended && this.shownList.length > before.length) {
      this.changed.emit({
        type: 'columns-inserted',
        index: before.length,
        span: this.shownList.length - before.length
      });
    } else if (!appended) {
      this.changed.emit({ type: 'reset' });
    }
  }

  private setStatus(status: PagedStatus): void {
    this.status = status;
    this.statusChanged.emit(status);
  }
}
