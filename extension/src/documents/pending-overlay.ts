import type {
  CellEdit,
  RowKey,
  RowVersion
} from '@searchbook/contracts/edit-protocol';
import {
  type GridRow,
  type PendingChanges,
  type Problem,
  rowKeyString,
  type SaveOutcome
} from './pending-changes';
import type { AddedDocuments } from './paged-rows';

/** A saved write, shown until the grid reads its target again (its snapshot predates the write). */
export interface SavedRow {
  document: GridRow | undefined;
  version: RowVersion | undefined;
  deleted: boolean;
}

/** A document a save inserted, shown first among the documents. */
export interface SavedInsertion {
  key: RowKey;
  version: RowVersion | undefined;
  document: GridRow;
}

/** What a save's outcomes need of the rows shown. */
export interface OutcomeRows {
  /** Takes a deleted document out of the rows shown; false when its block is no longer in memory. */
  hide(key: RowKey): boolean;
  /** A loaded document's values, with the fields a save wrote over them. */
  merged(key: RowKey, fields: Record<string, CellEdit>): GridRow;
  /** A new row's values as saved: its fields and its id. */
  withId(fields: Record<string, CellEdit>, id: string): GridRow;
}

/**
 * The user's edits laid over the rows read: the pending changes (typed, not yet saved), the
 * writes saved since the snapshot was read (shown until it is read again), the documents
 * inserted since (shown first), and the whole values of cut cells loaded before editing them.
 */
export class PendingOverlay implements AddedDocuments {
  private saved = new Map<string, SavedRow>();
  private insertedRows: SavedInsertion[] = [];
  /** Whole values of cut cells, loaded before editing them. */
  private readonly whole = new Map<string, unknown>();

  constructor(readonly pending: PendingChanges) {}

  get addedCount(): number {
    return this.insertedRows.length;
  }

  forgetAdded(): void {
    this.insertedRows = [];
  }

  /** Rows shown before the documents read: new rows, then documents saved into the target since. */
  get leadingRows(): number {
    return this.pending.newRows.length + this.insertedRows.length;
  }

  /** The document a save inserted, by its place among those shown first. */
  inserted(at: number): SavedInsertion | undefined {
    return this.insertedRows[at];
  }

  savedOf(key: RowKey): SavedRow | undefined {
    return this.saved.get(rowKeyString(key));
  }

  /** A cut cell's whole value, once loaded. */
  wholeValue(key: RowKey, column: string): unknown {
    return this.whole.get(wholeKey(key, column));
  }

  setWholeValue(key: RowKey, column: string, value: unknown): void {
    this.whole.set(wholeKey(key, column), value);
  }

  hasWholeValue(key: RowKey, column: string): boolean {
    return this.whole.has(wholeKey(key, column));
  }

  /** A refresh reads a new snapshot, which holds the saved writes: the overlay of them goes. */
  clearSaved(): void {
    this.saved = new Map();
    this.insertedRows = [];
  }

  /** After a save: saved rows show what is stored now; true when documents were inserted or deleted. */
  recordOutcomes(
    outcomes: readonly SaveOutcome[],
    typed: ReadonlyMap<string, Record<string, CellEdit>>,
    rows: OutcomeRows
  ): boolean {
    let documents = false;
    for (const outcome of outcomes) {
      if (outcome.status !== 'saved') {
        continue;
      }
      const key = rowKeyString(outcome.row);
      const fields = typed.get(outcome.key) ?? {};
      if (outcome.kind === 'insert') {
        documents = true;
        this.insertedRows.unshift({
          key: outcome.row,
          version: outcome.version,
          document: outcome.document ?? {
            ...rows.withId(fields, outcome.row.id)
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
        } else if (!rows.hide(outcome.row)) {
          this.saved.set(key, {
            document: this.saved.get(key)?.document,
            version: undefined,
            deleted: true
          });
        }
      } else {
        this.saved.set(key, {
          document: outcome.document ?? rows.merged(outcome.row, fields),
          version: outcome.version,
          deleted: false
        });
      }
    }
    return documents;
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
  }
}

function wholeKey(key: RowKey, column: string): string {
  return `${rowKeyString(key)}\u0000${column}`;
}
