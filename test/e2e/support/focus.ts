import type { Page } from 'playwright-core';

/** What has the keyboard: `<body>`, or the element's tag, role and name (a button's text). */
export async function focusedIn(page: Page): Promise<string> {
  return page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) {
      return '<body>';
    }
    // A menu button's caret (▾) is hidden from screen readers: not part of its name.
    const name =
      a.getAttribute('aria-label') ??
      (a.textContent ?? '').replace('▾', '').trim();
    return `${a.tagName.toLowerCase()}[${a.getAttribute('role') ?? ''}] ${name}`;
  });
}

/** The keyboard's place once it starts with `expected` (or where it is after 5 s). */
export async function focusLandsOn(
  page: Page,
  expected: string
): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const now = await focusedIn(page);
    if (now.startsWith(expected)) {
      return expected;
    }
    await page.waitForTimeout(50);
  }
  return focusedIn(page);
}
