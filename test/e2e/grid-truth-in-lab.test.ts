/**
 * What the side panel's document grid shows is what its bar says and what the engine holds,
 * in a real JupyterLab (from .venv) in Debian's Chromium against the Elasticsearch sandbox:
 * one tab per index (a double-click on an open index brings its tab forward), one pending set
 * shared by every page of the same JupyterLab (a change made in one page shows in the other at
 * once; a save in one keeps the other's change; a reload keeps both), a saved deletion gone at
 * once with the grid's total and the tree's count following, a new filter or sort loading in
 * place of the old rows and starting at the top, a refused filter's message in place of rows
 * with the previous filter one click away, the progress of a deep jump, and "Show requests"
 * listing the valid requests beside a refused value.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import {
  type EsTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { typesenseWithItems } from './support/typesense-items';
import { openPanelLab, reloadLab, showPanel } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { openNotebook, screenshot } from './support/notebook-page';
import {
  cellPoint,
  cellShows,
  cellText,
  editBar,
  filterBar,
  gridOf,
  gridTab,
  inGrid,
  openGrid,
  pendingCount,
  rowOf,
  saveEdits,
  statusLine,
  statusShows,
  tabBarTab,
  targetInTree,
  typeInto
} from './support/grid-page';

jest.setTimeout(240_000);

const NOTEBOOK = 'grid-truth.ipynb';
const TS_KEY = 'e2e-grid-truth-ts-secret';
/** Over one block of 1,000 rows, so rows past the first block are read after a deletion. */
const TS_DOCS = 1_500;
const SHOP = 30;
const BIG = 5_000;
const MAPPING = {
  properties: {
    n: { type: 'long' },
    qty: { type: 'integer' },
    title: { type: 'keyword' }
  }
};

let servers: ListeningServer[] = [];
let esUrl = '';
const REAL_TARGET = elasticsearchTargets().find(
  (t: EsTarget) => t.engine === 'real' && t.version.startsWith('8.')
);
const REAL_INDEX = `truth-e2e-${Date.now().toString(36)}`;
/** Past the 10,000-row result window, so a jump to the end walks through it. */
const REAL_DOCS = 12_000;
let real: RunningEsTarget | undefined;
let realSkipped: string | undefined;

async function startRealNode(): Promise<void> {
  if (!REAL_TARGET || REAL_TARGET.skipped) {
    return;
  }
  const node = await REAL_TARGET.start({ security: false });
  const call = (
    path: string,
    method: string,
    body: string,
    type = 'application/json'
  ) =>
    fetch(`${node.url}${path}`, {
      method,
      body,
      headers: { 'content-type': type }
    });
  await call(
    `/${REAL_INDEX}`,
    'PUT',
    JSON.stringify({
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: MAPPING
    })
  );
  for (let from = 0; from < REAL_DOCS; from += 3_000) {
    const lines = Array.from(
      { length: 3_000 },
      (_, i) =>
        `{"index":{"_id":"r${from + i}"}}\n${JSON.stringify({ n: from + i, qty: (from + i) % 7, title: `Row ${from + i}` })}\n`
    ).join('');
    await call(`/${REAL_INDEX}/_bulk`, 'POST', lines, 'application/x-ndjson');
  }
  await call(`/${REAL_INDEX}/_refresh`, 'POST', '');
  real = node;
}
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
    MAPPING,
    Array.from({ length: SHOP }, (_, n) => ({
      id: `p${n}`,
      source: { n, qty: n, title: `Item ${n}` }
    }))
  );
  es.loadIndex(
    'big',
    MAPPING,
    Array.from({ length: BIG }, (_, n) => ({
      id: `b${n}`,
      source: { n, qty: n % 7, title: `Row ${n}` }
    }))
  );
  const realStarted = startRealNode().catch((err: Error) => {
    realSkipped = err.message;
  });
  const ts = typesenseWithItems(TS_KEY, TS_DOCS);
  servers = [
    await listen(es.handler, { port: 0 }),
    await listen(ts.handler, { port: 0 })
  ];
  esUrl = servers[0]?.url ?? '';
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    realStarted,
    new Promise(resolve => (timer = setTimeout(resolve, REAL_START_TIMEOUT_MS)))
  ]);
  clearTimeout(timer);
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-grid-truth-'));
  const cells = [
    `%connect elasticsearch ${esUrl} name=es`,
    `%connect typesense ${servers[1]?.url ?? ''} key=\${env:TS_KEY} name=ts`
  ];
  if (real) {
    cells.push(`%connect elasticsearch ${real.url} name=real`);
  }
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: NOTEBOOK,
    cells,
    env: { TS_KEY },
    beforeOpen: opened => opened.setDefaultTimeout(30_000)
  }));
}, REAL_START_TIMEOUT_MS + 240_000);

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
  if (real) {
    await fetch(`${real.url}/${REAL_INDEX}`, { method: 'DELETE' }).catch(
      () => undefined
    );
  }
  await real?.close();
});

