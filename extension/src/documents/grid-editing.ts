import { Dialog, showDialog } from '@jupyterlab/apputils';
import type { DataGrid, ICellEditor } from '@lumino/datagrid';
import type {
  CellEdit,
  EditRefusal
} from '@searchbook/contracts/edit-protocol';
import { type EditGate, JsonTextEditor, PlainTextEditor } from './cell-editors';
import type { EditableRowsModel } from './editable-rows-model';
import { isLongText, LongTextEditor } from './long-text-editor';
import type { PanelClient } from '../panel-client';
import { refusalText, renderProblems, rowLabel } from './change-problems';
import type { PendingState } from './pending-changes';
import type { PendingSync } from './pending-store';
import { confirmDone } from './confirmations';
import { showPlannedRequests } from './requests-dialog';
import { toolbarButton } from './toolbar-button';
import { exactJson, parseExactJson } from '@searchbook/contracts/exact-json';

export interface EditingHost {
  client: PanelClient;
  gridId: string;
  connection: string;
  target: string;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * A grid tab's editing: the toolbar (Insert row, Delete rows, Save, Discard, Show requests and
 * the count of pending changes), the gate that keeps read-only cells from opening an editor,
 * saving through the kernel, and the list of what a save could not do (refused values,
 * conflicts with Overwrite and Drop my change, failed writes). Pending changes are stored in
 * the browser after every change, so nothing typed is lost.
 */
export class GridEditing implements EditGate {
  readonly toolbar = document.createElement('div');
  readonly problems = document.createElement('div');
  private readonly live = document.createElement('span');
  private readonly message = document.createElement('div');
  private readonly note = document.createElement('div');
  private readonly save = toolbarButton(
    'Save',
    'Send the pending changes to the engine',
    () => this.saveChanges()
  );
  private readonly discard = toolbarButton(
    'Discard',
    'Drop every pending change (Undo brings them back until the next change)',
    () => this.discardChanges()
  );
  private readonly undo = toolbarButton(
    'Undo',
    'Undo Discard: bring back every change it dropped, as it was',
    () => this.undoDiscard()
  );
  /** The pending set as it was before Discard, until the next change: what Undo restores. */
  private discarded: PendingState | undefined;
  /** The message says something is done ("Saved 2 changes."): it goes at the next change. */
  private confirmation = false;
  private readonly show = toolbarButton(
    'Show requests',
    'Show the requests Save would send, without sending them',
    () => this.showRequests()
  );
  private busy = false;
  /** The message says why the active cell cannot be edited: it goes when the cell does. */
  private refusalShown = false;

  constructor(
    private readonly model: EditableRowsModel,
    private readonly grid: DataGrid,
    private readonly host: () => EditingHost,
    private readonly sync: PendingSync
  ) {
    this.toolbar.className = 'searchbook-DocumentGrid-bar searchbook-EditBar';
    this.toolbar.setAttribute('role', 'toolbar');
    this.toolbar.setAttribute('aria-label', 'Editing');
    const insert = toolbarButton(
      'Insert row',
      'Add a new row at the top; leave its id empty for a random one',
      () => this.insertRow()
    );
    const remove = toolbarButton(
      'Delete rows',
      'Mark the selected rows for deletion (again: take the mark back)',
      () => this.deleteSelected()
    );
    this.live.className = 'searchbook-EditBar-count';
    this.live.setAttribute('role', 'status');
    this.live.setAttribute('aria-live', 'polite');
    this.message.className = 'searchbook-EditBar-message';
    this.message.setAttribute('role', 'alert');
    this.toolbar.append(
      insert,
      remove,
      this.save,
      this.discard,
      this.undo,
      this.show,
      this.live,
      this.message
    );
    this.problems.className = 'searchbook-Problems';
    this.problems.setAttribute('aria-label', 'Changes not saved');
    this.note.className = 'searchbook-CellNote';
    this.note.setAttribute('role', 'tooltip');
    this.note.hidden = true;
    grid.node.append(this.note);
    this.showUndo(false);
    // The refusal is about the cell it was said for: it goes once another is active. Hidden,
    // not emptied, so the bar keeps its height and the grid does not move under a double-click.
    grid.selectionModel?.changed.connect(() => {
      if (this.refusalShown) {
        this.refusalShown = false;
        this.message.style.visibility = 'hidden';
      }
    });
    model.pendingChanged.connect(() => {
      if (this.confirmation) {
        this.say('');
      }
      this.update();
    });
    this.update();
    if (sync.keptAside) {
      this.say(
        `Some pending changes stored in this browser could not be read (another version of searchbook, or damaged): they are kept in its local storage under ${sync.keptAside}.`
      );
    }
  }

