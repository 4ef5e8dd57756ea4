/**
 * The side panel's sections, menus and dialogs by keyboard alone, in a real JupyterLab in
 * Chromium against the sandbox Typesense 29 and Elasticsearch: API keys (add one, its value
 * shown once with Copy and Close, refresh, delete one or keep it, a scoped key refused and then
 * made), the server dashboard and the cluster overview, aliases (add, edit, delete), a
 * collection's schema and its synonyms tab, and the typed-name confirmations of deleting or
 * emptying a collection and deleting an index; and the grid toolbar's actions not walked
 * elsewhere (Insert row, Delete rows, Discard, Copy ▾, Document ▾, the filter bar and its rows'
 * Remove, a refused filter's Back to the previous filter, Columns, Undo after a discard, Insert
 * into notebook). After each close (Escape, a dialog's buttons, a confirmation) the keyboard is
 * back on the control it came from, or, that control gone with what it acted on, on the one now
 * in its place, never on `<body>`; axe-core finds nothing serious or critical in each dialog and
 * section.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { generateBooksSample } from '@searchbook/sandbox/sample-typesense';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import { openPanelLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { screenshot } from './support/notebook-page';
import { axeFindings } from './support/axe';
import { focusedIn, focusLandsOn } from './support/focus';

jest.setTimeout(180_000);

const TS_KEY = 'e2e-panel-keys-secret';

let servers: ListeningServer[] = [];
let lab: RunningLab;
let browser: Browser;
let page: Page;

async function typesense(path: string, init: RequestInit = {}) {
  const [, ts] = servers as [ListeningServer, ListeningServer];
  return fetch(`${ts.url}${path}`, {
    ...init,
    headers: {
      'x-typesense-api-key': TS_KEY,
      'content-type': 'application/json'
    }
  });
}

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  const mappings = { properties: { name: { type: 'keyword' } } };
  for (const index of ['lamps', 'old', 'tables']) {
    es.loadIndex(index, mappings, [{ id: '1', source: { name: index } }]);
  }
  const ts = createTypesenseSandbox({ version: '29.0', apiKey: TS_KEY });
  generateBooksSample(ts);
  servers = [
    await listen(es.handler, { port: 0 }),
    await listen(ts.handler, { port: 0 })
  ];
  const [esServer, tsServer] = servers as [ListeningServer, ListeningServer];
  for (const name of ['drafts', 'scratch']) {
    const made = await typesense('/collections', {
      method: 'POST',
      body: JSON.stringify({ name, fields: [{ name: 'name', type: 'string' }] })
    });
    expect(made.status).toBe(201);
    ts.loadDocuments(name, [{ id: '1', name }]);
  }
  const key = await typesense('/keys', {
    method: 'POST',
    body: JSON.stringify({
      description: 'website search',
      actions: ['documents:search'],
      collections: ['*']
    })
  });
  expect(key.status).toBe(201);
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-panel-keys-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'panel-keys.ipynb',
    cells: [
      `%connect elasticsearch ${esServer.url} name=es`,
      `%connect typesense ${tsServer.url} key=\${env:TS_KEY} name=ts`
    ],
    env: { TS_KEY },
    viewport: { width: 1400, height: 1000 },
    beforeOpen: async (_page, context, running) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: running.url
      });
    }
  }));
  await connection('ts').waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
});

function connection(name: string): Locator {
  return page
    .getByRole('tree', { name: 'searchbook connections' })
    .locator(`[role="treeitem"][aria-level="1"][aria-label^="${name} · "]`);
}

const targetItem = (connectionName: string, target: string): Locator =>
  connection(connectionName).locator(
    `[role="treeitem"][aria-level="2"][aria-label^="${target} · "]`
  );

const section = (connectionName: string, title: string): Locator =>
  connection(connectionName).locator('details.searchbook-Admin-section', {
    has: page.locator(`> summary:text-is("${title}")`)
  });

const dialog = () => page.locator('.jp-Dialog');
const focusOn = (expected: string) => focusLandsOn(page, expected);
const button = (name: string) => `button[] ${name}`;
const summary = (title: string) => `summary[] ${title}`;

/** Puts the keyboard on `control` (as Tab would) and presses `key` there. */
async function press(control: Locator, key = 'Enter'): Promise<void> {
  await control.focus();
  await page.keyboard.press(key);
}