async function engine(
  path: string,
  init: RequestInit = {}
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${esUrl}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json' }
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {}
  };
}
const stored = async (id: string) =>
  (await engine(`/shop/_doc/${id}`)).body['_source'] as
    Record<string, unknown> | undefined;

const currentTab = (p: Page) =>
  p.evaluate(
    () =>
      (
        window as unknown as {
          jupyterapp: {
            shell: { currentWidget: { title: { label: string } } | null };
          };
        }
      ).jupyterapp.shell.currentWidget?.title.label
  );
/** Starts recording, in the page, every state the grid and its status line pass through (read back with `recorded`). */
async function recordStates(p: Page, label: string): Promise<void> {
  await p.evaluate(l => {
    const grid = document.querySelector(
      `[role="grid"][aria-label="${l}"]`
    ) as HTMLElement;
    const tab = grid.closest('.searchbook-DocumentGrid') as HTMLElement;
    const states: Array<{
      busy: string | null;
      view: string | undefined;
      rows: string | null;
      status: string;
      shown: string;
    }> = [];
    const take = () => {
      const shown = tab.querySelector(
        '.searchbook-DocumentGrid-viewState'
      ) as HTMLElement | null;
      states.push({
        busy: grid.getAttribute('aria-busy'),
        view: grid.dataset.view,
        rows: grid.getAttribute('aria-rowcount'),
        status:
          tab.querySelector('.searchbook-DocumentGrid-status')?.textContent ??
          '',
        shown: shown && !shown.hidden ? (shown.textContent ?? '') : ''
      });
    };
    const observer = new MutationObserver(take);
    observer.observe(tab, {
      subtree: true,
      attributes: true,
      childList: true,
      characterData: true
    });
    (window as unknown as { __gridStates: typeof states }).__gridStates =
      states;
  }, label);
}
const recorded = (p: Page) =>
  p.evaluate(
    () =>
      (
        window as unknown as {
          __gridStates: Array<{
            busy: string | null;
            view: string | undefined;
            rows: string | null;
            status: string;
            shown: string;
          }>;
        }
      ).__gridStates
  );

