/**
 * The grids as keyboard workplaces, in a real JupyterLab in Chromium against the sandbox
 * Elasticsearch, driven by the keyboard as a user without a mouse does: the panel's tree opens
 * a grid with the keyboard in it, the grid is a Tab stop keeping its active cell, arrows and
 * Home/End/Ctrl-Home/End/Page Down move it, Shift-arrows and Ctrl-A select, Alt-S sorts,
 * Alt-Enter reads a value, F2 edits, Delete marks rows, a live region says the active cell;
 * the searchbook commands in the palette and on their keys; a notebook output's grid alike;
 * searchbook's settings changed through JupyterLab's settings registry (rows per block, Match
 * case, rows kept in notebook outputs); and an axe-core check
 * of the panel and an open grid.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import {
  openPanelLab,
  PANEL_TAB,
  panelTreeItem,
  workspaceHolds
} from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { axeFindings } from './support/axe';
import { focusLandsOn } from './support/focus';
import { cellOutput, screenshot } from './support/notebook-page';
import {
  editBar,
  filterBar,
  gridOf,
  gridTab,
  openGrid,
  problemsOf,
  statusLine,
  targetInTree
} from './support/grid-page';

jest.setTimeout(180_000);

const DOCS = 30;
/** More rows than a screen shows: a grid reads only the blocks it shows. */
const MANY = 1000;

let server: ListeningServer;
let otherServer: ListeningServer;
let lab: RunningLab;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  const mappings = {
    properties: { title: { type: 'keyword' }, n: { type: 'long' } }
  };
  es.loadIndex(
    'books',
    mappings,
    Array.from({ length: DOCS }, (_, n) => ({
      id: `b${n}`,
      source: { title: `Book ${n}`, n }
    }))
  );
  // A title set to null and one set to an empty text: a blank cell says which.
  es.loadIndex('films', mappings, [
    { id: 'f0', source: { title: 'Film 0', n: 0 } },
    { id: 'f1', source: { title: null, n: 1 } },
    { id: 'f2', source: { title: '', n: 2 } }
  ]);
  // One name on two connections: their tabs must tell them apart.
  es.loadIndex('products', mappings, [
    { id: 'p0', source: { title: 'Product 0', n: 0 } }
  ]);
  const other = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  other.loadIndex('products', mappings, [
    { id: 'q0', source: { title: 'Other product', n: 0 } }
  ]);
  otherServer = await listen(other.handler, { port: 0 });
  es.loadIndex(
    'many',
    mappings,
    Array.from({ length: MANY }, (_, n) => ({
      id: `m${n}`,
      source: { title: `Item ${n}`, n }
    }))
  );
  server = await listen(es.handler, { port: 0 });
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-keyboard-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'keys.ipynb',
    cells: [
      // Connected first, so the queries below run on es.
      `%connect elasticsearch ${otherServer.url} name=es2`,
      `%connect elasticsearch ${server.url} name=es`,
      'GET /books/_search\n{"size": 5, "sort": [{"n": "asc"}]}',
      'GET /books/_search\n{"size": 20, "sort": [{"n": "asc"}]}'
    ],
    beforeOpen: async (_page, context, running) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: running.url
      });
    }
  }));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await server?.close();
  await otherServer?.close();
});

const announcerOf = (grid: Locator): Locator =>
  grid.locator('xpath=..').locator('[data-grid-announcer]');
const focusedLabel = () =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
const columnsOf = async (grid: Locator): Promise<string[]> =>
  JSON.parse((await grid.getAttribute('data-columns')) ?? '[]') as string[];

/** The live region's text once it matches (what a screen reader was last told), or what it says after 10 s. */
async function said(grid: Locator, pattern: RegExp): Promise<string> {
  const announcer = announcerOf(grid);
  for (let tries = 0; tries < 200; tries++) {
    const text = (await announcer.textContent()) ?? '';
    if (pattern.test(text)) {
      return text;
    }
    await page.waitForTimeout(50);
  }
  return (await announcer.textContent()) ?? '';
}

/** A JupyterLab notification's text, once shown. */
async function toast(text: string): Promise<void> {
  await page
    .locator('.jp-toast-message', { hasText: text })
    .first()
    .waitFor({ timeout: 15_000 });
}

async function toColumn(grid: Locator, name: string): Promise<void> {
  await page.keyboard.press('Home');
  const index = (await columnsOf(grid)).indexOf(name);
  expect(index).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < index; i++) {
    await page.keyboard.press('ArrowRight');
  }
}

const pendingOf = (label: string) =>
  gridTab(page, label).locator('.searchbook-EditBar-count');

async function pendingIs(label: string, text: string): Promise<string> {
  for (let tries = 0; tries < 200; tries++) {
    const now = (await pendingOf(label).textContent()) ?? '';
    if (now === text) {
      return now;
    }
    await page.waitForTimeout(50);
  }
  return (await pendingOf(label).textContent()) ?? '';
}