  /** The kernel behind the grid is gone: say what becomes of the pending changes. */
  kernelGone(): void {
    const { target } = this.host();
    this.say(
      `The kernel restarted or stopped. Pending changes are kept: open ${target} again from the searchbook panel to see and save them.`
    );
  }

  /** The pending changes' count, as the live status says it. */
  get countText(): string {
    return this.live.textContent ?? '';
  }

  // EditGate

  refusal(row: number, column: number): string | undefined {
    const col = this.model.columns[column];
    const at = this.model.rowAt(row);
    if (!col || !at) {
      return undefined;
    }
    if (!this.model.isLoaded(row)) {
      return 'This row is still loading; try again in a moment.';
    }
    if (col.arrayParent) {
      return `${col.name} lists one value per element of ${col.arrayParent}: edit the array in the ${col.arrayParent} column (JSON); this column follows it.`;
    }
    if (at.kind === 'new') {
      return col.readOnly && !col.primaryKey
        ? `${col.name} is set by the engine.`
        : undefined;
    }
    if (at.deleted) {
      return 'This row was deleted.';
    }
    if (col.primaryKey) {
      return `${col.name} identifies the document and cannot be changed: insert a new row with the id you want, then delete this one.`;
    }
    if (col.readOnly) {
      return `${col.name} is read-only.`;
    }
    if (!at.key) {
      return 'This grid’s rows carry no key to save edits to: restart the kernel so it matches this extension.';
    }
    return undefined;
  }

  prepare(row: number, column: number): Promise<void> | undefined {
    const col = this.model.columns[column];
    const at = this.model.rowAt(row);
    if (
      !col ||
      at?.kind !== 'document' ||
      !at.key ||
      !this.model.isCut(row, column)
    ) {
      return undefined;
    }
    const key = at.key;
    this.say(
      `Loading the whole value of ${col.name} before editing (the cell shows a fragment)…`
    );
    const { client, gridId } = this.host();
    return client
      .request(
        { type: 'wholeValue', gridId, row: key, column: col.name },
        'wholeValue'
      )
      .then(reply => {
        this.model.setWholeValue(key, col.name, reply.value);
        this.say('');
      });
  }

  editorFor(row: number, column: number): ICellEditor {
    const text = this.model.editText(row, column);
    return this.model.columns[column]?.json
      ? new JsonTextEditor(text)
      : isLongText(text)
        ? new LongTextEditor(text)
        : new PlainTextEditor(text);
  }

  refused(message: string): void {
    this.say(message);
    this.refusalShown = true;
  }

  // Actions

  insertRow(): void {
    this.model.insertRow();
    this.grid.scrollTo(this.grid.scrollX, 0);
    this.say(
      'A new row is first in the grid: type its values (the id too, or leave it empty for a random one), then Save.'
    );
  }

  deleteSelected(): void {
    const rows = new Set<number>();
    const selection = this.grid.selectionModel;
    for (const s of selection?.selections() ?? []) {
      for (let r = Math.min(s.r1, s.r2); r <= Math.max(s.r1, s.r2); r++) {
        rows.add(r);
      }
    }
    if (rows.size === 0 && selection && selection.cursorRow >= 0) {
      rows.add(selection.cursorRow);
    }
    if (rows.size === 0) {
      return this.say(
        'Select the rows to delete first (click a row number; Shift-click for a range).'
      );
    }
    this.model.deleteRows([...rows]);
    this.say('');
  }