describe('one tab and one pending set per index', () => {
  it('a double-click on an index already open brings its tab forward instead of opening a second one', async () => {
    const label = await openGrid(page, 'es', 'shop');
    // A grid opened while another grid is current goes in front of it, in the same tab bar.
    const point = await cellPoint(page, label, 0, 'n');
    await page.mouse.click(point.x, point.y);
    await expect(currentTab(page)).resolves.toBe(label);
    await openGrid(page, 'es', 'big');
    await expect(gridOf(page, label).isVisible()).resolves.toBe(false);
    await targetInTree(page, 'es', 'shop').dblclick();
    await gridOf(page, label).waitFor({ state: 'visible' });
    await expect(gridOf(page, 'big · es').isVisible()).resolves.toBe(false);
    await expect(tabBarTab(page, label).count()).resolves.toBe(1);
    await expect(tabBarTab(page, 'big · es').count()).resolves.toBe(1);
    await expect(
      page.locator('.searchbook-Sidebar-message').textContent()
    ).resolves.toBe('');
  });

  it('a change made in one page shows at once in another page of the same JupyterLab; saving in one keeps the other’s change; a reload keeps both', async () => {
    const label = 'shop · es';
    const other = await page.context().newPage();
    await openNotebook(other, lab.open(NOTEBOOK));
    await showPanel(other);
    await openGrid(other, 'es', 'shop');

    await typeInto(page, label, { id: 'p2' }, 'qty', '21');
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '1 change pending'
    );
    // The other page hears of it without any action there.
    await pendingCount(other, label)
      .filter({ hasText: '1 change pending' })
      .waitFor();
    await expect(
      cellText(other, label, await rowOf(other, label, 'p2'), 'qty')
    ).resolves.toBe('21');
    await typeInto(other, label, { id: 'p3' }, 'qty', '31');
    await pendingCount(page, label)
      .filter({ hasText: '2 changes pending' })
      .waitFor();
    await expect(
      cellText(page, label, await rowOf(page, label, 'p3'), 'qty')
    ).resolves.toBe('31');
    await screenshot(other, 'grid-truth-second-page');

    // A reload of the first page loses neither change.
    await reloadLab(page);
    if (await tabBarTab(page, label).count()) {
      await tabBarTab(page, label)
        .first()
        .locator('.lm-TabBar-tabCloseIcon')
        .click();
    }
    await openGrid(page, 'es', 'shop');
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '2 changes pending'
    );

    // The second page saves the set; the first shows what is stored now, nothing left pending.
    await expect(saveEdits(other, label)).resolves.toBe('Saved 2 changes.');
    await expect(stored('p2')).resolves.toMatchObject({ qty: 21 });
    await expect(stored('p3')).resolves.toMatchObject({ qty: 31 });
    await pendingCount(page, label)
      .filter({ hasText: 'No pending changes' })
      .waitFor();
    await cellShows(page, label, { id: 'p2' }, 'qty', '21');
    await cellShows(page, label, { id: 'p3' }, 'qty', '31');
    await other.close();
  });
});