async function dialogOpen(): Promise<Locator> {
  await dialog().waitFor();
  await expect(axeFindings(page, ['.jp-Dialog'])).resolves.toEqual([]);
  return dialog();
}

async function dialogClosed(): Promise<void> {
  await dialog().waitFor({ state: 'detached' });
}

/** Tab until `expected` has the keyboard (at most ten presses); where it ends. */
async function tabTo(expected: string): Promise<string> {
  for (let i = 0; i < 10; i++) {
    if ((await focusedIn(page)).startsWith(expected)) {
      return expected;
    }
    await page.keyboard.press('Tab');
  }
  return focusedIn(page);
}

/** Opens a tree item's menu with Shift-F10 and picks `label` with the arrow keys, or closes it with Escape. */
async function itemMenu(item: Locator, label: string | 'Escape') {
  await item.focus();
  await page.keyboard.press('Shift+F10');
  const menu = page.locator('.searchbook-TargetMenu');
  await menu.waitFor();
  if (label === 'Escape') {
    await page.keyboard.press('Escape');
  } else {
    await pickByArrows(menu, label);
  }
  await menu.waitFor({ state: 'detached' });
}

/** Moves down an open Lumino menu with the arrow keys to `label`, and presses Enter on it. */
async function pickByArrows(menu: Locator, label: string) {
  const active = menu.locator('.lm-Menu-item.lm-mod-active .lm-Menu-itemLabel');
  for (let i = 0; i < 10 && (await active.textContent()) !== label; i++) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(active.textContent()).resolves.toBe(label);
  await page.keyboard.press('Enter');
}

/** The accessible names of the panel's tree items, in order. */
const treeItems = (): Promise<string[]> =>
  page
    .getByRole('tree', { name: 'searchbook connections' })
    .locator('[role="treeitem"]')
    .evaluateAll(items => items.map(i => i.getAttribute('aria-label') ?? ''));

