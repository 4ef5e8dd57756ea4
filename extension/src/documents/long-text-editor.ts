import { CellEditor } from '@lumino/datagrid';

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
export class LongTextEditor extends CellEditor {
  private textarea!: HTMLTextAreaElement;

  constructor(private readonly text: string) {
    super();
  }

  protected startEditing(): void {
    const area = document.createElement('textarea');
    area.className = 'lm-DataGrid-cellEditorWidget searchbook-LongTextEditor';
    area.spellcheck = false;
    area.value = this.text;
    area.setAttribute(
      'aria-label',
      'Cell value (Ctrl-Enter keeps it, Escape drops it)'
    );
    this.editorContainer.classList.add('searchbook-LongTextEditor-container');
    this.editorContainer.appendChild(area);
    this.textarea = area;
    area.addEventListener('keydown', event => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.commit('none');
      } else if (event.key === 'Escape') {
        this.cancel();
      }
      // Typing stays in the editor: the grid's keys must not move the cursor meanwhile.
      event.stopPropagation();
    });
    area.addEventListener('blur', () => {
      if (!this.isDisposed) {
        this.commit('none');
      }
    });
    area.setSelectionRange(0, 0);
    area.focus();
    area.scrollTop = 0;
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

  protected getInput(): string {
    return this.textarea.value;
  }
}
