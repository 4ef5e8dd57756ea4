import { TextAreaEditor } from './text-area-editor';

/** Past this many characters a text is edited in the multi-line editor, even on one line. */
const LONG_TEXT = 200;

/** Whether a cell's text edits in the multi-line editor: it has line breaks or is long. */
export function isLongText(text: string): boolean {
  return text.length > LONG_TEXT || /[\r\n]/.test(text);
}

/**
 * A multi-line editor for long text, over the whole of the grid's rows: Enter adds a line,
 * Ctrl-Enter (⌘-Enter) keeps the text, Escape drops it. It opens at the start of the text.
 */
export class LongTextEditor extends TextAreaEditor {
  constructor(text: string) {
    super(text, {
      className: 'searchbook-LongTextEditor',
      label: 'Cell value (Ctrl-Enter keeps it, Escape drops it)',
      tabKeeps: false
    });
  }

  /** The editor covers the grid's rows, not the one cell: a long text needs the room. */
  protected override updatePosition(): void {
    super.updatePosition();
    const grid = this.cell.grid;
    const style = this.editorContainer.style;
    style.left = '0px';
    style.top = '0px';
    style.width = `${grid.viewportWidth - grid.headerWidth}px`;
    style.height = `${grid.viewportHeight - grid.headerHeight}px`;
  }
}