describe('a panel grid by keyboard', () => {
  const books = () => gridOf(page, 'books · es');

  it('Enter on an index in the tree opens its grid with the keyboard in it, and the live region says the active cell', async () => {
    const item = panelTreeItem(page, 'books');
    await item.waitFor({ timeout: 30_000 });
    await item.focus();
    await page.keyboard.press('Enter');
    await books().waitFor({ timeout: 30_000 });
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'books · es',
      undefined,
      { timeout: 10_000 }
    );
    await expect(books().getAttribute('tabindex')).resolves.toBe('0');
    await expect(books().getAttribute('aria-rowcount')).resolves.toBe(
      String(DOCS)
    );
    await expect(said(books(), /^_id, row 1 of 30 rows: b0$/)).resolves.toBe(
      '_id, row 1 of 30 rows: b0'
    );
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await toColumn(books(), 'title');
    await expect(said(books(), /^title, row 3/)).resolves.toBe(
      'title, row 3 of 30 rows: Book 2'
    );
    // The cell a screen reader follows in the grid itself.
    const active = await books().getAttribute('aria-activedescendant');
    await expect(page.locator(`[id="${active}"]`).textContent()).resolves.toBe(
      'title: Book 2'
    );
  });

  it('is a Tab stop that keeps its active cell when the keyboard leaves and comes back', async () => {
    await page.keyboard.press('Shift+Tab');
    await expect(focusedLabel()).resolves.not.toBe('books · es');
    await page.keyboard.press('Tab');
    await expect(focusedLabel()).resolves.toBe('books · es');
    await expect(said(books(), /^title, row 3/)).resolves.toBe(
      'title, row 3 of 30 rows: Book 2'
    );
  });

  it('Home, End, Ctrl-End, Ctrl-Home and Page Down move the active cell', async () => {
    const columns = await columnsOf(books());
    const lastColumn = columns[columns.length - 1] ?? '';
    await page.keyboard.press('End');
    await expect(
      said(books(), new RegExp(`^${lastColumn}, row 3`))
    ).resolves.toMatch(new RegExp(`^${lastColumn}, row 3 of 30 rows`));
    await page.keyboard.press('Home');
    await expect(said(books(), /^_id, row 3/)).resolves.toBe(
      '_id, row 3 of 30 rows: b2'
    );
    await page.keyboard.press('Control+End');
    await expect(said(books(), /row 30 of/)).resolves.toMatch(
      new RegExp(`^${lastColumn}, row 30 of 30 rows`)
    );
    await page.keyboard.press('Control+Home');
    await expect(said(books(), /^_id, row 1 of/)).resolves.toBe(
      '_id, row 1 of 30 rows: b0'
    );
    await page.keyboard.press('PageDown');
    await expect(said(books(), /^_id, row (?!1 )\d+/)).resolves.toMatch(
      /^_id, row \d+ of 30 rows: b\d+$/
    );
    await page.keyboard.press('Control+Home');
  });

  it('Shift-arrows select a range and Ctrl-A every cell; Ctrl-C copies them', async () => {
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Control+C');
    await toast('Copied 3 rows × 1 column as TSV.');
    await expect(
      page.evaluate(() => navigator.clipboard.readText())
    ).resolves.toBe('_id\nb0\nb1\nb2');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+C');
    const columns = await columnsOf(books());
    await toast(`Copied 30 rows × ${columns.length} columns as TSV.`);
    await page.keyboard.press('Escape');
    await expect(said(books(), /^_id, row 1 of/)).resolves.toBe(
      '_id, row 1 of 30 rows: b0'
    );
  });

  it('Alt-S sorts by the active column (again: descending); the active cell stays', async () => {
    await toColumn(books(), 'n');
    await page.keyboard.press('Alt+S');
    await page.waitForFunction(
      () =>
        document
          .querySelector('[aria-label="books · es"][role="grid"]')
          ?.getAttribute('data-sort') === '[{"column":"n","direction":"asc"}]'
    );
    await page.keyboard.press('Alt+S');
    await expect(said(books(), /^n, row 1 of 30 rows: 29$/)).resolves.toBe(
      'n, row 1 of 30 rows: 29'
    );
    await expect(focusedLabel()).resolves.toBe('books · es');
    await page.keyboard.press('Alt+S');
    await expect(said(books(), /^n, row 1 of 30 rows: 0$/)).resolves.toBe(
      'n, row 1 of 30 rows: 0'
    );
  });

  it('Alt-Enter shows the active cell’s whole value; Escape closes it and the keyboard stays in the grid', async () => {
    await toColumn(books(), 'title');
    await page.keyboard.press('Alt+Enter');
    const view = gridTab(page, 'books · es').locator('.searchbook-ValueView');
    await view.waitFor();
    await expect(
      view.locator('.searchbook-ValueView-title').textContent()
    ).resolves.toBe('title · row 1');
    await expect(
      view.locator('.searchbook-ValueView-body').textContent()
    ).resolves.toBe('Book 0');
    await expect(axeViolations(['.searchbook-ValueView'])).resolves.toEqual([]);
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'hidden' });
    await expect(focusedLabel()).resolves.toBe('books · es');
  });

  it('F2 edits the active cell, Delete marks the selected row, Ctrl-S saves both to the engine', async () => {
    await page.keyboard.press('F2');
    const editor = books().locator('.lm-DataGrid-cellEditorWidget');
    await editor.waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Renamed');
    await page.keyboard.press('Enter');
    await editor.waitFor({ state: 'detached' });
    await expect(pendingIs('books · es', '1 change pending')).resolves.toBe(
      '1 change pending'
    );
    await expect(focusedLabel()).resolves.toBe('books · es');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await expect(said(books(), /^_id, row 2 of/)).resolves.toBe(
      '_id, row 2 of 30 rows: b1'
    );
    await page.keyboard.press('Delete');
    await expect(pendingIs('books · es', '2 changes pending')).resolves.toBe(
      '2 changes pending'
    );
    await page.keyboard.press('Control+S');
    await expect(pendingIs('books · es', 'No pending changes')).resolves.toBe(
      'No pending changes'
    );
    const renamed = (await (
      await fetch(`${server.url}/books/_doc/b0`)
    ).json()) as { _source?: { title?: string } };
    expect(renamed._source?.title).toBe('Renamed');
    expect((await fetch(`${server.url}/books/_doc/b1`)).status).toBe(404);
  });
});