describe('API keys by keyboard', () => {
  const keys = () => section('ts', 'Keys');

  it('Add key: the value shown once closes back onto Add key; Delete asks with Cancel the default (Escape, then Delete): the keyboard goes to the next key’s Delete, then, none left, to Refresh keys', async () => {
    await press(keys().locator('> summary'));
    await keys()
      .getByRole('listitem', { name: /^website search/ })
      .waitFor({ timeout: 20_000 });
    await expect(focusOn(summary('Keys'))).resolves.toBe(summary('Keys'));

    await press(keys().locator('summary:text-is("Add a key")'));
    await page.keyboard.press('Tab');
    await expect(focusOn('input[] Description')).resolves.toBe(
      'input[] Description'
    );
    await page.keyboard.type('kbd reader');
    await press(keys().getByRole('button', { name: 'Add key', exact: true }));
    await expect((await dialogOpen()).textContent()).resolves.toContain(
      'New key: kbd reader'
    );
    await expect(focusOn(button('Close'))).resolves.toBe(button('Close'));
    await page.keyboard.press('Escape');
    await dialogClosed();
    await keys()
      .getByRole('listitem', { name: /^kbd reader/ })
      .waitFor();
    await expect(focusOn(button('Add key'))).resolves.toBe(button('Add key'));

    const deleteKbd = keys().getByRole('button', {
      name: 'Delete key kbd reader'
    });
    await press(deleteKbd);
    await expect((await dialogOpen()).textContent()).resolves.toContain(
      'Delete the key "kbd reader"'
    );
    // Enter on a confirmation opened by mistake keeps the key.
    await expect(focusOn(button('Cancel'))).resolves.toBe(button('Cancel'));
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(button('Delete key kbd reader'))).resolves.toBe(
      button('Delete key kbd reader')
    );
    await page.keyboard.press('Enter');
    await dialogOpen();
    await page.keyboard.press('Tab');
    await expect(focusOn(button('Delete'))).resolves.toBe(button('Delete'));
    await page.keyboard.press('Enter');
    await dialogClosed();
    await deleteKbd.waitFor({ state: 'detached' });
    await expect(focusOn(button('Delete key website search'))).resolves.toBe(
      button('Delete key website search')
    );

    await page.keyboard.press('Enter');
    await dialogOpen();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await dialogClosed();
    await keys()
      .getByRole('listitem', { name: /^website search/ })
      .waitFor({ state: 'detached' });
    await expect(focusOn(button('Refresh keys'))).resolves.toBe(
      button('Refresh keys')
    );
    await expect(
      typesense('/keys').then(r => r.json() as Promise<{ keys: unknown[] }>)
    ).resolves.toEqual({ keys: [] });
  });

  it('a new key’s value: Copy keeps the keyboard in the dialog, its Close button ends on Add key; Refresh keys keeps it; Enter on Delete’s default Cancel keeps the key and the keyboard on its Delete', async () => {
    const addForm = keys().locator('details.searchbook-Keys-add');
    if (!(await addForm.evaluate(node => (node as HTMLDetailsElement).open))) {
      await press(addForm.locator('> summary'));
    }
    await keys().getByRole('textbox', { name: 'Description' }).focus();
    await page.keyboard.type('kbd copier');
    await press(keys().getByRole('button', { name: 'Add key', exact: true }));
    await expect((await dialogOpen()).textContent()).resolves.toContain(
      'New key: kbd copier'
    );
    const value =
      (await dialog().getByLabel('New key value').textContent()) ?? '';
    expect(value.length).toBeGreaterThan(20);
    await expect(focusOn(button('Close'))).resolves.toBe(button('Close'));
    await page.keyboard.press('Shift+Tab');
    await expect(focusOn(button('Copy'))).resolves.toBe(button('Copy'));
    await page.keyboard.press('Enter');
    await expect(focusOn(button('Copied'))).resolves.toBe(button('Copied'));
    await expect(
      page.evaluate(() => navigator.clipboard.readText())
    ).resolves.toBe(value);
    await expect(tabTo(button('Close'))).resolves.toBe(button('Close'));
    await page.keyboard.press('Enter');
    await dialogClosed();
    await keys()
      .getByRole('listitem', { name: /^kbd copier/ })
      .waitFor();
    await expect(focusOn(button('Add key'))).resolves.toBe(button('Add key'));

    await press(keys().getByRole('button', { name: 'Refresh keys' }));
    await keys()
      .getByRole('status')
      .filter({ hasText: /^1 key$/ })
      .waitFor();
    await expect(focusOn(button('Refresh keys'))).resolves.toBe(
      button('Refresh keys')
    );

    await press(keys().getByRole('button', { name: 'Delete key kbd copier' }));
    await dialogOpen();
    await expect(focusOn(button('Cancel'))).resolves.toBe(button('Cancel'));
    await page.keyboard.press('Enter');
    await dialogClosed();
    await expect(focusOn(button('Delete key kbd copier'))).resolves.toBe(
      button('Delete key kbd copier')
    );
    await expect(
      typesense('/keys').then(r => r.json() as Promise<{ keys: unknown[] }>)
    ).resolves.toEqual({
      keys: [expect.objectContaining({ description: 'kbd copier' })]
    });
  });

  it('Scoped search key… made by keyboard from that key: parameters that are not JSON reopen the form with the keyboard in it; Make key shows the value once, and its Close ends on Scoped search key…', async () => {
    const parent = await page.evaluate(() => navigator.clipboard.readText());
    await press(keys().getByRole('button', { name: 'Scoped search key…' }));
    await dialogOpen();
    const parentField = 'input[] Parent search-only key';
    await expect(focusOn(parentField)).resolves.toBe(parentField);
    await page.keyboard.type(parent);
    await page.keyboard.press('Tab');
    const params = 'textarea[] Embedded parameters (JSON)';
    await expect(focusOn(params)).resolves.toBe(params);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{"filter_by": name:drafts}');
    await expect(tabTo(button('Make key'))).resolves.toBe(button('Make key'));
    await page.keyboard.press('Enter');
    await dialog().getByRole('alert').filter({ hasText: 'not JSON' }).waitFor();
    await expect(axeFindings(page, ['.jp-Dialog'])).resolves.toEqual([]);
    await expect(focusOn(parentField)).resolves.toBe(parentField);

    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{"filter_by": "name:drafts"}');
    await expect(tabTo(button('Make key'))).resolves.toBe(button('Make key'));
    await page.keyboard.press('Enter');
    await dialog().getByLabel('New key value').waitFor();
    await expect(
      dialog().locator('.jp-Dialog-header').textContent()
    ).resolves.toContain('Scoped search key');
    await expect(axeFindings(page, ['.jp-Dialog'])).resolves.toEqual([]);
    await expect(focusOn(button('Close'))).resolves.toBe(button('Close'));
    await page.keyboard.press('Enter');
    await dialogClosed();
    await expect(focusOn(button('Scoped search key…'))).resolves.toBe(
      button('Scoped search key…')
    );
  });

  it('Scoped search key…: Escape and Cancel end on its button', async () => {
    const scoped = keys().getByRole('button', { name: 'Scoped search key…' });
    await press(scoped);
    await dialogOpen();
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(button('Scoped search key…'))).resolves.toBe(
      button('Scoped search key…')
    );
    await page.keyboard.press('Enter');
    await dialogOpen();
    await expect(tabTo(button('Cancel'))).resolves.toBe(button('Cancel'));
    await page.keyboard.press('Enter');
    await dialogClosed();
    await expect(focusOn(button('Scoped search key…'))).resolves.toBe(
      button('Scoped search key…')
    );
    await press(keys().locator('> summary'));
  });
});

