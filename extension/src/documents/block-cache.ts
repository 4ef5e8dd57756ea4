import type { Block } from '@searchbook/contracts/panel-protocol';
import type { RowKey, RowVersion } from '@searchbook/contracts/edit-protocol';
import type { MarkedText } from '@searchbook/contracts/search-preview';

/** Blocks kept in memory; the least recently painted are dropped (and fetched again if needed). */
const KEPT_BLOCKS = 200;

/**
 * The blocks of a grid's snapshot held in memory, and the places of the documents deleted since
 * it was read (the snapshot still holds them; the grid shows the others). Pure bookkeeping:
 * rows are addressed by their place in the snapshot ("doc rows") or among those shown.
 */
export class BlockCache {
  private readonly blocks = new Map<number, Block>();
  /** Places (in the snapshot read) of documents deleted since, ascending. */
  private hidden: number[] = [];
  /** The first block when it came with only the rows of the first screen: it is read whole next. */
  private partialBlock: number | undefined;

  constructor(readonly blockSize: number) {}

  /** Documents deleted since the snapshot was read. */
  get hiddenCount(): number {
    return this.hidden.length;
  }

  /** Forgets every block and deletion: the snapshot is read anew. */
  clear(): void {
    this.blocks.clear();
    this.hidden = [];
    this.partialBlock = undefined;
  }

  /**
   * Keeps the first block of an open or a refresh; true when it holds fewer rows than the block
   * has (the open asked for the first screen's rows only), so the whole block is to be read.
   */
  storeFirst(first: Block, total: number): boolean {
    this.store(first);
    this.partialBlock =
      first.rows.length < Math.min(this.blockSize, total - first.offset)
        ? first.block
        : undefined;
    return this.partialBlock !== undefined;
  }

  /** Keeps a block, dropping the least recently painted beyond what memory keeps. */
  store(block: Block): void {
    if (block.block === this.partialBlock) {
      this.partialBlock = undefined;
    }
    this.blocks.set(block.block, block);
    while (this.blocks.size > KEPT_BLOCKS) {
      const oldest = this.blocks.keys().next().value as number;
      this.blocks.delete(oldest);
    }
  }

  /** The block index holding a doc row. */
  blockOf(docRow: number): number {
    return Math.floor(docRow / this.blockSize);
  }

  /** A document's place in the snapshot read, from its place among the documents shown. */
  docRowAt(shown: number): number {
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
  shownAt(docRow: number): number {
    return docRow - this.hidden.filter(h => h < docRow).length;
  }

  /** Whether the row's block is in memory with that row (a partial first block lacks its later rows). */
  holds(docRow: number): boolean {
    const block = this.blocks.get(this.blockOf(docRow));
    return block !== undefined && docRow - block.offset < block.rows.length;
  }

  /** The block is in memory whole (not only the first screen's rows of it). */
  complete(index: number): boolean {
    return this.blocks.has(index) && index !== this.partialBlock;
  }

  /** A loaded document's row, kept among the most recently painted; undefined when not in memory. */
  row(docRow: number): Block['rows'][number] | undefined {
    const index = this.blockOf(docRow);
    const block = this.blocks.get(index);
    if (!block || !this.holds(docRow)) {
      return undefined;
    }
    this.blocks.delete(index);
    this.blocks.set(index, block);
    return block.rows[docRow - block.offset];
  }

  /** Where a loaded document lives and its version as read (what edits are addressed to). */
  key(docRow: number): {
    key: RowKey | undefined;
    version: RowVersion | undefined;
  } {
    const block = this.blocks.get(this.blockOf(docRow));
    const at = block ? docRow - block.offset : -1;
    return {
      key: block?.keys?.[at],
      version: block?.versions?.[at] ?? undefined
    };
  }

  /** The field holds a fragment of a longer array or object (cut by the kernel). */
  isCut(docRow: number, name: string | undefined): boolean {
    const block = this.blocks.get(this.blockOf(docRow));
    return (
      block !== undefined &&
      block.cut.some(c => c.row === docRow - block.offset && c.column === name)
    );
  }

  /** The parts of a field the engine matched to the view's search query, if it marked any. */
  highlight(docRow: number, name: string): MarkedText | undefined {
    const block = this.blocks.get(this.blockOf(docRow));
    return block?.highlights?.[docRow - block.offset]?.find(
      h => h.column === name
    )?.parts;
  }

  /**
   * A document deleted since the snapshot was read leaves the shown rows; false when its block
   * is no longer in memory.
   */
  hide(key: RowKey): boolean {
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

  /** Rows in memory, less those deleted since (a deleted document stays in its block). */
  loadedRows(): number {
    let rows = 0;
    for (const block of this.blocks.values()) {
      const end = block.offset + block.rows.length;
      rows +=
        block.rows.length -
        this.hidden.filter(h => h >= block.offset && h < end).length;
    }
    return rows;
  }
}