describe('searchbook commands', () => {
  const books = () => gridOf(page, 'books · es');

  it('are in the palette under searchbook, grid commands disabled while a notebook is current', async () => {
    await page.getByRole('tab', { name: /keys\.ipynb/ }).click();
    await page.keyboard.press('Control+Shift+C');
    const palette = page.locator('#modal-command-palette');
    await palette.locator('input').waitFor();
    await page.keyboard.type('searchbook');
    const item = (label: string) =>
      palette.locator('.lm-CommandPalette-item', { hasText: label });
    await item('Show the searchbook panel').waitFor();
    await item('Open an index or collection').waitFor();
    await expect(
      palette
        .locator('.lm-CommandPalette-header', { hasText: 'searchbook' })
        .count()
    ).resolves.toBeGreaterThan(0);
    // JupyterLab's palette hides what cannot run now: the grid commands, with no grid current.
    const refresh = item('Refresh the document grid');
    await expect(refresh.getAttribute('class')).resolves.toContain(
      'lm-mod-disabled'
    );
    await expect(refresh.isVisible()).resolves.toBe(false);
    await screenshot(page, 'keyboard-palette');
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'hidden' });
  });

  it('activating a grid tab puts the keyboard in its grid; Ctrl-F goes to its filter bar', async () => {
    await page.getByRole('tab', { name: /books · es/ }).click();
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'books · es'
    );
    await page.keyboard.press('Control+F');
    await expect(
      page.evaluate(
        () => document.activeElement?.closest('.searchbook-FilterBar') !== null
      )
    ).resolves.toBe(true);
  });

  it('copy as cell and as curl, refresh, export and discard on their keys act on the current grid', async () => {
    await page.keyboard.press('Alt+Shift+C');
    await toast('Copied the request as a console cell.');
    await expect(
      page.evaluate(() => navigator.clipboard.readText())
    ).resolves.toMatch(/^%use es\n/);
    await page.keyboard.press('Alt+Shift+U');
    await toast('Copied the request as a curl command.');
    await expect(
      page.evaluate(() => navigator.clipboard.readText())
    ).resolves.toMatch(/^curl /);

    // A document written behind the grid's back shows after F5.
    await fetch(`${server.url}/books/_doc/b99?refresh=true`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Book 99', n: 99 })
    });
    await books().focus();
    await page.keyboard.press('F5');
    await page.waitForFunction(
      () =>
        document
          .querySelector('[aria-label="books · es"][role="grid"]')
          ?.getAttribute('aria-rowcount') === '30'
    );

    await page.keyboard.press('Alt+Shift+X');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain('books');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: /books · es/ }).click();
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'books · es'
    );
    await toColumn(books(), 'title');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Typed');
    await page.keyboard.press('Enter');
    await expect(pendingIs('books · es', '1 change pending')).resolves.toBe(
      '1 change pending'
    );
    await page.keyboard.press('Alt+Shift+D');
    await expect(pendingIs('books · es', 'No pending changes')).resolves.toBe(
      'No pending changes'
    );
  });

  it('open an index by name: Alt-Shift-O lists the targets, the chosen one opens with the keyboard in it', async () => {
    await page.keyboard.press('Alt+Shift+O');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const input = dialog.locator('input');
    await expect(
      dialog
        .locator('datalist option')
        .evaluateAll(options =>
          options.map(o => (o as HTMLOptionElement).value)
        )
    ).resolves.toEqual(expect.arrayContaining(['books · es', 'films · es']));
    await input.fill('films · es');
    await page.keyboard.press('Enter');
    await gridOf(page, 'films · es').waitFor({ timeout: 30_000 });
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'films · es'
    );
  });

  it('Alt-Shift-S shows the panel with the keyboard in its tree', async () => {
    await page
      .locator('.jp-SideBar.jp-mod-left [data-id="filebrowser"]')
      .click();
    await page.keyboard.press('Alt+Shift+S');
    await page.waitForFunction(
      () =>
        document.activeElement?.closest('#searchbook-sidebar') !== null &&
        document.activeElement?.getAttribute('role') === 'treeitem'
    );
    await screenshot(page, 'keyboard-panel');
  });
});

