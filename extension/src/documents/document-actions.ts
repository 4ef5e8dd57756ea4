import { CommandRegistry } from '@lumino/commands';
import type { DataGrid } from '@lumino/datagrid';
import { Menu } from '@lumino/widgets';
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
import { openMenuReturningFocus, returningFocus } from '../focus/focus-return';
import { valueFilter } from './value-filter';
import { exactJson, parseExactJson } from '@searchbook/contracts/exact-json';

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

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
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
    grid.node.addEventListener('contextmenu', event => this.openMenu(event));
    // The keyboard's way to a context menu: Shift-F10 or the menu key, on the active cell.
    grid.node.addEventListener('keydown', event => {
      if (
        event.key === 'ContextMenu' ||
        (event.key === 'F10' && event.shiftKey)
      ) {
        this.openCursorMenu(event);
      }
    });
  }

  /** A cell menu's action: once done, a keyboard that fell out (its dialog's control gone) is back on the cell. */
  private afterwardsOnGrid(action: () => unknown): void {
    void returningFocus(this.grid.node, action);
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

  private whyNoFilter(row: number, column: number): string | undefined {
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

  /** A right-click on a cell: it becomes the active cell, and its menu opens. */
  private openMenu(event: MouseEvent): void {
    const hit = this.grid.hitTest(event.clientX, event.clientY);
    if (hit.region !== 'body' || hit.row < 0 || hit.column < 0) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    this.openMenuAt(hit.row, hit.column, event.clientX, event.clientY, false);
  }

  /** The active cell's menu, opened below the cell. */
  private openCursorMenu(event: KeyboardEvent): void {
    const row = this.grid.selectionModel?.cursorRow ?? -1;
    const column = this.grid.selectionModel?.cursorColumn ?? -1;
    if (row < 0 || column < 0) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    this.grid.scrollToCell(row, column);
    const box = this.grid.node.getBoundingClientRect();
    const x =
      this.grid.headerWidth +
      this.grid.columnOffset('body', column) -
      this.grid.scrollX;
    const y =
      this.grid.headerHeight +
      this.grid.rowOffset('body', row) +
      this.grid.rowSize('body', row) -
      this.grid.scrollY;
    this.openMenuAt(row, column, box.left + x, box.top + y, true);
  }

  private openMenuAt(
    row: number,
    column: number,
    x: number,
    y: number,
    fromKeyboard: boolean
  ): void {
    this.grid.selectionModel?.select({
      r1: row,
      c1: column,
      r2: row,
      c2: column,
      cursorRow: row,
      cursorColumn: column,
      clear: 'all'
    });
    const at = this.model.rowAt(row);
    const stored = at?.kind === 'document' && at.key !== undefined;
    const commands = new CommandRegistry();
    const menu = new Menu({ commands });
    menu.addClass('searchbook-CellMenu');
    const add = (
      id: string,
      options: CommandRegistry.ICommandOptions
    ): void => {
      commands.addCommand(id, options);
      menu.addItem({ command: id });
    };
    add('searchbook:cell-document', {
      label: 'View document',
      caption: 'The whole document as JSON, with its metadata',
      isEnabled: () => stored,
      execute: () => this.afterwardsOnGrid(() => this.showDocument(row))
    });
    add('searchbook:cell-edit-document', {
      label: 'Edit document as JSON…',
      caption:
        'Edit the whole document as JSON; the changed fields become pending changes',
      isEnabled: () =>
        stored &&
        !(at?.kind === 'document' && at.deleted) &&
        !(at?.key && this.model.pending.rowOf(at.key)?.deleted),
      execute: () => this.afterwardsOnGrid(() => this.editDocument(row))
    });
    add('searchbook:cell-duplicate', {
      label: 'Duplicate row',
      caption: 'A new row with these values; its id is left for you to type',
      isEnabled: () => at !== undefined,
      execute: () => this.afterwardsOnGrid(() => this.duplicate(row))
    });
    menu.addItem({ type: 'separator' });
    const why = this.whyNoFilter(row, column);
    const col = this.model.columns[column];
    const shown = (exclude: boolean) => {
      if (why !== undefined || !col) {
        return why ?? '';
      }
      const made = valueFilter(
        col,
        this.model.storedValue(row, column),
        exclude
      );
      return 'row' in made
        ? `${made.row.column} ${made.row.operator}${made.row.value === '' ? '' : ` ${exactJson(made.row.value)}`}`
        : made.why;
    };
    add('searchbook:cell-filter', {
      label: 'Filter by this value',
      caption: shown(false),
      isEnabled: () => why === undefined,
      execute: () =>
        this.afterwardsOnGrid(() => this.filterBy(row, column, false))
    });
    add('searchbook:cell-exclude', {
      label: 'Exclude this value',
      caption: shown(true),
      isEnabled: () => why === undefined,
      execute: () =>
        this.afterwardsOnGrid(() => this.filterBy(row, column, true))
    });
    const exportView = this.options.exportView;
    if (exportView) {
      menu.addItem({ type: 'separator' });
      add('searchbook:cell-export', {
        label: 'Export…',
        caption:
          'Write the documents this grid shows (under its filter) to a file next to the notebook',
        execute: () => exportView()
      });
    }
    // Escape, or an item picked, puts the keyboard back on the cell (before the item's dialog opens).
    openMenuReturningFocus(
      menu,
      { x, y },
      () => this.options.focusGrid(),
      fromKeyboard
    );
  }
}
