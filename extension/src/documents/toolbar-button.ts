/** A button of the panel's toolbars, styled like JupyterLab's; `title` says what it does. */
export function toolbarButton(
  text: string,
  title: string,
  onClick: () => void
): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'searchbook-Toolbar-button jp-Button';
  b.textContent = text;
  b.title = title;
  b.addEventListener('click', onClick);
  return b;
}
