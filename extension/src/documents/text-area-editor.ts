import { CellEditor } from '@lumino/datagrid';

/** How a multi-line editor looks and what Tab does in it. */
export interface TextAreaLook {
  /** The class of the text area; its container gets the same with `-container`. */
  className: string;
  label: string;
  /** Tab (Shift-Tab) keeps the text and moves to the next (previous) cell. */
  tabKeeps: boolean;
}

/**
 * A multi-line cell editor: Enter adds a line, Ctrl-Enter (⌘-Enter) keeps the text, Escape
 * drops it, and leaving it keeps it. It opens at the start of the text.
 */
export abstract class TextAreaEditor extends CellEditor {
  private textarea!: HTMLTextAreaElement;

  constructor(
    private readonly text: string,
    private readonly look: TextAreaLook
  ) {
    super();
  }

  protected startEditing(): void {
    const area = document.createElement('textarea');
    area.className = `lm-DataGrid-cellEditorWidget ${this.look.className}`;
    area.spellcheck = false;
    area.value = this.text;
    area.setAttribute('aria-label', this.look.label);
    this.editorContainer.classList.add(`${this.look.className}-container`);
    this.editorContainer.appendChild(area);
    this.textarea = area;
    area.addEventListener('keydown', event => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.commit('none');
      } else if (event.key === 'Tab' && this.look.tabKeeps) {
        event.preventDefault();
        event.stopPropagation();
        this.commit(event.shiftKey ? 'left' : 'right');
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
    // Focus alone puts the caret, and the scroll, at the end of a long value.
    area.setSelectionRange(0, 0);
    area.focus();
    area.scrollTop = 0;
  }

  protected getInput(): string {
    return this.textarea.value;
  }
}
