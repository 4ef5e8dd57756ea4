import type { DataGrid } from '@lumino/datagrid';
import type { CellEdit, RowKey } from '@searchbook/contracts/edit-protocol';
import type { JsonValue } from '@searchbook/contracts/json';
import { ownValue, setField } from '@searchbook/contracts/own-fields';
import type { FilterRow } from '@searchbook/contracts/panel-protocol';
import type { PanelClient } from '../panel-client';
import { refusalText } from './change-problems';
import { confirmDone, hint } from './confirmations';
import { columnRefusal, editedFields } from './document-json-edit';
import {
  editDocument as editDocumentDialog,
  viewDocument,
  type WholeDocument
} from './document-json-view';
import { duplicateFields } from './duplicate-row';
import type { EditableRowsModel } from './editable-rows-model';
import { valueText } from './value-text';
import { toolbarMenu } from './toolbar-menu';
import { CellMenu } from './cell-menu';
import { plural } from './plural';
import { valueFilter } from './value-filter';
import { parseExactJson } from '@searchbook/contracts/exact-json';

export interface DocumentActionsHost {
  client: PanelClient;
  gridId: string;
}

/** What the actions need of the grid's filter bar. */
export interface FilterTarget {
  /** Adds the row to the bar and runs the view. */
  add(row: FilterRow): void;
  /** The bar joins its rows by Any and has some: one more row widens the view. */
  joinsAny(): boolean;
}

/**
 * What the grid does with whole documents and the value under the cursor: the document as
 * JSON with its metadata, edited as JSON into pending changes (typed and refused by the kernel
 * as cells are), a copy of a row as a new row, and filtering by a cell's value. Offered on the
 * editing toolbar (for the active row) and on a cell's context menu.
 */
export class DocumentActions {
  readonly buttons: HTMLButtonElement[];

  constructor(
    private readonly model: EditableRowsModel,
    private readonly grid: DataGrid,
    private readonly host: () => DocumentActionsHost,
    private readonly filters: FilterTarget,
    private readonly options: {
      /** Puts the keyboard back on the grid's active cell (a menu closed). */
      focusGrid: () => void;
      /** Export… of the grid's view: the cell menu takes the place of JupyterLab's on body cells. */
      exportView?: () => void;
    }
  ) {
    this.buttons = [
      toolbarMenu(
        'Document',
        'The active row’s whole document: view it as JSON with its metadata, edit it as JSON, or duplicate the row',
        [
          {
            label: 'View document',
            caption:
              'Show the active row’s whole document as JSON, with its metadata; edit it as JSON from there',
            run: () => this.showDocument(this.activeRow())
          },
          {
            label: 'Edit document as JSON…',
            caption:
              'Edit the active row’s whole document as JSON; the changed fields become pending changes',
            run: () => this.editDocument(this.activeRow())
          },
          {
            label: 'Duplicate row',
            caption:
              'Add a new row holding the active row’s values, its id left for you to type',
            run: () => this.duplicate(this.activeRow())
          }
        ]
      )
    ];
    new CellMenu(grid, model, this, options);
  }

  private activeRow(): number {
    return this.grid.selectionModel?.cursorRow ?? -1;
  }

  /** The stored document of a row, or undefined (and a hint saying why). */
  private async documentOf(
    row: number
  ): Promise<{ whole: WholeDocument; key: RowKey } | undefined> {
    const at = this.model.rowAt(row);
    if (!at) {
      hint(
        'Click a row first (or right-click one), then ask for its document.'
      );
      return undefined;
    }
    if (at.kind === 'new') {
      hint(
        'This new row is not stored yet: its document is what its cells hold; Save stores it.'
      );
      return undefined;
    }
    if (!at.key || !this.model.isLoaded(row)) {
      hint('This row is still loading; try again in a moment.');
      return undefined;
    }
    const { client, gridId } = this.host();
    try {
      const whole = await client.request(
        { type: 'wholeDocument', gridId, row: at.key },
        'wholeDocument'
      );
      return { whole, key: at.key };
    } catch (err) {
      hint((err as Error).message);
      return undefined;
    }
  }

  /** What the dialog says about the row beside the stored document. */
  private noticeOf(row: number, whole: WholeDocument): string {
    const at = this.model.rowAt(row);
    const entry = this.model.pending.rowOf(whole.row);
    const notes: string[] = [];
    if (
      at?.kind === 'document' &&
      at.version &&
      whole.version &&
      at.version.seqNo !== whole.version.seqNo
    ) {
      notes.push(
        'This document changed after the grid read it: this is the document as stored now (Refresh shows it in the grid).'
      );
    }
    if (entry?.deleted) {
      notes.push('The row is marked for deletion.');
    }
    const typed = Object.keys(entry?.fields ?? {});
    if (typed.length > 0) {
      notes.push(
        `Pending changes of this row (${typed.join(', ')}) are not in this JSON, which is the document as stored; they stay pending.`
      );
    }
    return notes.join(' ');
  }

  async showDocument(row: number): Promise<void> {
    const found = await this.documentOf(row);
    if (!found) {
      return;
    }
    const editable = !this.model.pending.rowOf(found.key)?.deleted;
    if (
      await viewDocument(found.whole, this.noticeOf(row, found.whole), editable)
    ) {
      await this.editAsJson(row, found.whole);
    }
  }

  async editDocument(row: number): Promise<void> {
    const found = await this.documentOf(row);
    if (found) {
      await this.editAsJson(row, found.whole);
    }
  }

