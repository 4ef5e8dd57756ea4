import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { RunningLab } from './jupyter-lab';
import { suiteChromium, suiteJupyterLab } from './shared-lab';
import {
  type NotebookKernel,
  openNotebook,
  runAllCells,
  writeNotebook
} from './notebook-page';

export const PANEL_TAB =
  '.jp-SideBar.jp-mod-left [data-id="searchbook-sidebar"]';

export interface PanelLabOptions {
  /** The Jupyter root, where the notebook is written. */
  root: string;
  notebook: string;
  /** The notebook's cells (its `%connect` lines), run before the panel opens. */
  cells: string[];
  /** The notebook's kernel, searchbook's by default. */
  kernel?: NotebookKernel;
  env?: Record<string, string>;
  viewport?: { width: number; height: number };
  /** Set-up on the context or the page before the notebook loads (permissions, a websocket tap). */
  beforeOpen?(
    page: Page,
    context: BrowserContext,
    lab: RunningLab
  ): Promise<void> | void;
}

export interface PanelLab {
  lab: RunningLab;
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/**
 * The side panel's browser suites' common start: JupyterLab on `root`, a notebook whose cells
 * ran, in Chromium, with the searchbook panel showing.
 */
export async function openPanelLab(
  options: PanelLabOptions
): Promise<PanelLab> {
  await writeNotebook(
    options.root,
    options.notebook,
    options.cells,
    options.kernel
  );
  const lab = await suiteJupyterLab(options.root, options.env);
  let browser: Browser | undefined;
  try {
    browser = await suiteChromium();
    const context = await browser.newContext({
      viewport: options.viewport ?? { width: 1600, height: 1000 }
    });
    const page = await context.newPage();
    await options.beforeOpen?.(page, context, lab);
    await openNotebook(page, lab.open(options.notebook));
    await runAllCells(page);
    await showPanel(page);
    const opened = browser;
    return {
      lab,
      browser: opened,
      page,
      close: async () => {
        await opened.close();
        await lab.close();
      }
    };
  } catch (err) {
    await browser?.close();
    await lab.close();
    throw err;
  }
}

/** Shows the panel unless it already is (a click on its tab would hide it). */
export async function showPanel(page: Page): Promise<void> {
  const tab = page.locator(PANEL_TAB);
  if (
    !(await tab.evaluate(node => node.classList.contains('lm-mod-current')))
  ) {
    await tab.click();
  }
}

/** An index or collection (level 2) or a connection (level 1) in the panel's tree, by the start of its accessible name. */
export function panelTreeItem(
  page: Page,
  name: string,
  level: 1 | 2 = 2
): Locator {
  return page
    .getByRole('tree', { name: 'searchbook connections' })
    .locator(
      `[role="treeitem"][aria-level="${level}"][aria-label^="${name} · "]`
    );
}

/** Reloads the page, waits until JupyterLab has restored its layout and shows the panel. */
export async function reloadLab(page: Page): Promise<void> {
  await page.reload();
  await page.waitForSelector('.jp-NotebookPanel .jp-Notebook', {
    timeout: 60_000
  });
  // Once the layout is restored the panel's tab says whether it is open; a click before that could close it.
  await page.waitForFunction(
    () =>
      (window as unknown as { jupyterapp?: unknown }).jupyterapp !== undefined,
    undefined,
    { timeout: 60_000 }
  );
  await page.evaluate(
    () =>
      (window as unknown as { jupyterapp: { restored: Promise<void> } })
        .jupyterapp.restored
  );
  await showPanel(page);
}

/**
 * Waits (bounded, about 30 s) until JupyterLab's saved workspace holds `text` (compared
 * without the server's spacing): it is written a moment after a change, and a reload reads it.
 */
export async function workspaceHolds(page: Page, text: string): Promise<void> {
  for (let tries = 0; tries < 150; tries++) {
    const saved = await page.evaluate(async () => {
      const config = JSON.parse(
        document.getElementById('jupyter-config-data')?.textContent ?? '{}'
      ) as { baseUrl?: string; workspace?: string };
      const response = await fetch(
        `${config.baseUrl ?? '/'}lab/api/workspaces/${config.workspace ?? 'default'}`
      );
      return response.ok ? JSON.stringify(await response.json()) : '';
    });
    if (saved.includes(text)) {
      return;
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`the workspace never held ${text}`);
}
