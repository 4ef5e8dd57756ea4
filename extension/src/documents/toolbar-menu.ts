import { CommandRegistry } from '@lumino/commands';
import { Menu } from '@lumino/widgets';
import { openMenuReturningFocus, returningFocus } from '../focus/focus-return';

/** One item of a toolbar's menu button. */
export interface ToolbarMenuItem {
  label: string;
  /** What it does, as the item's tooltip. */
  caption: string;
  run(): unknown;
  /** Disabled items stay listed, greyed, so the menu always has the same shape. */
  isEnabled?(): boolean;
}

/**
 * A toolbar button opening a menu of related actions (Copy ▾: as a cell, as curl, as Python…),
 * so a half-width tab keeps its toolbar to one line, as JupyterLab's toolbars group theirs.
 * Enter, Space or Arrow Down open it with its first item active; Escape or an item picked puts
 * the keyboard back on the button (an item's dialog returns it there too).
 */
export function toolbarMenu(
  text: string,
  title: string,
  items: readonly ToolbarMenuItem[]
): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'searchbook-Toolbar-button searchbook-Toolbar-menu jp-Button';
  b.title = title;
  b.setAttribute('aria-haspopup', 'menu');
  b.setAttribute('aria-expanded', 'false');
  const caret = document.createElement('span');
  caret.className = 'searchbook-Toolbar-caret';
  caret.setAttribute('aria-hidden', 'true');
  caret.textContent = '▾';
  b.append(document.createTextNode(text), caret);
  const open = (fromKeyboard: boolean): void => {
    const commands = new CommandRegistry();
    const menu = new Menu({ commands });
    menu.addClass('searchbook-ToolbarMenu');
    items.forEach((item, i) => {
      const id = `searchbook:toolbar-item-${i}`;
      commands.addCommand(id, {
        label: item.label,
        caption: item.caption,
        isEnabled: () => item.isEnabled?.() ?? true,
        execute: () => void returningFocus(b, () => item.run())
      });
      menu.addItem({ command: id });
    });
    b.setAttribute('aria-expanded', 'true');
    menu.aboutToClose.connect(() => b.setAttribute('aria-expanded', 'false'));
    const box = b.getBoundingClientRect();
    openMenuReturningFocus(
      menu,
      { x: box.left, y: box.bottom },
      () => b.focus(),
      fromKeyboard
    );
  };
  // A click from the keyboard (Enter, Space) has no pointer position: detail is 0.
  b.addEventListener('click', event => open(event.detail === 0));
  b.addEventListener('keydown', event => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      open(true);
    }
  });
  return b;
}
