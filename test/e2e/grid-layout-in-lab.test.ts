/**
 * Where the panel's grids live and how they lay out, in a real JupyterLab in Chromium on a
 * laptop-sized window: grids open as tabs of one area beside the notebook, come back after a
 * page reload with their filters and sort (or say why they cannot), shrink for the change list
 * under them instead of painting over it, and the sidebar and the filter bar stay whole from
 * the narrowest sidebar to a half-width tab. Screenshots go to test-results/screenshots.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import {
  openPanelLab,
  panelTreeItem,
  showPanel,
  workspaceHolds
} from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { runAllCells, screenshot } from './support/notebook-page';
import {
  addFilterRow,
  cellText,
  editBar,
  filterBar,
  gridOf,
  gridShows,
  gridTab,
  headerPoint,
  openGrid,
  problemsOf,
  typeInto
} from './support/grid-page';

jest.setTimeout(240_000);

const NOTEBOOK = 'layout.ipynb';
const DOCS = 30;
const TAGS = ['red', 'green', 'blue'];
const LONG_NAME = 'orders-archive-kept-for-the-auditors-2026.11.27';
/** Documents tagged red: n = 0, 3, 6, … 27. */
const RED = DOCS / 3;

let servers: ListeningServer[] = [];
let esUrl = '';
let lab: RunningLab;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex(
    'shop',
    { properties: { n: { type: 'long' }, tag: { type: 'keyword' } } },
    Array.from({ length: DOCS }, (_, n) => ({
      id: `p${n}`,
      source: { n, tag: TAGS[n % 3] ?? 'red' }
    }))
  );
  for (const name of ['alpha', 'beta', 'gamma', LONG_NAME]) {
    es.loadIndex(
      name,
      undefined,
      Array.from({ length: 1200 }, (_, n) => ({
        id: `${name}-${n}`,
        source: { n }
      }))
    );
  }
  servers = [await listen(es.handler, { port: 0 })];
  esUrl = servers[0]?.url ?? '';
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-layout-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: NOTEBOOK,
    cells: [`%connect elasticsearch ${esUrl} name=es`],
    viewport: { width: 1280, height: 720 },
    beforeOpen: opened => opened.setDefaultTimeout(30_000)
  }));
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
});

const notebookTab = () =>
  page.locator('#jp-main-dock-panel .lm-TabBar-tab', { hasText: NOTEBOOK });

type Box = { x: number; y: number; width: number; height: number };
async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  if (!b) {
    throw new Error('not on screen');
  }
  return b;
}

/** A header click sorts through the engine; waits for the grid to show the new sort. */
async function clickHeader(
  label: string,
  column: string,
  sort: string
): Promise<void> {
  const point = await headerPoint(page, label, column, { scroll: true });
  await page.mouse.click(point.x, point.y);
  await gridShows(
    page,
    label,
    `return node.dataset.sort === ${JSON.stringify(sort)} && node.dataset.view === 'shown' && Number(node.dataset.loadedRows) > 0`
  );
}

/** How wide the notebook is, against the main area. */
async function notebookShare(): Promise<number> {
  const notebook = await box(page.locator('.jp-NotebookPanel').first());
  const main = await box(page.locator('#jp-main-dock-panel'));
  return notebook.width / main.width;
}

/** The titles of the tabs in each tab bar of the main area. */
async function mainTabBars(): Promise<string[][]> {
  return page
    .locator('#jp-main-dock-panel .lm-DockPanel-tabBar')
    .evaluateAll(bars =>
      bars.map(bar =>
        [...bar.querySelectorAll('.lm-TabBar-tabLabel')].map(
          tab => tab.textContent ?? ''
        )
      )
    );
}