describe('a notebook output grid by keyboard', () => {
  it('is a Tab stop after the output’s buttons; arrows move its active cell, letters stay in it', async () => {
    await page.getByRole('tab', { name: /keys\.ipynb/ }).click();
    const output = cellOutput(page, 2);
    const grid = output.getByRole('grid');
    await grid.waitFor();
    const cells = page.locator('.jp-Notebook .jp-Cell');
    const before = await cells.count();
    await output.locator('.searchbook-Toolbar-button').last().focus();
    await page.keyboard.press('Tab');
    await expect(
      page.evaluate(() => document.activeElement?.getAttribute('role'))
    ).resolves.toBe('grid');
    await expect(said(grid, /, row 1 of 5 rows: /)).resolves.toMatch(
      /^\S+, row 1 of 5 rows: /
    );
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await expect(said(grid, /row 2 of 5/)).resolves.toMatch(
      /, row 2 of 5 rows: /
    );
    // D, D is the notebook's "delete cell" in command mode: typed in the grid it is the grid's.
    await page.keyboard.press('d');
    await page.keyboard.press('d');
    await expect(cells.count()).resolves.toBe(before);
    await page.keyboard.press('Alt+Enter');
    await output.locator('.searchbook-ValueView').waitFor();
    await page.keyboard.press('Escape');
    await output.locator('.searchbook-ValueView').waitFor({ state: 'hidden' });
  });
});

/** Sets one of searchbook's settings through JupyterLab's settings registry, as the Settings Editor does. */
async function setSetting(key: string, value: unknown): Promise<void> {
  await page.evaluate(
    async ({ key, value }) => {
      interface Registry {
        set(plugin: string, key: string, value: unknown): Promise<void>;
      }
      const app = (
        window as unknown as {
          jupyterapp: {
            pluginRegistry: { _services: Map<{ name: string }, string> };
            resolveRequiredService(token: unknown): Promise<Registry>;
          };
        }
      ).jupyterapp;
      const token = [...app.pluginRegistry._services.keys()].find(
        t => t.name === '@jupyterlab/coreutils:ISettingRegistry'
      );
      const registry = await app.resolveRequiredService(token);
      await registry.set('searchbook:settings', key, value);
    },
    { key, value }
  );
}

describe('searchbook settings', () => {
  const many = () => gridOf(page, 'many · es');
  const status = () => statusLine(page, 'many · es').textContent();
  const matchCase = () =>
    gridTab(page, 'many · es')
      .getByRole('checkbox', { name: 'Match case' })
      .isChecked();

  /** Opens `many` from the tree by keyboard and waits until no block is loading. */
  async function openMany(): Promise<string> {
    await page.keyboard.press('Alt+Shift+S');
    const item = panelTreeItem(page, 'many');
    await item.waitFor({ timeout: 30_000 });
    await item.focus();
    await page.keyboard.press('Enter');
    await many().waitFor({ timeout: 30_000 });
    await page.waitForFunction(
      () => {
        const grid = document.querySelector(
          '[aria-label="many · es"][role="grid"]'
        );
        return (
          Number(grid?.getAttribute('data-loaded-rows')) > 0 &&
          grid?.getAttribute('aria-busy') === 'false'
        );
      },
      undefined,
      { timeout: 30_000 }
    );
    return (await status()) ?? '';
  }

  it('rows per block and Match case by default, set in the settings registry, apply to the next grid opened', async () => {
    await expect(openMany()).resolves.toMatch(/^1,000 of 1,000 rows loaded/);
    await expect(matchCase()).resolves.toBe(false);
    await page
      .getByRole('tab', { name: /many · es/ })
      .locator('.lm-TabBar-tabCloseIcon')
      .click();
    await many().waitFor({ state: 'detached' });

    await setSetting('rowsPerBlock', 10);
    await setSetting('matchCaseByDefault', true);
    // Blocks of 10: only those on screen (and those sampled to fit column widths) are read.
    const loaded = Number(
      /^([\d,]+) of 1,000 rows loaded/
        .exec(await openMany())?.[1]
        ?.replace(/,/g, '')
    );
    expect(loaded).toBeGreaterThanOrEqual(10);
    expect(loaded).toBeLessThan(MANY);
    expect(loaded % 10).toBe(0);
    await expect(matchCase()).resolves.toBe(true);
  });

  it('rows kept in notebook outputs, set in the settings registry, cap the next cell run in the notebook', async () => {
    const output = cellOutput(page, 3);
    const grid = output.getByRole('grid');
    await page.getByRole('tab', { name: /keys\.ipynb/ }).click();
    await grid.waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe(String(20));
    await expect(output.locator('.searchbook-Omitted').count()).resolves.toBe(
      0
    );

    await setSetting('rowsKeptInOutputs', 5);
    await page.evaluate(() => {
      const app = (
        window as unknown as {
          jupyterapp: {
            shell: { currentWidget: { content: { activeCellIndex: number } } };
            commands: { execute(id: string): Promise<unknown> };
          };
        }
      ).jupyterapp;
      app.shell.currentWidget.content.activeCellIndex = 3;
      return app.commands.execute('notebook:run-cell');
    });
    const omitted = output.locator('.searchbook-Omitted');
    await omitted.waitFor({ timeout: 30_000 });
    await expect(omitted.textContent()).resolves.toBe(
      "15 more rows were left out of the notebook to keep it small; raise Rows kept in notebook outputs in searchbook's settings (or SEARCHBOOK_MAX_ROWS) and run the cell again to keep more, or page through the rest with the request's own paging parameters."
    );
    expect(await grid.getAttribute('aria-rowcount')).toBe(String(5));
    await screenshot(page, 'settings-rows-kept');
    await setSetting('rowsKeptInOutputs', null);
  });
});