describe('server figures by keyboard', () => {
  for (const [name, title, figure] of [
    ['ts', 'Server dashboard', 'Process memory'],
    ['es', 'Cluster overview', 'Status']
  ] as const) {
    it(`${title}: Enter on its summary opens it; the keyboard stays there while the figures refresh, and Enter folds it`, async () => {
      const figures = section(name, title);
      await press(figures.locator('> summary'));
      await figures
        .locator('.searchbook-Metric-label', { hasText: figure })
        .waitFor({ timeout: 20_000 });
      // A second reading draws the figures again in place.
      await page.waitForFunction(
        node =>
          Number(
            node?.querySelector('svg[data-points]')?.getAttribute('data-points')
          ) >= 2,
        await figures.elementHandle(),
        { timeout: 20_000 }
      );
      await expect(focusOn(summary(title))).resolves.toBe(summary(title));
      await screenshot(page, `panel-keyboard-${name}-figures`);
      await expect(
        axeFindings(page, ['#searchbook-sidebar .searchbook-Metrics[open]'])
      ).resolves.toEqual([]);
      await page.keyboard.press('Enter');
      await expect(
        figures.evaluate(node => (node as HTMLDetailsElement).open)
      ).resolves.toBe(false);
      await expect(focusOn(summary(title))).resolves.toBe(summary(title));
    });
  }
});

