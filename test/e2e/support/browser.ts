import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.SEARCHBOOK_CHROMIUM ?? '/usr/bin/chromium';

/** Debian's Chromium, headless; playwright-core downloads no browser of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
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