  /**
   * Drops every pending change; more than one edit (two cells of one row count two) only once
   * the user agrees, Cancel being the default button. Undo brings them back until the next change.
   */
  async discardChanges(): Promise<void> {
    const count = this.model.pending.count;
    const edits = this.model.pending.editCount;
    if (count === 0 || this.busy) {
      return;
    }
    if (edits > 1) {
      const rows = count === edits ? '' : ` (in ${plural(count, 'row')})`;
      const answer = await showDialog({
        title: 'Discard pending changes',
        body: `Discard ${plural(edits, 'pending change')}${rows}? Undo brings them back until your next change.`,
        buttons: [
          Dialog.cancelButton(),
          Dialog.warnButton({ label: 'Discard' })
        ],
        // Enter, or a key pressed by mistake, keeps what was typed.
        defaultButton: 0
      });
      if (!answer.button.accept) {
        return;
      }
    }
    // A copy sharing nothing with the set, which edits its entries in place.
    const before = parseExactJson(
      exactJson(this.model.pending.state())
    ) as PendingState;
    this.model.discard();
    this.discarded = before;
    this.showUndo(true);
    const text =
      edits === 1
        ? 'Pending change dropped.'
        : `${plural(edits, 'pending change')} dropped.`;
    this.say(text, true);
    confirmDone(text, [{ label: 'Undo', callback: () => this.undoDiscard() }]);
  }

  /** Every change the last Discard dropped, back as it was: values, new rows, deletion marks. */
  undoDiscard(): void {
    const state = this.discarded;
    if (!state || this.model.pending.count > 0) {
      return;
    }
    this.discarded = undefined;
    this.showUndo(false);
    this.model.pending.replace(state);
    this.model.pendingUpdated(true);
    this.say(
      `${plural(this.model.pending.count, 'pending change')} back.`,
      true
    );
  }

  async saveChanges(only?: readonly string[]): Promise<void> {
    const { client, gridId, target } = this.host();
    const changes = this.model.pending.changes(target, only);
    if (changes.length === 0 || this.busy) {
      return;
    }
    const typed = new Map<string, Record<string, CellEdit>>(
      changes.map(c => [c.key, c.kind === 'delete' ? {} : c.fields])
    );
    this.setBusy(true, `Saving ${plural(changes.length, 'change')}…`);
    try {
      const reply = await client.request(
        { type: 'save', gridId, changes },
        'saved'
      );
      if (reply.refusals.length > 0) {
        this.refuse(reply.refusals);
        return;
      }
      const outcomes = this.model.pending.settle(reply.results, changes);
      this.model.showOutcomes(outcomes, typed);
      const saved = outcomes.filter(o => o.status === 'saved').length;
      const conflicts = reply.results.filter(
        r => r.status === 'conflict'
      ).length;
      const failed = reply.results.filter(r => r.status === 'failed').length;
      const left = [
        conflicts ? plural(conflicts, 'conflict') : '',
        failed ? `${failed} failed` : ''
      ]
        .filter(Boolean)
        .join(', ');
      this.say(
        left
          ? `Saved ${saved} of ${plural(outcomes.length, 'change')}; ${left}: they stay pending, see below.`
          : `Saved ${plural(saved, 'change')}.`,
        !left
      );
    } catch (err) {
      this.say(
        `Nothing typed is lost: the changes stay pending, and Save again is safe (no row is created twice). ${(err as Error).message}`
      );
    } finally {
      this.setBusy(false);
    }
  }

  async showRequests(): Promise<void> {
    const { client, gridId, target } = this.host();
    const changes = this.model.pending.changes(target);
    if (changes.length === 0) {
      return;
    }
    try {
      const reply = await client.request(
        { type: 'plan', gridId, changes },
        'plan'
      );
      if (reply.refusals.length > 0) {
        this.refuse(reply.refusals);
      }
      const refused = reply.refusals.map(r => {
        const row =
          this.model.pending.editedRows.find(e => e.key === r.key) ??
          this.model.pending.newRows.find(e => e.key === r.key);
        return {
          row: row ? rowLabel(row, this.model.allColumns) : r.key,
          text: refusalText(r)
        };
      });
      await showPlannedRequests(reply.requests, refused);
    } catch (err) {
      this.say((err as Error).message);
    }
  }

