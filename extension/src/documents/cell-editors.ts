import {
  type CellEditor,
  CellEditorController,
  type ICellEditOptions,
  type ICellEditor,
  TextCellEditor
} from '@lumino/datagrid';
import { TextAreaEditor } from './text-area-editor';

/** A one-line editor opening with the given text (not the painted one, where line breaks show as ⏎). */
export class PlainTextEditor extends TextCellEditor {
  constructor(private readonly text: string) {
    super();
  }

  protected override deserialize(): string {
    return this.text;
  }

  protected override startEditing(): void {
    super.startEditing();
    this.input.setAttribute('aria-label', 'Cell value');
  }
}

/**
 * A multi-line editor for JSON cells (arrays, objects, nested parents): Enter adds a line,
 * Ctrl-Enter (⌘-Enter) or Tab keeps the text, Escape drops it. The kernel checks the JSON.
 */
export class JsonTextEditor extends TextAreaEditor {
  constructor(text: string) {
    super(text, {
      className: 'searchbook-JsonEditor',
      label: 'Cell value (JSON)',
      tabKeeps: true
    });
  }
}

/** What decides whether and how a cell is edited. */
export interface EditGate {
  /** Why this cell cannot be edited (read-only, nested leaf, identifier), or undefined. */
  refusal(row: number, column: number): string | undefined;
  /** Work before the editor opens (a cut cell's whole value); undefined when there is none. */
  prepare(row: number, column: number): Promise<void> | undefined;
  editorFor(row: number, column: number): ICellEditor;
  /** Tells the user why editing did not start. */
  refused(message: string): void;
}

/**
 * Lumino's editor controller behind a gate: read-only cells say why instead of opening an
 * editor, and a cut cell opens only once its whole value is loaded.
 */
export class GatedEditorController extends CellEditorController {
  constructor(private readonly gate: EditGate) {
    super();
  }

  override edit(
    cell: CellEditor.CellConfig,
    options?: ICellEditOptions
  ): boolean {
    const why = this.gate.refusal(cell.row, cell.column);
    if (why) {
      this.gate.refused(why);
      return false;
    }
    const open = (): boolean =>
      super.edit(cell, {
        ...options,
        editor: this.gate.editorFor(cell.row, cell.column)
      });
    const ready = this.gate.prepare(cell.row, cell.column);
    if (!ready) {
      return open();
    }
    ready.then(open, (err: Error) => this.gate.refused(err.message));
    return true;
  }
}
