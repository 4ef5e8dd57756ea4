import type { Column } from '@searchbook/contracts/columns';
import type { ColumnLayout } from '../datagrid/column-layout';

export interface ColumnChoices {
  /** Every column, in the order shown (hidden ones where they would be). */
  columns(): readonly Column[];
  layout(): ColumnLayout;
  setShown(name: string, shown: boolean): void;
  setPinned(name: string, pinned: boolean): void;
  reset(): void;
}

/**
 * The grid toolbar's "Columns" button and the list it opens: one row per column with a
 * checkbox that shows or hides it and one that pins it at the left. The last shown column's
 * checkbox is disabled: a grid without columns shows nothing to bring them back from.
 */
export class ColumnChooser {
  readonly button = document.createElement('button');
  private readonly popup = document.createElement('div');

  constructor(private readonly choices: ColumnChoices) {
    this.button.type = 'button';
    this.button.className = 'searchbook-Toolbar-button jp-Button';
    this.button.textContent = 'Columns';
    this.button.title = 'Show, hide and pin columns';
    this.button.setAttribute('aria-haspopup', 'dialog');
    this.button.setAttribute('aria-expanded', 'false');
    this.button.addEventListener('click', () =>
      this.popup.isConnected ? this.close() : this.open()
    );
    this.popup.className = 'searchbook-ColumnChooser';
    this.popup.setAttribute('role', 'dialog');
    this.popup.setAttribute('aria-label', 'Columns');
  }

  get isOpen(): boolean {
    return this.popup.isConnected;
  }

  open(): void {
    this.render();
    const box = this.button.getBoundingClientRect();
    this.popup.style.left = `${Math.round(box.left)}px`;
    this.popup.style.top = `${Math.round(box.bottom + 2)}px`;
    document.body.append(this.popup);
    // Kept inside the window when the button sits near its right edge.
    const room = window.innerWidth - this.popup.offsetWidth - 8;
    if (box.left > room) {
      this.popup.style.left = `${Math.max(0, Math.round(room))}px`;
    }
    this.button.setAttribute('aria-expanded', 'true');
    document.addEventListener('mousedown', this.onOutside, true);
    document.addEventListener('keydown', this.onKey, true);
    this.popup.querySelector('input')?.focus();
  }

  close(): void {
    this.popup.remove();
    this.button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('mousedown', this.onOutside, true);
    document.removeEventListener('keydown', this.onKey, true);
  }

  /** The list again (a column appeared, the layout changed from elsewhere). */
  refresh(): void {
    if (this.isOpen) {
      this.render();
    }
  }

  dispose(): void {
    this.close();
  }

  private readonly onOutside = (event: MouseEvent): void => {
    const target = event.target as Node | null;
    if (
      target &&
      !this.popup.contains(target) &&
      !this.button.contains(target)
    ) {
      this.close();
    }
  };

  /** Escape closes the list wherever the focus went (a re-rendered list drops it). */
  private readonly onKey = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') {
      return;
    }
    const focus = document.activeElement;
    if (
      focus === document.body ||
      focus === null ||
      this.popup.contains(focus) ||
      this.button.contains(focus)
    ) {
      event.stopPropagation();
      this.close();
      this.button.focus();
    }
  };

  private render(): void {
    const layout = this.choices.layout();
    const hidden = new Set(layout.hidden);
    const pinned = new Set(layout.pinned);
    const columns = this.choices.columns();
    const shownCount = columns.filter(c => !hidden.has(c.name)).length;
    const head = document.createElement('div');
    head.className = 'searchbook-ColumnChooser-head';
    head.append(cellText('Shown'), cellText('Pinned'));
    const list = document.createElement('ul');
    list.className = 'searchbook-ColumnChooser-list';
    for (const column of columns) {
      const shown = !hidden.has(column.name);
      const item = document.createElement('li');
      const show = checkbox(column.name, shown, checked =>
        this.choices.setShown(column.name, checked)
      );
      // At least one column stays shown.
      show.input.disabled = shown && shownCount === 1;
      const pin = checkbox(`Pin ${column.name}`, pinned.has(column.name), on =>
        this.choices.setPinned(column.name, on)
      );
      pin.label.classList.add('searchbook-ColumnChooser-pin');
      pin.text.textContent = 'pin';
      item.append(show.label, pin.label);
      list.append(item);
    }
    const reset = document.createElement('button');
    reset.type = 'button';
    reset.className = 'searchbook-Toolbar-button jp-Button';
    reset.textContent = 'Reset columns';
    reset.title =
      'Show every column in the engine’s order, widths fitted, the identifier pinned';
    reset.addEventListener('click', () => this.choices.reset());
    const active = document.activeElement;
    const focused = this.popup.contains(active)
      ? active === this.popup.querySelector(':scope > button')
        ? 'reset'
        : (active as HTMLElement).getAttribute('aria-label')
      : null;
    this.popup.replaceChildren(head, list, reset);
    if (focused === 'reset') {
      reset.focus();
    } else if (focused) {
      [...this.popup.querySelectorAll('input')]
        .find(i => i.getAttribute('aria-label') === focused)
        ?.focus();
    }
  }
}

function cellText(text: string): HTMLElement {
  const span = document.createElement('span');
  span.textContent = text;
  return span;
}

function checkbox(
  name: string,
  checked: boolean,
  changed: (checked: boolean) => void
): { label: HTMLLabelElement; input: HTMLInputElement; text: HTMLElement } {
  const label = document.createElement('label');
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.checked = checked;
  input.setAttribute('aria-label', name);
  input.addEventListener('change', () => changed(input.checked));
  const text = cellText(name);
  label.append(input, text);
  return { label, input, text };
}
