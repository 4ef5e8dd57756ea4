import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (package `chromium`), or the one SEARCHBOOK_CHROMIUM names. */
export const CHROMIUM = process.env.SEARCHBOOK_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Debian's Chromium headless shell (package `chromium-headless-shell`): the same Blink and V8 as
 * CHROMIUM, without the full browser's processes and services around the page, which is what
 * Playwright's own builds run for headless pages. A browser suite costs about 3 s less CPU in it
 * (a tenth of the suite), on a machine whose every core a test run keeps busy.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * The browser the tests drive: the headless shell when it is installed, unless
 * SEARCHBOOK_CHROMIUM names a browser; otherwise CHROMIUM.
 */
export const TEST_CHROMIUM =
  process.env.SEARCHBOOK_CHROMIUM ??
  (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);

/**
 * Chromium, headless; playwright-core downloads no browser of its own. The tests run
 * TEST_CHROMIUM; the benchmarks and the docs' pictures keep the full browser users run.
 */
export function launchChromium(
  executablePath: string = CHROMIUM
): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run'
    ]
  });
}
