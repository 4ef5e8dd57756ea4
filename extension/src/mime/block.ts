/** A div holding text (never markup), the building block of the outputs' lines and notices. */
export function block(className: string, text = ''): HTMLElement {
  const node = document.createElement('div');
  node.className = className;
  node.textContent = text;
  return node;
}

/** A warning the user cannot miss (a partial failure), announced to screen readers as an alert. */
export function warningBlock(text: string): HTMLElement {
  const node = block('searchbook-Warning', text);
  node.setAttribute('role', 'alert');
  return node;
}
