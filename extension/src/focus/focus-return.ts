import type { Menu } from '@lumino/widgets';

/**
 * Where the keyboard goes back to when the control it came from is gone: the grid of a grid
 * tab, the current item of the panel's tree. Registered by the container that holds controls.
 */
const homes = new WeakMap<Element, () => void>();

/** Makes `focus` the way back into `container` for any control inside it. */
export function setFocusHome(container: Element, focus: () => void): void {
  homes.set(container, focus);
}

/** The way back into the nearest container of `from` that has one. */
export function focusHomeOf(from: Element | null): (() => void) | undefined {
  for (let at = from; at; at = at.parentElement) {
    const home = homes.get(at);
    if (home) {
      return home;
    }
  }
  return undefined;
}

/**
 * Whether the keyboard has fallen out: focus is on <body> or nowhere, which happens when the
 * focused control is removed or disabled, or a menu or dialog closes over a control that is gone.
 */
export function focusLost(): boolean {
  const active = document.activeElement;
  return (
    !active ||
    active === document.body ||
    !active.isConnected ||
    (active as HTMLButtonElement).disabled === true
  );
}

/** A control about to be disabled or removed by its own click: the keyboard goes home once it has. */
export function returnFocusSoon(origin: Element): void {
  const home = focusHomeOf(origin);
  requestAnimationFrame(() => returnFocus(origin, home));
}

/** A control the keyboard can be put back on: still in the page, enabled and shown. */
function usable(node: Element | null): node is HTMLElement {
  return (
    node instanceof HTMLElement &&
    node.isConnected &&
    !(node as HTMLButtonElement).disabled &&
    !node.closest('[hidden]') &&
    node.getClientRects().length > 0
  );
}

/** Puts the keyboard on `origin`, or on its container's home when it is gone or disabled. */
export function focusBack(
  origin: Element | null,
  home: (() => void) | undefined = focusHomeOf(origin)
): void {
  if (usable(origin)) {
    origin.focus();
  } else {
    home?.();
  }
}

/** Puts the keyboard back on `origin`, or its container's home, unless it is somewhere already. */
export function returnFocus(
  origin: Element | null,
  home: (() => void) | undefined = focusHomeOf(origin)
): void {
  if (focusLost()) {
    focusBack(origin, home);
  }
}

/**
 * Runs what a control does (a dialog, a request); when it is done, a keyboard that fell out
 * goes back to the control, or to its container's home when the control is gone or disabled,
 * as the WAI-ARIA dialog and menu patterns ask.
 */
export async function returningFocus<T>(
  origin: Element | null,
  action: () => T | Promise<T>
): Promise<T> {
  // Read now: once the control is removed, its container can no longer be found from it.
  const home = focusHomeOf(origin);
  try {
    return await action();
  } finally {
    returnFocus(origin, home);
  }
}

/**
 * Opens a menu whose closing hands the keyboard back: Escape, or an item picked, puts it on
 * `back` before the item runs, so a dialog the item opens returns it there too. Opened from
 * the keyboard, the first item is active, so arrows, Enter and Escape act at once.
 */
export function openMenuReturningFocus(
  menu: Menu,
  at: { x: number; y: number },
  back: () => void,
  fromKeyboard: boolean
): void {
  menu.aboutToClose.connect(() => {
    const active = document.activeElement;
    if (focusLost() || (active !== null && menu.node.contains(active))) {
      back();
    }
  });
  menu.open(at.x, at.y);
  if (fromKeyboard) {
    menu.activeIndex = 0;
  }
}