const focusOn = (expected: string): Promise<string> =>
  focusLandsOn(page, expected);
const axeViolations = (selectors: string[]): Promise<string[]> =>
  axeFindings(page, selectors);

const ON_BOOKS = 'div[grid] books · es';
const button = (name: string) => `button[] ${name}`;

async function dialogOpen(): Promise<Locator> {
  const dialog = page.locator('.jp-Dialog');
  await dialog.waitFor();
  return dialog;
}

async function dialogClosed(): Promise<void> {
  await page.locator('.jp-Dialog').waitFor({ state: 'detached' });
}

/** The grid's row count once it is `count`; else, after 15 s, what the grid and its status say. */
async function rowsShown(label: string, count: string): Promise<string> {
  const grid = gridOf(page, label);
  for (let tries = 0; tries < 300; tries++) {
    if ((await grid.getAttribute('aria-rowcount')) === count) {
      return count;
    }
    await page.waitForTimeout(50);
  }
  return `${await grid.getAttribute('aria-rowcount')} rows; ${await statusLine(page, label).textContent()}; ${await grid.locator('.searchbook-DocumentGrid-viewState').textContent()}; filter ${JSON.stringify(await filterBar(page, label).evaluate(n => [...n.querySelectorAll('input,select')].map(i => (i as HTMLInputElement).value)))}`;
}

/** Opens the active cell's menu with Shift-F10 and picks its item `index` (by arrows), or closes it with Escape. */
async function cellMenuByKeys(index: number | 'Escape'): Promise<void> {
  await page.keyboard.press('Shift+F10');
  const menu = page.locator('.searchbook-CellMenu');
  await menu.waitFor();
  if (index === 'Escape') {
    await page.keyboard.press('Escape');
  } else {
    for (let i = 0; i < index; i++) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
  }
  await menu.waitFor({ state: 'detached' });
}

/** Enter on a toolbar control of the books tab, reached by the keyboard. */
async function pressOn(name: string): Promise<void> {
  await gridTab(page, 'books · es')
    .getByRole('button', { name, exact: true })
    .focus();
  await page.keyboard.press('Enter');
}