  /**
   * The document edited as JSON, applied as pending changes of its row: each changed field as
   * the text a cell would hold, typed by the kernel as a save types it (a plan: nothing goes to
   * the engine), so a value its field cannot hold is refused in the dialog, saying what to write.
   */
  private async editAsJson(row: number, whole: WholeDocument): Promise<void> {
    const columns = this.model.columns;
    const columnOf = (name: string) => columns.find(c => c.name === name);
    let texts: Record<string, CellEdit> = {};
    const applied = await editDocumentDialog(
      whole,
      this.noticeOf(row, whole),
      async text => {
        let edited: JsonValue;
        try {
          edited = parseExactJson(text) as JsonValue;
        } catch (err) {
          return [
            `This is not JSON (${(err as Error).message}): correct it, or Cancel to leave the document as it is.`
          ];
        }
        const { fields, problems } = editedFields(
          whole.document,
          edited,
          columns
        );
        const refused = fields
          .map(f => columnRefusal(columnOf(f.column)))
          .filter((why): why is string => why !== undefined);
        if (problems.length + refused.length > 0) {
          return [...problems, ...refused];
        }
        texts = {};
        for (const { column, value } of fields) {
          setField(
            texts,
            column,
            valueText(value, columnOf(column)?.json ?? false)
          );
        }
        if (fields.length === 0) {
          return [];
        }
        const { client, gridId } = this.host();
        try {
          const plan = await client.request(
            {
              type: 'plan',
              gridId,
              changes: [
                {
                  kind: 'update',
                  key: 'document',
                  row: whole.row,
                  ...(whole.version ? { version: whole.version } : {}),
                  fields: texts
                }
              ]
            },
            'plan'
          );
          return plan.refusals.map(r => refusalText(r));
        } catch (err) {
          return [(err as Error).message];
        }
      }
    );
    if (applied === undefined) {
      return;
    }
    const changed = Object.keys(texts);
    if (changed.length === 0) {
      confirmDone('No field changed: the document is as stored.');
      return;
    }
    for (const column of changed) {
      const stored = ownValue(whole.values, column) ?? null;
      this.model.pending.edit(
        whole.row,
        whole.version,
        column,
        ownValue(texts, column) ?? null,
        valueText(stored, columnOf(column)?.json ?? false) ?? '',
        stored
      );
    }
    this.model.pendingUpdated(false);
    confirmDone(
      `${plural(changed.length, 'field')} of ${whole.row.id} pending (${changed.join(', ')}): Save sends them.`
    );
  }

  /** A new row with the row's values (its whole ones, read from the engine), the id left empty. */
  async duplicate(row: number): Promise<void> {
    const at = this.model.rowAt(row);
    if (!at) {
      hint('Click a row first (or right-click one), then Duplicate row.');
      return;
    }
    let fields: Record<string, string>;
    let name: string;
    if (at.kind === 'new') {
      fields = duplicateFields(
        this.model.columns,
        {},
        this.model.pending.newRow(at.key)?.fields ?? {}
      );
      name = 'the new row';
    } else {
      const found = await this.documentOf(row);
      if (!found) {
        return;
      }
      fields = duplicateFields(
        this.model.columns,
        found.whole.values,
        this.model.pending.rowOf(found.key)?.fields ?? {}
      );
      name = found.key.id;
    }
    const key = this.model.pending.insert();
    for (const [column, text] of Object.entries(fields)) {
      this.model.pending.editNew(key, column, text, false);
    }
    this.model.pendingUpdated(true);
    const idColumn = this.model.columns.findIndex(c => c.primaryKey);
    this.grid.scrollTo(this.grid.scrollX, 0);
    this.grid.selectionModel?.select({
      r1: 0,
      c1: Math.max(idColumn, 0),
      r2: 0,
      c2: Math.max(idColumn, 0),
      cursorRow: 0,
      cursorColumn: Math.max(idColumn, 0),
      clear: 'all'
    });
    confirmDone(
      `A copy of ${name} is the first row: type its id (or leave it empty for a random one), then Save.`
    );
  }

  /** "Filter by this value" / "Exclude this value": one filter-bar row, and the view runs. */
  filterBy(row: number, column: number, exclude: boolean): void {
    const why = this.whyNoFilter(row, column);
    const col = this.model.columns[column];
    if (why !== undefined || !col) {
      hint(why ?? 'Click a cell first.');
      return;
    }
    const made = valueFilter(col, this.model.storedValue(row, column), exclude);
    if ('why' in made) {
      hint(made.why);
      return;
    }
    if (this.filters.joinsAny()) {
      hint(
        'The filter rows are joined by Any: the new row widens the view. Set Match to All to narrow it.'
      );
    }
    this.filters.add(made.row);
  }

  whyNoFilter(row: number, column: number): string | undefined {
    const at = this.model.rowAt(row);
    const col = this.model.columns[column];
    if (!at || !col) {
      return 'Click a cell first.';
    }
    if (at.kind === 'new') {
      return 'This new row is not stored yet: filter by a stored row’s value.';
    }
    if (!this.model.isLoaded(row)) {
      return 'This row is still loading; try again in a moment.';
    }
    if (this.model.isCut(row, column)) {
      return `${col.name} shows only the start of this value: it cannot be filtered by.`;
    }
    const made = valueFilter(col, this.model.storedValue(row, column), false);
    return 'why' in made ? made.why : undefined;
  }
}
