/** A div holding text (never markup), the building block of the outputs' lines and notices. */
export function block(className: string, text = ''): HTMLElement {
  const node = document.createElement('div');
  node.className = className;
  node.textContent = text;
  return node;
}