async function typeInCell(text: string): Promise<void> {
  await page.keyboard.press('F2');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

describe('focus never falls out: every menu, dialog and toolbar action hands it back', () => {
  const books = () => gridOf(page, 'books · es');

  beforeAll(async () => {
    await page.keyboard.press('Alt+Shift+S');
    await openGrid(page, 'es', 'books');
    await page.getByRole('tab', { name: /books · es/ }).click();
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);
    await page.keyboard.press('Control+Home');
    await toColumn(books(), 'title');
  });

  it('the cell menu (Shift-F10): Escape, View document, Edit as JSON (Cancel, Apply), Duplicate row, Filter by this value, Export… each end on the cell', async () => {
    await cellMenuByKeys('Escape');
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);

    await cellMenuByKeys(0);
    await dialogOpen();
    await expect(axeViolations(['.jp-Dialog'])).resolves.toEqual([]);
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);

    await cellMenuByKeys(1);
    await (await dialogOpen()).locator('textarea').waitFor();
    await expect(axeViolations(['.jp-Dialog'])).resolves.toEqual([]);
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);
    await cellMenuByKeys(1);
    await (await dialogOpen()).locator('textarea').waitFor();
    await page.keyboard.press('Control+Enter');
    await dialogClosed();
    await toast('No field changed: the document is as stored.');
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);

    await cellMenuByKeys(2);
    await expect(pendingIs('books · es', '1 change pending')).resolves.toBe(
      '1 change pending'
    );
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);
    await page.keyboard.press('Alt+Shift+D');
    await expect(pendingIs('books · es', 'No pending changes')).resolves.toBe(
      'No pending changes'
    );
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);

    await page.keyboard.press('Control+Home');
    await toColumn(books(), 'title');
    await cellMenuByKeys(3);
    await expect(rowsShown('books · es', '1')).resolves.toBe('1');
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);
    // Ctrl-F to the filter bar, its Clear, then Escape: back in the grid.
    await page.keyboard.press('Control+F');
    await filterBar(page, 'books · es')
      .getByRole('button', { name: 'Clear' })
      .focus();
    await page.keyboard.press('Enter');
    await expect(rowsShown('books · es', '30')).resolves.toBe('30');
    await page.keyboard.press('Escape');
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);

    await cellMenuByKeys(5);
    await dialogOpen();
    await expect(axeViolations(['.jp-Dialog'])).resolves.toEqual([]);
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);
  });

  it('the toolbar: Copy ▾ and Document ▾ menus, Refresh, Columns, Show requests and Save end on their button (or the cell, the button disabled)', async () => {
    await pressOn('Copy');
    const menu = page.locator('.searchbook-ToolbarMenu');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect(focusOn(button('Copy'))).resolves.toBe(button('Copy'));
    await pressOn('Copy');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await toast('Copied the request as a curl command.');
    await expect(focusOn(button('Copy'))).resolves.toBe(button('Copy'));

    await pressOn('Document');
    await menu.waitFor();
    await page.keyboard.press('Enter');
    await dialogOpen();
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(button('Document'))).resolves.toBe(button('Document'));

    await pressOn('Refresh');
    await expect(focusOn(button('Refresh'))).resolves.toBe(button('Refresh'));
    await pressOn('Columns');
    await page.keyboard.press('Escape');
    await expect(focusOn(button('Columns'))).resolves.toBe(button('Columns'));

    await books().focus();
    await page.keyboard.press('Control+Home');
    await toColumn(books(), 'title');
    await typeInCell('Asked');
    await pressOn('Show requests');
    await dialogOpen();
    await expect(axeViolations(['.jp-Dialog'])).resolves.toEqual([]);
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(button('Show requests'))).resolves.toBe(
      button('Show requests')
    );
    await pressOn('Save');
    await expect(pendingIs('books · es', 'No pending changes')).resolves.toBe(
      'No pending changes'
    );
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);
  });

  it('Alt-Shift-P copies the grid’s request as Python; Alt-Shift-Left/Right move the active column, the cell going with it', async () => {
    await page.keyboard.press('Alt+Shift+P');
    await toast('Copied the request as Python.');
    await expect(
      page.evaluate(() => navigator.clipboard.readText())
    ).resolves.toContain('/books/_search');

    await toColumn(books(), 'title');
    const before = await columnsOf(books());
    const at = before.indexOf('title');
    await page.keyboard.press('Alt+Shift+ArrowLeft');
    await expect(said(books(), /^title moved to column/)).resolves.toBe(
      `title moved to column ${at} of ${before.length}.`
    );
    const moved = await columnsOf(books());
    expect(moved.indexOf('title')).toBe(at - 1);
    expect(moved[at]).toBe(before[at - 1]);
    await page.keyboard.press('Alt+Shift+ArrowRight');
    await expect(said(books(), /^title moved to column/)).resolves.toBe(
      `title moved to column ${at + 1} of ${before.length}.`
    );
    await expect(columnsOf(books())).resolves.toEqual(before);
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);
  });

  it('Discard asks for two edits of one row, Cancel the default button; Enter keeps them', async () => {
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowDown');
    await toColumn(books(), 'title');
    await typeInCell('Edited');
    await toColumn(books(), 'n');
    await typeInCell('77');
    await expect(pendingIs('books · es', '1 change pending')).resolves.toBe(
      '1 change pending'
    );
    await page.keyboard.press('Alt+Shift+D');
    const dialog = await dialogOpen();
    await expect(dialog.textContent()).resolves.toContain(
      'Discard 2 pending changes (in 1 row)?'
    );
    await expect(focusOn(button('Cancel'))).resolves.toBe(button('Cancel'));
    await expect(axeViolations(['.jp-Dialog'])).resolves.toEqual([]);
    await page.keyboard.press('Enter');
    await dialogClosed();
    await expect(pendingOf('books · es').textContent()).resolves.toBe(
      '1 change pending'
    );
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);
    await page.keyboard.press('Alt+Shift+D');
    await dialogOpen();
    await page.keyboard.press('Tab');
    await expect(focusOn(button('Discard'))).resolves.toBe(button('Discard'));
    await page.keyboard.press('Enter');
    await expect(pendingIs('books · es', 'No pending changes')).resolves.toBe(
      'No pending changes'
    );
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);
  });

  it('a refusal in the editing bar goes when the active cell moves on', async () => {
    await toColumn(books(), '_id');
    await page.keyboard.press('F2');
    const message = editBar(page, 'books · es').locator(
      '.searchbook-EditBar-message'
    );
    await expect(message.textContent()).resolves.toMatch(
      /^_id identifies the document/
    );
    await page.keyboard.press('ArrowDown');
    await message.waitFor({ state: 'hidden', timeout: 5_000 });
  });

  it('three conflicts are all in sight with their Overwrite and Drop my change; each keeps the keyboard in the list, the last hands it to the grid', async () => {
    const ids: string[] = [];
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('ArrowDown');
      await toColumn(books(), '_id');
      ids.push((await said(books(), /^_id, row/)).replace(/^.*: /, ''));
      await toColumn(books(), 'title');
      await typeInCell(`Mine ${i}`);
    }
    for (const id of ids) {
      await fetch(`${server.url}/books/_update/${id}?refresh=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ doc: { title: `Theirs ${id}` } })
      });
    }
    await page.keyboard.press('Control+S');
    const problems = problemsOf(page, 'books · es');
    const conflicts = problems.locator('.searchbook-mod-conflict');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('.searchbook-Problem.searchbook-mod-conflict')
          .length === 3
    );
    // The confirmations of the steps before close by themselves: the list as it stays.
    await page
      .locator('.jp-toast-message')
      .first()
      .waitFor({ state: 'detached', timeout: 15_000 })
      .catch(() => undefined);
    await screenshot(page, 'keyboard-three-conflicts');
    // Nothing scrolled out of the list: every button is inside its box.
    await expect(
      problems.evaluate(node => {
        const box = node.getBoundingClientRect();
        return [...node.querySelectorAll('button')]
          .filter(b => {
            const r = b.getBoundingClientRect();
            return r.top < box.top - 1 || r.bottom > box.bottom + 1;
          })
          .map(b => b.textContent);
      })
    ).resolves.toEqual([]);
    await expect(
      problems.getByRole('button', { name: 'Overwrite' }).count()
    ).resolves.toBe(3);
    // Listed in the order the rows were changed, as they stand in the grid.
    await expect(
      conflicts.evaluateAll(items =>
        items.map(item => item.getAttribute('aria-label'))
      )
    ).resolves.toEqual(
      ids.map(id => `_id ${id} in books: changed by someone else`)
    );

    await conflicts.first().getByRole('button', { name: 'Overwrite' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('.searchbook-Problem.searchbook-mod-conflict')
          .length === 2
    );
    await expect(focusOn(button('Overwrite'))).resolves.toBe(
      button('Overwrite')
    );
    await page.keyboard.press('Tab');
    await expect(focusOn(button('Drop my change'))).resolves.toBe(
      button('Drop my change')
    );
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('.searchbook-Problem.searchbook-mod-conflict')
          .length === 1
    );
    await expect(focusOn(button('Drop my change'))).resolves.toBe(
      button('Drop my change')
    );
    await page.keyboard.press('Shift+Tab');
    await expect(focusOn(button('Overwrite'))).resolves.toBe(
      button('Overwrite')
    );
    await page.keyboard.press('Enter');
    await expect(pendingIs('books · es', 'No pending changes')).resolves.toBe(
      'No pending changes'
    );
    await expect(focusOn(ON_BOOKS)).resolves.toBe(ON_BOOKS);
  });

  it('the panel: the tree item’s menu (Escape, Export…) ends on its item, the export says it is done in a notification, and the panel with it listed has no serious axe finding', async () => {
    await page.keyboard.press('Alt+Shift+S');
    const item = panelTreeItem(page, 'books');
    await item.focus();
    const onItem = 'li[treeitem] books · ';
    await expect(focusOn(onItem)).resolves.toBe(onItem);
    await page.keyboard.press('Shift+F10');
    const menu = page.locator('.searchbook-TargetMenu');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect(focusOn(onItem)).resolves.toBe(onItem);

    await page.keyboard.press('Shift+F10');
    await menu.waitFor();
    await page.keyboard.press('Enter');
    const dialog = await dialogOpen();
    await expect(axeViolations(['.jp-Dialog'])).resolves.toEqual([]);
    await dialog.getByRole('textbox', { name: 'File' }).fill('kept.jsonl');
    await page.keyboard.press('Enter');
    await dialogClosed();
    await expect(focusOn(onItem)).resolves.toBe(onItem);
    await toast('Exported 30 documents of books');
    await expect(axeViolations(['#searchbook-sidebar'])).resolves.toEqual([]);

    const refresh = page
      .locator('#searchbook-sidebar')
      .getByRole('button', { name: 'Refresh', exact: true });
    await refresh.focus();
    await page.keyboard.press('Enter');
    await expect(focusOn(button('Refresh'))).resolves.toBe(button('Refresh'));
  });

  it('Alt-Shift-O: its field is selected, so the name typed replaces it', async () => {
    await page.keyboard.press('Alt+Shift+O');
    const dialog = await dialogOpen();
    await expect(axeViolations(['.jp-Dialog'])).resolves.toEqual([]);
    await expect(
      dialog
        .locator('input')
        .evaluate(
          input =>
            (input as HTMLInputElement).selectionEnd ===
              (input as HTMLInputElement).value.length &&
            (input as HTMLInputElement).selectionStart === 0
        )
    ).resolves.toBe(true);
    await page.keyboard.type('films · es');
    await page.keyboard.press('Enter');
    await expect(focusOn('div[grid] films · es')).resolves.toBe(
      'div[grid] films · es'
    );
  });
});

describe('names you can read', () => {
  const films = () => gridOf(page, 'films · es');

  it('a blank cell says whether it holds null or an empty text; a saved new row is counted as loaded', async () => {
    await page.keyboard.press('Alt+Shift+S');
    await openGrid(page, 'es', 'films');
    await films().focus();
    await page.keyboard.press('Control+Home');
    await toColumn(films(), 'title');
    const heard: string[] = [];
    for (let row = 1; row <= 3; row++) {
      heard.push(await said(films(), new RegExp(`^title, row ${row} `)));
      await page.keyboard.press('ArrowDown');
    }
    expect(heard.map(h => h.replace(/^.*: /, '')).sort()).toEqual([
      'Film 0',
      'empty',
      'null'
    ]);
    await gridTab(page, 'films · es')
      .getByRole('button', { name: 'Insert row' })
      .focus();
    await page.keyboard.press('Enter');
    await films().focus();
    await page.keyboard.press('Control+Home');
    await toColumn(films(), 'title');
    await typeInCell('Film new');
    await page.keyboard.press('Control+S');
    await expect(pendingIs('films · es', 'No pending changes')).resolves.toBe(
      'No pending changes'
    );
    await page.waitForFunction(() =>
      /^4 of 4 rows loaded/.test(
        document
          .querySelector('[aria-label="films · es"][role="grid"]')
          ?.closest('.searchbook-DocumentGrid')
          ?.querySelector('.searchbook-DocumentGrid-status')?.textContent ?? ''
      )
    );
  });

  it('row numbers are said alike: row 1,000 of 1,000 rows', async () => {
    await page.keyboard.press('Alt+Shift+S');
    await openGrid(page, 'es', 'many');
    const many = gridOf(page, 'many · es');
    await many.focus();
    await page.keyboard.press('Control+End');
    await expect(said(many, /row 1,?000 of/)).resolves.toMatch(
      /, row 1,000 of 1,000 rows: /
    );
  });

  it('five tabs: one name on two connections reads apart in titles cut short; one document is "1 document"; the toolbars keep to one line each', async () => {
    await page.keyboard.press('Alt+Shift+S');
    await expect(
      targetInTree(page, 'es2', 'products').getAttribute('aria-label')
    ).resolves.toMatch(/^products · 1 document\b/);
    await openGrid(page, 'es', 'products');
    await openGrid(page, 'es2', 'products');
    const titles = await page
      .locator('.lm-DockPanel-tabBar .lm-TabBar-tab')
      .evaluateAll(tabs =>
        tabs
          .filter(t => t.getAttribute('title')?.startsWith('Documents of'))
          .map(t => ({
            label: t.querySelector('.lm-TabBar-tabLabel')?.textContent ?? '',
            caption: t.getAttribute('title') ?? '',
            width: t.querySelector('.lm-TabBar-tabLabel')?.clientWidth ?? 0
          }))
      );
    expect(titles.length).toBe(5);
    const products = titles.filter(t => t.caption.includes('products'));
    expect(products.map(t => t.label).sort()).toEqual([
      'es · products',
      'es2 · products'
    ]);
    expect(products.map(t => t.caption).sort()).toEqual([
      'Documents of products on es',
      'Documents of products on es2'
    ]);
    // What a reader sees of each title, cut or not: the characters inside its label's box.
    const seen = await page
      .locator('.lm-DockPanel-tabBar .lm-TabBar-tab')
      .evaluateAll(tabs =>
        tabs
          .filter(t =>
            (t.getAttribute('title') ?? '').startsWith('Documents of products')
          )
          .map(t => {
            const label = t.querySelector('.lm-TabBar-tabLabel');
            const text = label?.firstChild;
            if (!label || !text) {
              return '';
            }
            const right = label.getBoundingClientRect().right;
            const range = document.createRange();
            let shown = '';
            for (let i = 0; i < (text.textContent ?? '').length; i++) {
              range.setStart(text, i);
              range.setEnd(text, i + 1);
              if (range.getBoundingClientRect().right > right) {
                break;
              }
              shown += text.textContent?.[i] ?? '';
            }
            return shown.trim();
          })
      );
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toBe(seen[1]);
    await screenshot(page, 'keyboard-five-tabs');

    const tab = gridTab(page, 'products · es2');
    const lines = await tab
      .locator('.searchbook-DocumentGrid-bar')
      .evaluateAll(bars =>
        bars.map(bar => {
          const tops = new Set(
            [...bar.querySelectorAll('button')]
              .filter(b => b.getClientRects().length > 0)
              .map(b => Math.round(b.getBoundingClientRect().top))
          );
          return tops.size;
        })
      );
    expect(lines).toEqual([1, 1]);
    await screenshot(page, 'keyboard-grouped-toolbar');
  });

  it('Settings opens beside the notebook, not among the grids, and the panel keeps listing the notebook’s connections', async () => {
    await page
      .getByRole('tab', { name: /products/ })
      .first()
      .click();
    await page.keyboard.press('Control+,');
    const settings = page.locator('#setting-editor');
    await settings.waitFor({ timeout: 30_000 });
    const together = await page.evaluate(() => {
      const bar = document
        .querySelector('.lm-TabBar-tab[data-id="setting-editor"]')
        ?.closest('.lm-TabBar');
      return [...(bar?.querySelectorAll('.lm-TabBar-tab') ?? [])].map(
        t => t.getAttribute('title') ?? ''
      );
    });
    expect(together.some(t => t.startsWith('Documents of'))).toBe(false);
    await expect(
      page.locator('.searchbook-Sidebar-heading').textContent()
    ).resolves.not.toMatch(/own kernel/);
    await expect(panelTreeItem(page, 'es2', 1).count()).resolves.toBe(1);
    await page
      .locator(
        '.lm-TabBar-tab[data-id="setting-editor"] .lm-TabBar-tabCloseIcon'
      )
      .click();
  });
});

describe('accessibility (axe-core)', () => {
  it('the side panel and an open grid tab have no serious or critical violations', async () => {
    await page.getByRole('tab', { name: /books · es/ }).click();
    await page.keyboard.press('Alt+Shift+S');
    await panelTreeItem(page, 'books').waitFor();
    await screenshot(page, 'keyboard-axe');
    await expect(
      axeViolations(['#searchbook-sidebar', '.searchbook-DocumentGrid'])
    ).resolves.toEqual([]);
  });
});

describe('after a reload', () => {
  it('the side panel comes back open, as it was', async () => {
    await page.keyboard.press('Alt+Shift+S');
    await workspaceHolds(page, 'searchbook-sidebar');
    await page.reload();
    await page.waitForFunction(
      () =>
        (window as unknown as { jupyterapp?: unknown }).jupyterapp !==
        undefined,
      undefined,
      { timeout: 60_000 }
    );
    await page.evaluate(
      () =>
        (window as unknown as { jupyterapp: { restored: Promise<void> } })
          .jupyterapp.restored
    );
    await expect(
      page
        .locator(PANEL_TAB)
        .evaluate(node => node.classList.contains('lm-mod-current'))
    ).resolves.toBe(true);
    await expect(page.locator('#searchbook-sidebar').isVisible()).resolves.toBe(
      true
    );
  });
});
