/** The list's control holding the keyboard: its item's key, the item's place, the control's text. */
interface HeldControl {
  key: string;
  at: number;
  text: string;
}

function heldControl(list: HTMLElement): HeldControl | undefined {
  const active = document.activeElement;
  if (!(active instanceof HTMLButtonElement) || !list.contains(active)) {
    return undefined;
  }
  const item = [...list.children].find(child => child.contains(active));
  const key = (item as HTMLElement | undefined)?.dataset.key;
  if (!item || key === undefined) {
    return undefined;
  }
  return {
    key,
    at: [...list.children].indexOf(item),
    text: active.textContent ?? ''
  };
}

/**
 * Draws a list anew (its items marked with `data-key`) without dropping the keyboard: it stays
 * on the same button of the same item, or, that item gone (settled, deleted), on the same
 * button of the item now in its place, or of the last one. A list left empty holds nothing:
 * whoever ran the action hands the keyboard on.
 */
export function redrawKeepingFocus(
  list: HTMLElement,
  items: readonly HTMLElement[]
): void {
  const held = heldControl(list);
  list.replaceChildren(...items);
  if (!held) {
    return;
  }
  const children = [...list.children] as HTMLElement[];
  const same = children.find(i => i.dataset.key === held.key);
  const next = same ?? children[Math.min(held.at, children.length - 1)];
  const buttons = [
    ...(next?.querySelectorAll<HTMLButtonElement>('button') ?? [])
  ];
  const button =
    buttons.find(b => b.textContent === held.text) ??
    (same ? undefined : buttons[0]);
  button?.focus();
}
