import { returningFocus } from '../focus/focus-return';

/**
 * A button of the panel's toolbars, styled like JupyterLab's; `title` says what it does. When
 * what it does is over (a dialog closed, a request answered), a keyboard that fell out goes back
 * to the button, or into its tab's grid when the button is gone or disabled.
 */
export function toolbarButton(
  text: string,
  title: string,
  onClick: () => unknown
): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'searchbook-Toolbar-button jp-Button';
  b.textContent = text;
  b.title = title;
  b.addEventListener('click', () => void returningFocus(b, onClick));
  return b;
}

/** Makes `node` a toolbar a screen reader names `label` (the buttons inside are its tools). */
export function toolbarRole(node: HTMLElement, label: string): void {
  node.setAttribute('role', 'toolbar');
  node.setAttribute('aria-label', label);
}