describe('after Save', () => {
  it('a saved deletion leaves the grid at once; the grid’s total and the tree’s count follow deletions and insertions', async () => {
    const label = 'shop · es';
    await targetInTree(page, 'es', 'shop').dblclick();
    await gridOf(page, label).waitFor({ state: 'visible' });
    await expect(
      targetInTree(page, 'es', 'shop').getAttribute('aria-label')
    ).resolves.toMatch(new RegExp(`^shop · ${SHOP} documents`));
    await expect(
      gridOf(page, label).getAttribute('aria-rowcount')
    ).resolves.toBe(String(SHOP));
    const point = await cellPoint(
      page,
      label,
      await rowOf(page, label, 'p5'),
      'row-header'
    );
    await page.mouse.click(point.x, point.y);
    await editBar(page, label)
      .getByRole('button', { name: 'Delete rows' })
      .click();
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(engine('/shop/_doc/p5')).resolves.toMatchObject({
      status: 404
    });
    await expect(rowOf(page, label, 'p5')).resolves.toBe(-1);
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      'No pending changes'
    );
    await expect(
      gridOf(page, label).getAttribute('aria-rowcount')
    ).resolves.toBe(String(SHOP - 1));
    await expect(statusLine(page, label).textContent()).resolves.toMatch(
      new RegExp(`of ${SHOP - 1} rows loaded`)
    );
    await targetInTree(page, 'es', 'shop')
      .locator(
        `xpath=self::*[starts-with(@aria-label, "shop · ${SHOP - 1} documents")]`
      )
      .waitFor();

    await editBar(page, label)
      .getByRole('button', { name: 'Insert row' })
      .click();
    await typeInto(page, label, { id: '' }, 'title', 'Fresh');
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(
      gridOf(page, label).getAttribute('aria-rowcount')
    ).resolves.toBe(String(SHOP));
    await expect(statusLine(page, label).textContent()).resolves.toMatch(
      new RegExp(`of ${SHOP} rows loaded`)
    );
    await targetInTree(page, 'es', 'shop')
      .locator(
        `xpath=self::*[starts-with(@aria-label, "shop · ${SHOP} documents")]`
      )
      .waitFor();
    await screenshot(page, 'grid-truth-after-save');
  });

  it('"Show requests" lists the valid requests and names the refused value, its row and why', async () => {
    const label = 'shop · es';
    await typeInto(page, label, { id: 'p7' }, 'qty', '2.5');
    await typeInto(page, label, { id: 'p8' }, 'qty', '80');
    await editBar(page, label)
      .getByRole('button', { name: 'Show requests' })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(dialog.getByLabel('Requests').textContent()).resolves.toMatch(
      /^POST \/shop\/_update\/p8\?[^\n]*\n\{\n {2}"doc": \{\n {4}"qty": 80/
    );
    await expect(
      dialog.getByRole('list', { name: 'Refused values' }).textContent()
    ).resolves.toMatch(/_id p7 in shop: qty .*fraction/);
    await screenshot(page, 'grid-truth-show-requests');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(stored('p8')).resolves.toMatchObject({ qty: 8 });
    await editBar(page, label).getByRole('button', { name: 'Discard' }).click();
    // More than one change pending: Discard asks first.
    const ask = page.getByRole('dialog');
    await ask.getByRole('button', { name: 'Discard' }).click();
    await ask.waitFor({ state: 'detached' });
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      'No pending changes'
    );
  });
});

describe('after Save on Typesense, which reads without a snapshot', () => {
  it('a saved deletion leaves the grid, and the rows read after it are the collection as it is: none skipped, the total right', async () => {
    const label = await openGrid(page, 'ts', 'items');
    await expect(
      gridOf(page, label).getAttribute('aria-rowcount')
    ).resolves.toBe(String(TS_DOCS));
    // Newest first: i1499 is the first row.
    const header = await cellPoint(
      page,
      label,
      await rowOf(page, label, 'i1499'),
      'row-header'
    );
    await page.mouse.click(header.x, header.y);
    await editBar(page, label)
      .getByRole('button', { name: 'Delete rows' })
      .click();
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(rowOf(page, label, 'i1499')).resolves.toBe(-1);
    await expect(
      gridOf(page, label).getAttribute('aria-rowcount')
    ).resolves.toBe(String(TS_DOCS - 1));
    await targetInTree(page, 'ts', 'items')
      .locator(
        `xpath=self::*[starts-with(@aria-label, "items · 1,499 documents")]`
      )
      .waitFor();
    // The second block is read now, from the collection without i1499.
    await inGrid(
      page,
      label,
      null,
      `w.dataGrid.scrollTo(0, w.dataGrid.maxScrollY);`
    );
    await cellShows(page, label, { row: TS_DOCS - 2 }, 'id', 'i0');
    await expect(
      gridOf(page, label).getAttribute('aria-rowcount')
    ).resolves.toBe(String(TS_DOCS - 1));
    await cellShows(page, label, { row: 999 }, 'id', 'i499');
    await cellShows(page, label, { row: 1000 }, 'id', 'i498');
    await cellShows(page, label, { row: 0 }, 'id', 'i1498');
  });
});