describe('resources by keyboard', () => {
  it('Aliases: Add… (Review, Send) ends on Add…; Open in the grid it opens; Edit… (Escape) on its Edit…; Delete… (Escape, then Send) on Delete…, then, the list empty, on Add…', async () => {
    const aliases = section('ts', 'Aliases');
    await press(aliases.locator('> summary'));
    await aliases
      .getByRole('status')
      .filter({ hasText: 'None yet.' })
      .waitFor();
    const add = aliases.getByRole('button', { name: 'Add to Aliases' });
    await press(add);
    await dialogOpen();
    await expect(focusOn('input[] Name')).resolves.toBe('input[] Name');
    await page.keyboard.type('kbd_live');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{"collection_name": "books"}');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await dialog().getByLabel('Request to send').waitFor();
    await expect(axeFindings(page, ['.jp-Dialog'])).resolves.toEqual([]);
    await expect(focusOn(button('Send'))).resolves.toBe(button('Send'));
    await page.keyboard.press('Enter');
    await dialogClosed();
    await aliases.getByRole('listitem', { name: 'kbd_live' }).waitFor();
    await expect(focusOn(button('Add to Aliases'))).resolves.toBe(
      button('Add to Aliases')
    );

    // Open opens the collection the alias stands for, the keyboard in its grid.
    await press(aliases.getByRole('button', { name: 'Open kbd_live' }));
    await expect(focusOn('div[grid] books · ts')).resolves.toBe(
      'div[grid] books · ts'
    );

    // Edit… and Delete… read the list again first: the keyboard stays on the button redrawn.
    await press(aliases.getByRole('button', { name: 'Edit kbd_live' }));
    await dialogOpen();
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(button('Edit kbd_live'))).resolves.toBe(
      button('Edit kbd_live')
    );

    await press(aliases.getByRole('button', { name: 'Delete kbd_live' }));
    await dialog().getByLabel('Request to send').waitFor();
    await dialogOpen();
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(button('Delete kbd_live'))).resolves.toBe(
      button('Delete kbd_live')
    );
    await page.keyboard.press('Enter');
    await dialog().getByLabel('Request to send').waitFor();
    await expect(tabTo(button('Send'))).resolves.toBe(button('Send'));
    await page.keyboard.press('Enter');
    await dialogClosed();
    await aliases
      .getByRole('listitem', { name: 'kbd_live' })
      .waitFor({ state: 'detached' });
    await expect(focusOn(button('Add to Aliases'))).resolves.toBe(
      button('Add to Aliases')
    );
    await press(aliases.locator('> summary'));
  });

  it('a collection’s menu: Escape and Schema… (Close) end on its item; in its synonyms tab, deleting the only synonym ends on Add…', async () => {
    const books = targetItem('ts', 'books');
    const onBooks = 'li[treeitem] books · ';
    await itemMenu(books, 'Escape');
    await expect(focusOn(onBooks)).resolves.toBe(onBooks);
    await itemMenu(books, 'Schema…');
    await dialogOpen();
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(onBooks)).resolves.toBe(onBooks);
    await itemMenu(books, 'Schema…');
    await dialogOpen();
    await expect(tabTo(button('Close'))).resolves.toBe(button('Close'));
    await page.keyboard.press('Enter');
    await dialogClosed();
    await expect(focusOn(onBooks)).resolves.toBe(onBooks);

    await itemMenu(books, 'Synonyms and overrides (curation)…');
    const synonyms = page
      .locator('.searchbook-CollectionResources')
      .locator('details.searchbook-Resources', {
        has: page.locator('> summary:text-is("Synonyms of books")')
      });
    await synonyms
      .getByRole('status')
      .filter({ hasText: 'None yet.' })
      .waitFor({ timeout: 20_000 });
    await press(
      synonyms.getByRole('button', { name: 'Add to Synonyms of books' })
    );
    await dialogOpen();
    await page.keyboard.type('reading');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{"synonyms": ["novel", "book"]}');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await dialog().getByLabel('Request to send').waitFor();
    await page.keyboard.press('Enter');
    await dialogClosed();
    await synonyms.getByRole('listitem', { name: 'reading' }).waitFor();
    await press(synonyms.getByRole('button', { name: 'Delete reading' }));
    await dialog().getByLabel('Request to send').waitFor();
    await expect(tabTo(button('Send'))).resolves.toBe(button('Send'));
    await page.keyboard.press('Enter');
    await dialogClosed();
    await synonyms
      .getByRole('listitem', { name: 'reading' })
      .waitFor({ state: 'detached' });
    await expect(focusOn(button('Add to Synonyms of books'))).resolves.toBe(
      button('Add to Synonyms of books')
    );
  });
});

describe('deleting and emptying by keyboard', () => {
  for (const [name, target, action] of [
    ['ts', 'scratch', 'Delete collection'],
    ['es', 'old', 'Delete index']
  ] as const) {
    it(`${action}…: Escape and Cancel end on ${target}’s item; confirmed with the typed name, on the item now in its place`, async () => {
      const item = targetItem(name, target);
      await item.waitFor({ timeout: 20_000 });
      const onItem = `li[treeitem] ${target} · `;
      await itemMenu(item, `${action}…`);
      await expect((await dialogOpen()).textContent()).resolves.toContain(
        `Type ${target} to confirm`
      );
      await expect(focusOn(`input[] Type ${target} to confirm`)).resolves.toBe(
        `input[] Type ${target} to confirm`
      );
      await page.keyboard.press('Escape');
      await dialogClosed();
      await expect(focusOn(onItem)).resolves.toBe(onItem);

      await itemMenu(item, `${action}…`);
      await dialogOpen();
      await page.keyboard.press('Tab');
      await expect(focusOn(button('Cancel'))).resolves.toBe(button('Cancel'));
      await page.keyboard.press('Enter');
      await dialogClosed();
      await expect(focusOn(onItem)).resolves.toBe(onItem);

      const before = await treeItems();
      const at = before.findIndex(label => label.startsWith(`${target} · `));
      const inItsPlace = (before[at + 1] ?? before[at - 1] ?? '').split(
        ' · '
      )[0];
      await itemMenu(item, `${action}…`);
      await dialogOpen();
      await page.keyboard.type(target);
      await page.keyboard.press('Enter');
      await dialogClosed();
      await item.waitFor({ state: 'detached', timeout: 20_000 });
      const there = `li[treeitem] ${inItsPlace} · `;
      await expect(focusOn(there)).resolves.toBe(there);
    });
  }

  it('Empty collection…: Escape ends on the item, and the panel with its sections open has no serious axe finding', async () => {
    const drafts = targetItem('ts', 'drafts');
    const onItem = 'li[treeitem] drafts · ';
    await itemMenu(drafts, 'Empty collection…');
    await dialogOpen();
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(onItem)).resolves.toBe(onItem);
    for (const [name, title] of [
      ['ts', 'Keys'],
      ['ts', 'Aliases']
    ] as const) {
      const open = section(name, title);
      if (!(await open.evaluate(node => (node as HTMLDetailsElement).open))) {
        await press(open.locator('> summary'));
      }
    }
    await screenshot(page, 'panel-keyboard-sections');
    await expect(axeFindings(page, ['#searchbook-sidebar'])).resolves.toEqual(
      []
    );
  });
});

