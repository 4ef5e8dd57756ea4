import type { CellEdit, RowKey } from '@searchbook/contracts/edit-protocol';
import type { Column } from '@searchbook/contracts/panel-protocol';
import type { MarkedText } from '@searchbook/contracts/search-preview';
import {
  fieldRecord,
  hasField,
  ownValue
} from '@searchbook/contracts/own-fields';
import type { PagedRows } from './paged-rows';
import { type GridRow, rowKeyString } from './pending-changes';
import type { PendingOverlay } from './pending-overlay';
import type { RowAt } from './row-marks';
import { valueText } from './value-text';

/**
 * The rows as the grid shows them, by their place in the grid: new rows first, then the
 * documents saved into the target since it was read, then the documents read, each with the
 * pending edits and the saved writes laid over what was read. Cells are addressed by field name.
 */
export class ShownRows {
  constructor(
    private readonly rows: PagedRows,
    private readonly overlay: PendingOverlay
  ) {}

  /** Rows before the documents read: new rows, then the documents saved into the target since. */
  get leadingRows(): number {
    return this.overlay.leadingRows;
  }

  get count(): number {
    return this.leadingRows + this.rows.shownDocuments;
  }

  private get pending() {
    return this.overlay.pending;
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
    const inserted = this.overlay.inserted(row - this.pending.newRows.length);
    if (inserted) {
      const saved = this.overlay.savedOf(inserted.key);
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
    if (shown < 0 || shown >= this.rows.shownDocuments) {
      return undefined;
    }
    const values = this.rows.row(shown);
    const cache = this.rows.cache;
    const { key, version } = cache.key(cache.docRowAt(shown));
    const saved = key ? this.overlay.savedOf(key) : undefined;
    return {
      kind: 'document',
      key,
      version: saved ? saved.version : version,
      values: saved?.document ?? values,
      deleted: saved?.deleted ?? false,
      inserted: false
    };
  }

  /** The value shown: what the user typed over what is stored; undefined while its block is not loaded (its fetch is then asked for). */
  value(row: number, name: string | undefined): unknown {
    const at = this.rowAt(row);
    if (name === undefined || !at?.values) {
      return undefined;
    }
    const typed =
      at.kind === 'document' && at.key
        ? this.pending.fieldOf(at.key, name)
        : undefined;
    return typed !== undefined ? typed : this.stored(at, at.values, name);
  }

  /** The document holds the field set to null, and no edit of it is pending. */
  isStoredNull(row: number, name: string | undefined): boolean {
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
  readValues(row: number): Record<string, unknown> {
    const read: Record<string, unknown> = fieldRecord();
    for (const col of this.rows.allColumns) {
      if (!this.isCut(row, col.name)) {
        read[col.name] = this.storedValue(row, col.name);
      }
    }
    return read;
  }

  /** The value as stored (the whole one for a cut cell that was loaded). */
  storedValue(row: number, name: string | undefined): unknown {
    const at = this.rowAt(row);
    if (name === undefined || !at?.values || at.kind === 'new') {
      return null;
    }
    return this.stored(at, at.values, name);
  }

  /** A field as read, or its whole value where the cell was cut and the whole was loaded. */
  private stored(at: RowAt, values: GridRow, name: string): unknown {
    const whole =
      at.kind === 'document' && at.key
        ? this.overlay.wholeValue(at.key, name)
        : undefined;
    return whole !== undefined ? whole : (ownValue(values, name) ?? null);
  }

  /** The text the editor opens with: what was typed, or the stored value as text (JSON indented). */
  editText(row: number, col: Column | undefined): string {
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
    return valueText(this.storedValue(row, col.name), col.json) ?? '';
  }

  /** The cell holds a fragment of a longer array or object, and its whole value is not loaded. */
  isCut(row: number, name: string | undefined): boolean {
    const at = this.rowAt(row);
    if (at?.kind !== 'document' || at.inserted || !name) {
      return false;
    }
    if (at.key && this.overlay.hasWholeValue(at.key, name)) {
      return false;
    }
    const cache = this.rows.cache;
    return cache.isCut(cache.docRowAt(row - this.leadingRows), name);
  }

  /** The parts of a cell the engine matched to the view's search query, if it marked any. */
  highlight(row: number, name: string | undefined): MarkedText | undefined {
    if (row < this.leadingRows || name === undefined) {
      return undefined;
    }
    const cache = this.rows.cache;
    return cache.highlight(cache.docRowAt(row - this.leadingRows), name);
  }

  isLoaded(row: number): boolean {
    return row < this.leadingRows || this.rows.isLoaded(row - this.leadingRows);
  }

  /** The rows a save's change keys belong to, for moving the cursor to a refused cell. */
  rowOfChange(key: string): number | undefined {
    const fresh = this.pending.newRows.findIndex(r => r.key === key);
    if (fresh >= 0) {
      return fresh;
    }
    return this.findRow(
      this.pending.newRows.length,
      at => rowKeyString(at) === key,
      this.leadingRows + 20_000
    );
  }

  /** A new row's values as saved: its fields and its id. */
  withId(fields: Record<string, CellEdit>, id: string): GridRow {
    const idColumn = this.idColumn();
    return { ...fields, ...(idColumn ? { [idColumn]: id } : {}) };
  }

  /** A loaded document's values, with the fields a save wrote over them. */
  merged(key: RowKey, fields: Record<string, CellEdit>): GridRow {
    const wanted = rowKeyString(key);
    const row = this.findRow(this.leadingRows, k => rowKeyString(k) === wanted);
    const at = row === undefined ? undefined : this.rowAt(row);
    return { ...(at?.values ?? {}), ...fields };
  }

  /** The first loaded document row from `from` whose key passes `matches` (looking up to row `last`). */
  private findRow(
    from: number,
    matches: (key: RowKey) => boolean,
    last = Infinity
  ): number | undefined {
    for (let row = from; row < this.count; row++) {
      if (!this.isLoaded(row)) {
        continue;
      }
      const at = this.rowAt(row);
      if (at?.kind === 'document' && at.key && matches(at.key)) {
        return row;
      }
      if (row > last) {
        break;
      }
    }
    return undefined;
  }

  private idColumn(): string | undefined {
    return this.rows.allColumns.find(c => c.primaryKey)?.name;
  }
}