describe('the rows belong to the bar', () => {
  const label = 'big · es';

  it('a new filter clears the old rows and says it is loading, then shows its rows from the top', async () => {
    await openGrid(page, 'es', 'big');
    await inGrid(
      page,
      label,
      null,
      `w.dataGrid.scrollTo(0, w.dataGrid.maxScrollY);`
    );
    await statusShows(page, label, /^2,000 of 5,000 rows loaded/);
    await expect(
      inGrid<number, null>(page, label, null, `return w.dataGrid.scrollY;`)
    ).resolves.toBeGreaterThan(1000);
    await recordStates(page, label);
    const bar = filterBar(page, label);
    await bar.getByRole('button', { name: 'Add filter' }).click();
    const row = bar.getByRole('group', { name: 'Filter row 1' });
    await row.getByRole('combobox', { name: 'Column' }).selectOption('n');
    await row
      .getByRole('combobox', { name: 'Operator' })
      .selectOption('less than');
    await row.getByRole('textbox', { name: 'Value' }).fill('100');
    await bar.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(
      l =>
        document
          .querySelector(`[role="grid"][aria-label="${l}"]`)
          ?.getAttribute('aria-rowcount') === '100',
      label,
      { timeout: 30_000 }
    );
    const states = await recorded(page);
    const loading = states.find(s => s.view === 'loading');
    expect(loading).toMatchObject({
      busy: 'true',
      rows: '0',
      shown: 'Loading…',
      status: 'Loading the rows of the new filter or sort…'
    });
    expect(states.indexOf(loading as (typeof states)[number])).toBeLessThan(
      states.findIndex(s => s.rows === '100')
    );
    await expect(
      inGrid<number, null>(page, label, null, `return w.dataGrid.scrollY;`)
    ).resolves.toBe(0);
    await expect(gridOf(page, label).getAttribute('aria-busy')).resolves.toBe(
      'false'
    );
    await expect(cellText(page, label, 0, 'n')).resolves.toBe('0');
  });

  it('a refused filter shows its message in place of rows, and "Back to the previous filter" brings that filter and its rows back', async () => {
    const bar = filterBar(page, label);
    const row = bar.getByRole('group', { name: 'Filter row 1' });
    await row.getByRole('textbox', { name: 'Value' }).fill('lots');
    await bar.getByRole('button', { name: 'Apply' }).click();
    const message = gridTab(page, label).locator(
      '.searchbook-DocumentGrid-viewState[role="alert"]'
    );
    await expect(message.textContent({ timeout: 30_000 })).resolves.toContain(
      '"lots" is not a number'
    );
    await expect(
      gridOf(page, label).getAttribute('aria-rowcount')
    ).resolves.toBe('0');
    await expect(row.getByRole('alert').textContent()).resolves.toContain(
      '"lots" is not a number'
    );
    await screenshot(page, 'grid-truth-refused-filter');
    await message
      .getByRole('button', { name: 'Back to the previous filter' })
      .click();
    await page.waitForFunction(
      l =>
        document
          .querySelector(`[role="grid"][aria-label="${l}"]`)
          ?.getAttribute('aria-rowcount') === '100',
      label,
      { timeout: 30_000 }
    );
    await expect(
      row.getByRole('textbox', { name: 'Value' }).inputValue()
    ).resolves.toBe('100');
    await expect(message.count()).resolves.toBe(0);
  });

  it('a filter the engine fails shows the engine’s reason in place of rows, never the previous rows', async () => {
    const raw = filterBar(page, label).getByRole('textbox', {
      name: 'Raw filter'
    });
    await raw.fill('title:(');
    await raw.press('Enter');
    const message = gridTab(page, label).locator(
      '.searchbook-DocumentGrid-viewState[role="alert"]'
    );
    await message.waitFor({ timeout: 30_000 });
    await expect(message.textContent()).resolves.toMatch(
      /^No rows: .*\S.*Back to the previous filter$/
    );
    await expect(
      gridOf(page, label).getAttribute('aria-rowcount')
    ).resolves.toBe('0');
    await expect(
      statusLine(page, label).getAttribute('class')
    ).resolves.toContain('searchbook-mod-error');
    await screenshot(page, 'grid-truth-failed-filter');
    await message
      .getByRole('button', { name: 'Back to the previous filter' })
      .click();
    await page.waitForFunction(
      l =>
        document
          .querySelector(`[role="grid"][aria-label="${l}"]`)
          ?.getAttribute('aria-rowcount') === '100',
      label,
      { timeout: 30_000 }
    );
    await expect(raw.inputValue()).resolves.toBe('');
  });

  it('a deep jump says which rows it is loading until they come', async () => {
    await bar(label).getByRole('button', { name: 'Clear' }).click();
    await page.waitForFunction(
      l =>
        document
          .querySelector(`[role="grid"][aria-label="${l}"]`)
          ?.getAttribute('aria-rowcount') === String(5_000),
      label,
      { timeout: 30_000 }
    );
    await statusShows(page, label, /rows loaded/);
    await recordStates(page, label);
    const point = await cellPoint(page, label, 0, 'n');
    await page.mouse.click(point.x, point.y);
    await page.keyboard.press('Control+End');
    await statusShows(page, label, /^2,000 of 5,000 rows loaded/);
    await expect(gridOf(page, label).getAttribute('aria-busy')).resolves.toBe(
      'false'
    );
    const states = await recorded(page);
    expect(
      states.some(
        s =>
          s.status.startsWith('Loading rows 4,001–5,000…') && s.busy === 'true'
      )
    ).toBe(true);
    await expect(cellText(page, label, BIG - 1, 'n')).resolves.toBe(
      String(BIG - 1)
    );
  });
});