describe('grid tabs beside the notebook', () => {
  it('four grids opened while the notebook is active are tabs of one area: the notebook keeps its width; opening one again brings its tab forward', async () => {
    await panelTreeItem(page, 'shop').waitFor({ timeout: 30_000 });
    for (const target of ['shop', 'alpha', 'beta', 'gamma']) {
      await notebookTab().click();
      await openGrid(page, 'es', target);
    }
    await screenshot(page, 'layout-four-grids');
    expect(await notebookShare()).toBeGreaterThan(0.4);
    const bars = await mainTabBars();
    expect(bars).toHaveLength(2);
    expect(
      bars
        .find(titles => titles.includes('shop · es'))
        ?.slice()
        .sort()
    ).toEqual(['alpha · es', 'beta · es', 'gamma · es', 'shop · es']);

    await notebookTab().click();
    await panelTreeItem(page, 'alpha').dblclick();
    await gridOf(page, 'alpha · es').waitFor({ state: 'visible' });
    expect(await mainTabBars()).toEqual(bars);
    await expect(
      page.locator('.searchbook-DocumentGrid').count()
    ).resolves.toBe(4);
  });
});

describe('grid tabs after a page reload', () => {
  it('come back with their filter and sort applied and the rows they select', async () => {
    const label = 'shop · es';
    await page.getByRole('tab', { name: /^shop · es/ }).click();
    await addFilterRow(page, label, {
      row: 1,
      column: 'tag',
      operator: 'equals',
      value: 'red'
    });
    await filterBar(page, label).getByRole('button', { name: 'Apply' }).click();
    await gridShows(
      page,
      label,
      `return node.getAttribute('aria-rowcount') === '${RED}' && node.dataset.view === 'shown'`
    );
    await clickHeader(label, 'n', '[{"column":"n","direction":"asc"}]');
    await clickHeader(label, 'n', '[{"column":"n","direction":"desc"}]');
    await expect(cellText(page, label, 0, 'n')).resolves.toBe('27');

    // JupyterLab writes its workspace a moment after a change: reload once the view is in it.
    await workspaceHolds(page, '"direction":"desc"');
    await page.reload();
    await gridShows(
      page,
      label,
      `return node.getAttribute('aria-rowcount') === '${RED}' && node.dataset.sort === '[{"column":"n","direction":"desc"}]' && Number(node.dataset.loadedRows) > 0`
    );
    await screenshot(page, 'layout-after-reload');
    await page.getByRole('tab', { name: /^shop · es/ }).click();
    await expect(cellText(page, label, 0, 'n')).resolves.toBe('27');
    await expect(cellText(page, label, RED - 1, 'n')).resolves.toBe('0');
    const restored = filterBar(page, label).getByRole('group', {
      name: 'Filter row 1'
    });
    await expect(
      restored.getByRole('combobox', { name: 'Column' }).inputValue()
    ).resolves.toBe('tag');
    await expect(
      restored.getByRole('textbox', { name: 'Value' }).inputValue()
    ).resolves.toBe('red');
    // The other tabs are back too, in the one area beside the notebook.
    const bars = await mainTabBars();
    expect(bars).toHaveLength(2);
    expect(
      bars
        .find(titles => titles.includes('shop · es'))
        ?.slice()
        .sort()
    ).toEqual(['alpha · es', 'beta · es', 'gamma · es', 'shop · es']);
    await page.getByRole('tab', { name: /^alpha · es/ }).click();
    await gridShows(
      page,
      'alpha · es',
      `return node.getAttribute('aria-rowcount') === '1200'`
    );
    expect(await notebookShare()).toBeGreaterThan(0.4);
  });
});