  /** Sends one conflicting change again with the version of the write it collided with. */
  async overwrite(key: string): Promise<void> {
    const send = this.model.pending.overwrite(key, this.host().target);
    if (send === undefined) {
      return;
    }
    this.model.pendingUpdated(false);
    await this.saveChanges([send]);
  }

  drop(key: string): void {
    this.model.dropChange(key, this.model.pending.problemOf(key));
    this.say('Your change was dropped; the row shows what is stored.', true);
  }

  private refuse(refusals: readonly EditRefusal[]): void {
    this.model.pending.refuse(refusals);
    this.model.pendingUpdated(false);
    this.say(
      `Nothing was sent: ${plural(refusals.length, 'value')} refused, marked in the grid and listed below.`
    );
    const first = refusals[0];
    if (first) {
      this.pointAt(first);
    }
  }

  /** Shows a refusal under its cell, scrolled into view. */
  private pointAt(refusal: EditRefusal): void {
    const row = this.model.rowOfChange(refusal.key);
    const column = refusal.column
      ? this.model.columns.findIndex(c => c.name === refusal.column)
      : -1;
    if (row === undefined || column < 0) {
      return;
    }
    this.grid.scrollToCell(row, column);
    requestAnimationFrame(() => {
      const x =
        this.grid.headerWidth +
        this.grid.columnOffset('body', column) -
        this.grid.scrollX;
      const y =
        this.grid.headerHeight +
        this.grid.rowOffset('body', row) +
        this.grid.rowSize('body', row) -
        this.grid.scrollY;
      this.note.textContent = refusalText(refusal);
      this.note.style.left = `${Math.max(0, x)}px`;
      this.note.style.top = `${Math.max(0, y)}px`;
      this.note.hidden = false;
    });
  }

  private update(): void {
    const count = this.model.pending.count;
    // The next change (here or from another page) ends what Undo can restore.
    if (count > 0 && this.discarded) {
      this.discarded = undefined;
      this.showUndo(false);
    }
    this.live.textContent =
      count === 0 ? 'No pending changes' : `${plural(count, 'change')} pending`;
    for (const b of [this.save, this.discard, this.show]) {
      b.disabled = count === 0 || this.busy;
    }
    this.grid.node.dataset.pending = String(count);
    if (
      !this.model.pending.editedRows.some(r => r.problem?.kind === 'refused') &&
      !this.model.pending.newRows.some(r => r.problem?.kind === 'refused')
    ) {
      this.note.hidden = true;
    }
    renderProblems(this.problems, this.model.pending, this.model.allColumns, {
      overwrite: key => this.overwrite(key),
      drop: key => this.drop(key),
      locate: key => this.locate(key)
    });
    // Another page's changes came in with this write: show them too (the next write finds nothing new).
    const stored = !this.sync.notStored;
    if (this.sync.store(this.model.pending)) {
      queueMicrotask(() => this.model.pendingUpdated(true));
    }
    if (stored && this.sync.notStored) {
      this.say(
        'The browser refused to keep the pending changes (its storage is full or off): Save them before you reload or close this page.'
      );
    }
  }

  private locate(key: string): void {
    const row = this.model.rowOfChange(key);
    if (row === undefined) {
      return this.say('That row is not loaded: scroll to it, or Refresh.');
    }
    this.grid.selectionModel?.select({
      r1: row,
      c1: 0,
      r2: row,
      c2: this.model.columns.length - 1,
      cursorRow: row,
      cursorColumn: 0,
      clear: 'all'
    });
    this.grid.scrollToRow(row);
  }

  /** The toolbar's button style sets its display, which would show it through `hidden`. */
  private showUndo(shown: boolean): void {
    this.undo.hidden = !shown;
    this.undo.style.display = shown ? '' : 'none';
  }

  private setBusy(busy: boolean, text?: string): void {
    this.busy = busy;
    if (text !== undefined) {
      this.say(text);
    }
    this.update();
  }

  /** `confirmation`: it says something is done, and goes at the next change. */
  private say(text: string, confirmation = false): void {
    this.confirmation = confirmation && text !== '';
    this.refusalShown = false;
    this.message.style.visibility = '';
    this.message.textContent = text;
    if (text === '' || !text.startsWith('Nothing was sent')) {
      this.note.hidden = true;
    }
  }
}