const bar = (label: string) => filterBar(page, label);

(REAL_TARGET?.skipped ? describe.skip : describe)(
  `${REAL_TARGET?.name ?? 'a real Elasticsearch node'}${REAL_TARGET?.skipped ? ` (skipped: ${REAL_TARGET.skipped})` : ''}`,
  () => {
    it('a jump past the result window names the rows it loads; a saved deletion leaves the grid, and the total and the tree’s count follow', async () => {
      if (!real) {
        throw new Error(
          `the real node did not start: ${realSkipped ?? 'no answer in time'}`
        );
      }
      const label = await openGrid(page, 'real', REAL_INDEX);
      await expect(
        gridOf(page, label).getAttribute('aria-rowcount')
      ).resolves.toBe(String(REAL_DOCS));
      await recordStates(page, label);
      const point = await cellPoint(page, label, 0, 'n');
      await page.mouse.click(point.x, point.y);
      await page.keyboard.press('Control+End');
      await statusShows(page, label, /^2,000 of 12,000 rows loaded/, 60_000);
      const states = await recorded(page);
      expect(
        states.some(
          s =>
            s.status.startsWith('Loading rows 11,001–12,000…') &&
            s.busy === 'true'
        )
      ).toBe(true);
      await screenshot(page, 'grid-truth-real-jump');

      await inGrid(page, label, null, `w.dataGrid.scrollTo(0, 0);`);
      const at = await rowOf(page, label, 'r3');
      expect(at).toBeGreaterThanOrEqual(0);
      const header = await cellPoint(page, label, at, 'row-header');
      await page.mouse.click(header.x, header.y);
      await editBar(page, label)
        .getByRole('button', { name: 'Delete rows' })
        .click();
      await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
      await expect(rowOf(page, label, 'r3')).resolves.toBe(-1);
      await expect(
        gridOf(page, label).getAttribute('aria-rowcount')
      ).resolves.toBe(String(REAL_DOCS - 1));
      await expect(statusLine(page, label).textContent()).resolves.toMatch(
        /of 11,999 rows loaded/
      );
      await targetInTree(page, 'real', REAL_INDEX)
        .locator(
          `xpath=self::*[starts-with(@aria-label, "${REAL_INDEX} · 11,999 documents")]`
        )
        .waitFor();
      const count = (await (
        await fetch(`${real.url}/${REAL_INDEX}/_count`)
      ).json()) as { count: number };
      expect(count.count).toBe(REAL_DOCS - 1);
    });
  }
);