describe('the rest of a grid’s toolbar by keyboard', () => {
  const LAMPS = 'lamps · es';
  const onGrid = `div[grid] ${LAMPS}`;
  const tab = () =>
    page.locator('.searchbook-DocumentGrid', {
      has: page.getByRole('grid', { name: LAMPS })
    });
  const control = (name: string) =>
    tab().getByRole('button', { name, exact: true });
  const pending = () => tab().locator('.searchbook-EditBar-count');

  /** Opens a toolbar menu (Copy ▾, Document ▾) from the keyboard and picks `label` with the arrow keys. */
  async function toolbarMenuPick(menuName: string, label: string) {
    await press(control(menuName));
    const menu = page.locator('.searchbook-ToolbarMenu');
    await menu.waitFor();
    await pickByArrows(menu, label);
    await menu.waitFor({ state: 'detached' });
  }

  async function pendingIs(text: string): Promise<string> {
    for (let tries = 0; tries < 200; tries++) {
      if ((await pending().textContent()) === text) {
        return text;
      }
      await page.waitForTimeout(50);
    }
    return (await pending().textContent()) ?? '';
  }

  it('Insert row, Delete rows, Discard, Copy ▾’s Copy as cell and Copy as Python, Document ▾’s Edit as JSON and Duplicate row, Add filter, Apply, Back to the previous filter and Columns end on their control or in the grid, never on <body>', async () => {
    await page.keyboard.press('Alt+Shift+S');
    await press(targetItem('es', 'lamps'));
    await expect(focusOn(onGrid)).resolves.toBe(onGrid);

    await press(control('Insert row'));
    await expect(pendingIs('1 change pending')).resolves.toBe(
      '1 change pending'
    );
    await expect(focusOn(button('Insert row'))).resolves.toBe(
      button('Insert row')
    );
    // The stored document's row (the new one is first): marked for deletion too.
    await page.getByRole('grid', { name: LAMPS }).focus();
    await page.keyboard.press('Control+End');
    await press(control('Delete rows'));
    await expect(pendingIs('2 changes pending')).resolves.toBe(
      '2 changes pending'
    );
    await expect(focusOn(button('Delete rows'))).resolves.toBe(
      button('Delete rows')
    );
    await press(control('Discard'));
    await dialogOpen();
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(button('Discard'))).resolves.toBe(button('Discard'));
    await page.keyboard.press('Enter');
    await dialogOpen();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(pendingIs('No pending changes')).resolves.toBe(
      'No pending changes'
    );
    // Discard is disabled with nothing left to drop: the keyboard goes into the grid.
    await expect(focusOn(onGrid)).resolves.toBe(onGrid);
    // The one stored document's row, for Document ▾.
    await page.keyboard.press('Control+Home');

    await toolbarMenuPick('Copy', 'Copy as cell');
    await expect(focusOn(button('Copy'))).resolves.toBe(button('Copy'));
    await toolbarMenuPick('Copy', 'Copy as Python');
    await expect(focusOn(button('Copy'))).resolves.toBe(button('Copy'));

    await toolbarMenuPick('Document', 'Edit document as JSON…');
    await dialogOpen();
    await page.keyboard.press('Escape');
    await dialogClosed();
    await expect(focusOn(button('Document'))).resolves.toBe(button('Document'));
    await toolbarMenuPick('Document', 'Duplicate row');
    await expect(pendingIs('1 change pending')).resolves.toBe(
      '1 change pending'
    );
    await expect(focusOn(button('Document'))).resolves.toBe(button('Document'));
    await page.keyboard.press('Alt+Shift+D');
    await expect(pendingIs('No pending changes')).resolves.toBe(
      'No pending changes'
    );

    const filters = tab().getByRole('search', { name: 'Filter documents' });
    await press(filters.getByRole('button', { name: 'Add filter' }));
    await expect(focusedIn(page)).resolves.not.toBe('<body>');
    await press(filters.getByRole('button', { name: 'Apply' }));
    await expect(focusOn(button('Apply'))).resolves.toBe(button('Apply'));
    // The filter is refused (its row has no value): a message stands in for the rows, with a way
    // back that goes with it once pressed.
    const back = tab().getByRole('button', {
      name: 'Back to the previous filter'
    });
    await press(back);
    await back.waitFor({ state: 'detached' });
    await expect(focusOn(onGrid)).resolves.toBe(onGrid);

    await press(control('Columns'));
    const chooser = page.locator('.searchbook-ColumnChooser');
    await chooser.waitFor();
    await expect(
      axeFindings(page, ['.searchbook-ColumnChooser'])
    ).resolves.toEqual([]);
    await page.keyboard.press('Escape');
    await expect(focusOn(button('Columns'))).resolves.toBe(button('Columns'));
    await screenshot(page, 'panel-keyboard-grid-toolbar');
  });

  it('Undo after a discard ends in the grid; each filter row’s Remove on the row now in its place, the last on Add filter; Copy ▾’s Insert into notebook on the cell it inserted', async () => {
    await page.getByRole('grid', { name: LAMPS }).focus();
    await press(control('Insert row'));
    await expect(pendingIs('1 change pending')).resolves.toBe(
      '1 change pending'
    );
    await press(control('Discard'));
    await expect(pendingIs('No pending changes')).resolves.toBe(
      'No pending changes'
    );
    await press(control('Undo'));
    await expect(pendingIs('1 change pending')).resolves.toBe(
      '1 change pending'
    );
    // Undo hides itself once it has brought the changes back.
    await expect(focusOn(onGrid)).resolves.toBe(onGrid);
    await page.keyboard.press('Alt+Shift+D');
    await expect(pendingIs('No pending changes')).resolves.toBe(
      'No pending changes'
    );

    const filters = tab().getByRole('search', { name: 'Filter documents' });
    const removes = filters.getByRole('button', { name: /^Remove filter row/ });
    await press(filters.getByRole('button', { name: 'Add filter' }));
    await press(filters.getByRole('button', { name: 'Add filter' }));
    for (let left = await removes.count(); left > 0; left--) {
      await press(removes.last());
      await expect(removes.count()).resolves.toBe(left - 1);
      const successor =
        left > 1
          ? `button[] ${(await removes.last().getAttribute('aria-label')) ?? ''}`
          : button('Add filter');
      await expect(focusOn(successor)).resolves.toBe(successor);
    }

    const cells = page.locator('.jp-NotebookPanel .jp-Cell');
    const before = await cells.count();
    await toolbarMenuPick('Copy', 'Insert into notebook');
    await expect(
      (async () => {
        for (let tries = 0; tries < 100; tries++) {
          if ((await cells.count()) > before) {
            return true;
          }
          await page.waitForTimeout(50);
        }
        return false;
      })()
    ).resolves.toBe(true);
    // The notebook comes forward to show the new cell: the keyboard is on that cell, ready to run it.
    await expect(
      page.evaluate(() => {
        const cell = document.activeElement?.closest('.jp-Cell');
        return cell?.classList.contains('jp-mod-active') === true
          ? (cell.querySelector('.cm-content')?.textContent ?? '')
          : '<not in the active cell>';
      })
    ).resolves.toContain('lamps');
  });

  it('the panel’s Open… box: Enter on a typed name opens its grid with the keyboard in it', async () => {
    await page.keyboard.press('Alt+Shift+S');
    const choice = page.getByRole('combobox', {
      name: 'Connection to open a name on'
    });
    // Type-ahead on the closed list picks the connection, as a keyboard user would.
    await choice.focus();
    await page.keyboard.press('e');
    await expect(choice.inputValue()).resolves.toBe('es');
    await page.keyboard.press('Tab');
    await expect(focusOn('input[] Open…')).resolves.toBe('input[] Open…');
    await page.keyboard.type('tables');
    await page.keyboard.press('Enter');
    const grid = 'div[grid] tables · es';
    await expect(focusOn(grid)).resolves.toBe(grid);
  });
});