describe('the change list under the grid', () => {
  it('shrinks the grid, which paints nothing over the list or its buttons, and grows back when the list goes', async () => {
    const label = 'shop · es';
    await page.getByRole('tab', { name: /^shop · es/ }).click();
    await gridShows(page, label, 'return Number(node.dataset.loadedRows) > 0');
    await typeInto(page, label, 0, 'tag', 'crimson');
    // Someone else writes the document meanwhile: Save meets a conflict.
    await fetch(`${esUrl}/shop/_update/p27?refresh=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ doc: { tag: 'scarlet' } })
    });
    await editBar(page, label).getByRole('button', { name: 'Save' }).click();
    const overwrite = problemsOf(page, label).getByRole('button', {
      name: 'Overwrite'
    });
    await overwrite.waitFor({ state: 'visible' });
    await screenshot(page, 'layout-change-list');

    const geometry = () =>
      gridTab(page, label).evaluate((tab: HTMLElement) => {
        const grid = tab.querySelector<HTMLElement>('[role="grid"]');
        const viewport = grid?.querySelector('.lm-DataGrid-viewport');
        const list = tab.querySelector<HTMLElement>('.searchbook-Problems');
        const bar = grid?.querySelector<HTMLElement>(
          '.lm-ScrollBar[data-orientation="horizontal"]'
        );
        const shown = (node: HTMLElement | null | undefined) =>
          node !== null && node !== undefined && node.offsetHeight > 0;
        return {
          gridBottom: grid?.getBoundingClientRect().bottom ?? NaN,
          paintedBottom: viewport?.getBoundingClientRect().bottom ?? NaN,
          scrollBar:
            shown(bar) && !bar?.classList.contains('lm-mod-hidden')
              ? (bar?.offsetHeight ?? 0)
              : 0,
          listTop: shown(list)
            ? (list?.getBoundingClientRect().top ?? NaN)
            : null,
          tabBottom: tab.getBoundingClientRect().bottom
        };
      });
    const withList = await geometry();
    expect(withList.listTop).not.toBeNull();
    expect(withList.gridBottom).toBeLessThanOrEqual(withList.listTop ?? 0);
    expect(withList.paintedBottom).toBeLessThanOrEqual(withList.listTop ?? 0);
    // The buttons are what a click there reaches, not the grid's canvas.
    for (const name of ['Overwrite', 'Drop my change']) {
      const button = problemsOf(page, label).getByRole('button', { name });
      const b = await box(button);
      await expect(
        button.evaluate(
          (node, point) =>
            node.contains(document.elementFromPoint(point.x, point.y)),
          { x: b.x + b.width / 2, y: b.y + b.height / 2 }
        )
      ).resolves.toBe(true);
    }

    await overwrite.click();
    await problemsOf(page, label).waitFor({ state: 'hidden' });
    await gridShows(page, label, `return node.dataset.pending === '0'`);
    await screenshot(page, 'layout-change-list-gone');
    const without = await geometry();
    // The grid takes the room back: its painted rows reach its bottom, no blank band under it.
    expect(without.tabBottom - without.gridBottom).toBeLessThanOrEqual(2);
    expect(
      without.gridBottom - without.paintedBottom - without.scrollBar
    ).toBeLessThanOrEqual(2);
  });
});

describe('the narrowest sidebar and a half-width tab', () => {
  it('the Open… box and the index counts are whole, long names end in an ellipsis with their title; the filter bar stays under a quarter of the tab', async () => {
    await showPanel(page);
    // Dragged as far left as it goes: the sidebar stops at its narrowest width.
    const handle = page
      .locator('#jp-main-split-panel > .lm-SplitPanel-handle')
      .first();
    const h = await box(handle);
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(0, h.y + h.height / 2, { steps: 5 });
    await page.mouse.up();
    const sidebar = page.locator('#searchbook-sidebar');
    const narrow = await box(sidebar);
    expect(narrow.width).toBeLessThan(h.x);

    const label = 'shop · es';
    await page.getByRole('tab', { name: /^shop · es/ }).click();
    const bar = filterBar(page, label);
    await addFilterRow(page, label, {
      row: 2,
      column: 'n',
      operator: 'between',
      value: '0..20'
    });
    await screenshot(page, 'layout-narrow-sidebar-half-tab');

    // Each piece of text in the Open… box and the tree rows is whole (nothing cut to "Oper"), and inside the sidebar.
    const cut = await sidebar.evaluate((panel: HTMLElement) => {
      const right = panel.getBoundingClientRect().right;
      const clipped = (node: HTMLElement) =>
        node.scrollWidth > node.clientWidth ||
        node.getBoundingClientRect().right > right + 0.5;
      const buttons = [
        ...panel.querySelectorAll<HTMLElement>(
          '.searchbook-Sidebar-open > button, .searchbook-Sidebar-tools > button'
        )
      ].filter(clipped);
      // In a tree row the count is whole; a name may end in an ellipsis when its title holds it whole.
      const rows = [
        ...panel.querySelectorAll<HTMLElement>(
          '[role="treeitem"][aria-level="2"] > span'
        )
      ].filter(node => {
        const text = node.textContent ?? '';
        const isName = node.classList.contains('searchbook-Tree-name');
        return (
          clipped(node) &&
          (/documents/.test(text) || (isName && node.title !== text))
        );
      });
      return [...buttons, ...rows].map(
        node => node.textContent || node.getAttribute('aria-label')
      );
    });
    expect(cut).toEqual([]);
    const openButton = sidebar.getByRole('button', {
      name: 'Open',
      exact: true
    });
    await expect(openButton.textContent()).resolves.toBe('Open');
    const long = panelTreeItem(page, LONG_NAME);
    await expect(
      long.getByText('1,200 documents', { exact: false }).isVisible()
    ).resolves.toBe(true);
    await expect(
      long.locator('.searchbook-Tree-name').getAttribute('title')
    ).resolves.toBe(LONG_NAME);

    const tab = await box(gridTab(page, label));
    const main = await box(page.locator('#jp-main-dock-panel'));
    expect(tab.width).toBeLessThan(main.width * 0.6);
    const filters = await box(bar);
    expect(filters.height).toBeLessThan(tab.height * 0.25);
    // Each filter row is one line: no taller than its controls.
    for (const name of ['Filter row 1', 'Filter row 2']) {
      const row = bar.getByRole('group', { name });
      const control = await box(row.getByRole('combobox', { name: 'Column' }));
      expect((await box(row)).height).toBeLessThan(control.height * 1.5);
    }
  });
});

describe('a grid whose connection is gone after a reload', () => {
  it('comes back as a tab saying so, and opens again with its view once the connection is back', async () => {
    const label = 'shop · es';
    await notebookTab().click();
    // Not awaited in the page: the command ends only once its dialog is answered.
    await page.evaluate(() => {
      void (
        window as unknown as {
          jupyterapp: { commands: { execute(id: string): Promise<unknown> } };
        }
      ).jupyterapp.commands.execute('notebook:restart-kernel');
    });
    await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Confirm Kernel Restart' })
      .click();
    await page.waitForFunction(() =>
      /kernel/i.test(
        document.querySelector('.searchbook-DocumentGrid-status')
          ?.textContent ?? ''
      )
    );
    await page.reload();
    const failure = page
      .locator('.searchbook-GridReopenTab')
      .filter({ hasText: 'shop on es could not be opened again' });
    await page.getByRole('tab', { name: /^shop · es/ }).click();
    await failure.waitFor({ state: 'visible', timeout: 60_000 });
    await screenshot(page, 'layout-connection-gone');
    await expect(failure.getByRole('alert').textContent()).resolves.toMatch(
      /Run the %connect cell that opens es/
    );
    await expect(gridOf(page, label).count()).resolves.toBe(0);

    await notebookTab().click();
    await runAllCells(page);
    await page.getByRole('tab', { name: /^shop · es/ }).click();
    await failure.getByRole('button', { name: 'Open again' }).click();
    await gridShows(
      page,
      label,
      `return node.getAttribute('aria-rowcount') === '${RED - 1}' && node.dataset.sort === '[{"column":"n","direction":"desc"}]' && Number(node.dataset.loadedRows) > 0`
    );
  });
});
