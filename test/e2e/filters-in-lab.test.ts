/**
 * The document grid's filter bar and engine sorting in a real JupyterLab (from .venv) in
 * Debian's Chromium, against the sandbox engines: filters and header sorts set in the UI reach
 * the engine (aria-rowcount follows the filtered total, the rows come back in the engine's
 * order), refused values show under their row with nothing sent, Typesense's case control is
 * disabled, and "Insert into notebook" adds the grid's request below the active cell.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import {
  createElasticsearchSandbox,
  type ElasticsearchSandbox
} from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { typesenseWithItems } from './support/typesense-items';
import { openPanelLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { screenshot } from './support/notebook-page';
import {
  addFilterRow,
  cellPoint,
  filterBar,
  gridOf,
  gridShows,
  gridTab,
  headerPoint,
  openGrid,
  toolbarAction
} from './support/grid-page';

jest.setTimeout(180_000);

const run = promisify(execFile);

const TS_KEY = 'e2e-filters-ts-secret';
const DOCS = 30;
const TAGS = ['red', 'green', 'blue'];

let es: ElasticsearchSandbox;
let servers: ListeningServer[] = [];
let lab: RunningLab;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex(
    'shop',
    {
      properties: {
        n: { type: 'long' },
        tag: { type: 'keyword' },
        title: { type: 'text', fields: { keyword: { type: 'keyword' } } }
      }
    },
    Array.from({ length: DOCS }, (_, n) => ({
      id: `p${n}`,
      source: {
        n,
        tag: TAGS[n % 3] ?? 'red',
        title: `Product ${String(n).padStart(2, '0')}`
      }
    }))
  );
  const ts = typesenseWithItems(TS_KEY, 40);
  servers = [
    await listen(es.handler, { port: 0 }),
    await listen(ts.handler, { port: 0 })
  ];
  const [esServer, tsServer] = servers as [ListeningServer, ListeningServer];
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-filters-'));
  const cells = [
    `%connect elasticsearch ${esServer.url} name=es`,
    `%connect typesense ${tsServer.url} key=\${env:TS_KEY} name=ts`
  ];
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'filters.ipynb',
    cells,
    env: { TS_KEY },
    viewport: { width: 1900, height: 1000 }
  }));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
});

/** What the grid shows in a cell, read as a user does: select it, press Enter and read the value view (a double-click edits). */
async function cellValue(
  label: string,
  column: string,
  row: number
): Promise<string> {
  const heading = gridTab(page, label)
    .locator('.searchbook-ValueView-title')
    .filter({ hasText: `${column} · row ${row + 1}` });
  // The block may still be on its way after a new view: double-click again until the cell is loaded.
  for (
    let attempt = 0;
    attempt < 20 && !(await heading.isVisible());
    attempt++
  ) {
    const point = await cellPoint(page, label, row, column);
    await page.mouse.click(point.x, point.y);
    // Alt-Enter: the active cell's whole value (Enter edits it).
    await page.keyboard.press('Alt+Enter');
    await page.waitForTimeout(250);
  }
  await heading.waitFor({ timeout: 5_000 });
  const text =
    (await gridTab(page, label)
      .locator('.searchbook-ValueView-body')
      .textContent()) ?? '';
  await gridTab(page, label).locator('.searchbook-ValueView-close').click();
  return text;
}

async function clickHeader(label: string, column: string): Promise<void> {
  const point = await headerPoint(page, label, column, { scroll: true });
  await page.mouse.click(point.x, point.y);
  // The click reopens the grid through the engine; the next click must land on the new layout.
  await page.waitForFunction(
    () =>
      /rows loaded/.test(
        document.querySelector('.searchbook-DocumentGrid-status')
          ?.textContent ?? ''
      ),
    undefined,
    { timeout: 30_000 }
  );
}

describe('Elasticsearch grid', () => {
  const label = 'shop · es';
  const grid = () => gridOf(page, label);

  it('a filter row set in the bar reaches the engine: aria-rowcount follows the filtered total; Match case starts off, so RED finds red', async () => {
    await openGrid(page, 'es', 'shop');
    await expect(grid().getAttribute('aria-rowcount')).resolves.toBe(
      String(DOCS)
    );
    const bar = filterBar(page, label);
    await expect(
      bar.getByRole('checkbox', { name: 'Match case' }).isChecked()
    ).resolves.toBe(false);
    await addFilterRow(page, label, {
      row: 1,
      column: 'tag',
      operator: 'equals',
      value: 'RED'
    });
    await bar.getByRole('button', { name: 'Apply' }).click();
    await gridShows(
      page,
      label,
      "return node.getAttribute('aria-rowcount') === '10'"
    );
    await expect(cellValue(label, 'tag', 0)).resolves.toBe('red');
  });

  it('header clicks sort through the engine: ascending, descending, then off', async () => {
    await clickHeader(label, 'n');
    await gridShows(
      page,
      label,
      `return node.dataset.sort === '[{"column":"n","direction":"asc"}]'`
    );
    await expect(cellValue(label, 'n', 0)).resolves.toBe('0');
    await clickHeader(label, 'n');
    await gridShows(
      page,
      label,
      `return node.dataset.sort === '[{"column":"n","direction":"desc"}]'`
    );
    // The largest n tagged red, out of the whole index: the engine sorted, not the loaded rows.
    await page.waitForFunction(() =>
      /rows loaded/.test(
        document.querySelector('.searchbook-DocumentGrid-status')
          ?.textContent ?? ''
      )
    );
    await expect(cellValue(label, 'n', 0)).resolves.toBe('27');
    await expect(grid().getAttribute('aria-rowcount')).resolves.toBe('10');
    await screenshot(page, 'filters-sorted');
    await clickHeader(label, 'n');
    await gridShows(page, label, `return node.dataset.sort === '[]'`);
    await expect(cellValue(label, 'n', 0)).resolves.toBe('0');
  });

  it('sorting on _id is dropped with a visible note; the other sorted column still sorts', async () => {
    await clickHeader(label, 'n');
    await clickHeader(label, 'n');
    await clickHeader(label, '_id');
    await gridShows(
      page,
      label,
      `return node.dataset.sort?.includes('_id') === true`
    );
    await gridTab(page, label)
      .getByRole('note')
      .filter({ hasText: 'Not sorted by _id' })
      .waitFor({ timeout: 30_000 });
    await expect(cellValue(label, 'n', 0)).resolves.toBe('27');
  });

  it('a value that does not fit its column is refused under its row and in place of the rows; nothing is sent', async () => {
    const bar = filterBar(page, label);
    const row = await addFilterRow(page, label, {
      row: 2,
      column: 'n',
      operator: 'greater than',
      value: 'lots'
    });
    const pits = es.state.pits.size;
    await bar.getByRole('button', { name: 'Apply' }).click();
    await expect(
      row.getByRole('alert').textContent({ timeout: 30_000 })
    ).resolves.toContain('"lots" is not a number');
    expect(es.state.pits.size).toBe(pits);
    // The previous filter's rows are not shown under a bar that says something else.
    await expect(grid().getAttribute('aria-rowcount')).resolves.toBe('0');
    await expect(
      gridTab(page, label)
        .locator('.searchbook-DocumentGrid-viewState[role="alert"]')
        .textContent()
    ).resolves.toContain('"lots" is not a number');
    await row.getByRole('textbox', { name: 'Value' }).fill('20');
    await bar.getByRole('button', { name: 'Apply' }).click();
    await gridShows(
      page,
      label,
      "return node.getAttribute('aria-rowcount') === '3'"
    );
  });

  it('"Insert into notebook" adds the grid’s request below the active cell', async () => {
    await toolbarAction(gridTab(page, label), 'Copy', 'Insert into notebook');
    const inserted = page
      .locator('.jp-NotebookPanel .jp-Cell')
      .filter({ hasText: 'POST /shop/_search' });
    await inserted.first().waitFor({ timeout: 30_000 });
    const text =
      (await inserted.first().locator('.jp-InputArea-editor').textContent()) ??
      '';
    expect(text).toContain('%use es');
    expect(text).toContain('"order": "desc"');
    expect(text).toContain('"gt": 20');
  });

  it('"Copy as curl" in the cell\'s context menu gives a command the engine answers like the cell', async () => {
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(page.url()).origin
      });
    const inserted = page
      .locator('.jp-NotebookPanel .jp-Cell')
      .filter({ hasText: 'POST /shop/_search' })
      .first();
    await inserted.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy as curl' }).click();
    let command = '';
    for (let i = 0; i < 100 && !command.startsWith('curl '); i++) {
      await page.waitForTimeout(100);
      command = await page.evaluate(() => navigator.clipboard.readText());
    }
    expect(command).toContain('/shop/_search');
    const { stdout } = await run('bash', ['-c', command]);
    expect(
      (JSON.parse(stdout) as { hits: { total: { value: number } } }).hits.total
        .value
    ).toBe(3);
  });

  it('"Copy as curl" on a cell without a request says so, and the page throws nothing', async () => {
    const thrown: string[] = [];
    const listen = (err: Error) => thrown.push(err.message);
    page.on('pageerror', listen);
    const connectCell = page
      .locator('.jp-NotebookPanel .jp-Cell')
      .filter({ hasText: '%connect elasticsearch' })
      .first();
    await connectCell.click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Copy as curl' }).click();
    await expect(
      page
        .locator('.jp-toast-message')
        .filter({ hasText: 'This cell holds no request to copy as curl.' })
        .first()
        .textContent({ timeout: 10_000 })
    ).resolves.toContain('Copy as curl: ');
    page.off('pageerror', listen);
    expect(thrown).toEqual([]);
  });
});

describe('Typesense grid', () => {
  const label = 'items · ts';

  it('the case control is disabled with the reason; word operators are named as they match; an operator the engine cannot express is refused with what serves instead', async () => {
    await openGrid(page, 'ts', 'items');
    const bar = filterBar(page, label);
    const matchCase = bar.getByRole('checkbox', { name: 'Match case' });
    await expect(matchCase.isDisabled()).resolves.toBe(true);
    await expect(bar.textContent()).resolves.toContain(
      'Not supported by this database'
    );
    await bar.getByRole('button', { name: 'Add filter' }).click();
    const row = bar.getByRole('group', { name: 'Filter row 1' });
    await row.getByRole('combobox', { name: 'Column' }).selectOption('title');
    const operator = row.getByRole('combobox', { name: 'Operator' });
    await expect(
      operator.locator('option[value="contains"]').textContent()
    ).resolves.toBe('has word');
    await expect(
      operator.locator('option[value="starts with"]').textContent()
    ).resolves.toBe('has word starting with');
    await operator.selectOption('contains');
    await expect(operator.getAttribute('title')).resolves.toContain(
      'Whole words only'
    );
    await operator.selectOption('ends with');
    await row.getByRole('textbox', { name: 'Value' }).fill('7');
    await bar.getByRole('button', { name: 'Apply' }).click();
    const refusal =
      (await row.getByRole('alert').textContent({ timeout: 30_000 })) ?? '';
    expect(refusal).toMatch(
      /^Typesense cannot filter with "ends with": Typesense filters match whole words and word starts, never the end of a value\. .*infix: true/
    );
    expect(refusal).not.toContain('contains');
    await row.getByRole('combobox', { name: 'Column' }).selectOption('rank');
    await row
      .getByRole('combobox', { name: 'Operator' })
      .selectOption('less than');
    await bar.getByRole('button', { name: 'Apply' }).click();
    await gridShows(
      page,
      label,
      "return node.getAttribute('aria-rowcount') === '7'"
    );
    await clickHeader(label, 'rank');
    await clickHeader(label, 'rank');
    await gridShows(
      page,
      label,
      `return node.dataset.sort?.includes('desc') === true`
    );
    await page.waitForTimeout(300);
    await expect(cellValue(label, 'rank', 0)).resolves.toBe('6');
    await screenshot(page, 'filters-typesense');
  });

  it('the bar says what is applied: a row not applied yet is marked, removing an applied row un-applies it, and Refresh keeps them in step', async () => {
    const bar = filterBar(page, label);
    const inForce = bar.getByRole('status', { name: 'Filter in force' });
    await expect(inForce.textContent()).resolves.toBe(
      'Filter applied: rank less than "7".'
    );
    const second = await addFilterRow(page, label, {
      row: 2,
      column: 'rank',
      operator: 'greater than',
      value: '2'
    });
    await expect(second.getAttribute('aria-description')).resolves.toBe(
      'Not applied yet'
    );
    const first = bar.getByRole('group', { name: 'Filter row 1' });
    await expect(first.getAttribute('aria-description')).resolves.toBeNull();
    await expect(inForce.textContent()).resolves.toBe(
      'Filter applied: rank less than "7". Changes not applied yet: Apply or Enter.'
    );
    await screenshot(page, 'filters-not-applied-yet');
    // The applied row removed: the grid reads again without it, the new row still waits for Apply.
    await first.getByRole('button', { name: 'Remove filter row 1' }).click();
    await gridShows(
      page,
      label,
      "return node.getAttribute('aria-rowcount') === '40'"
    );
    await gridTab(page, label)
      .locator('button', { hasText: 'Refresh' })
      .click();
    await gridShows(
      page,
      label,
      "return node.getAttribute('aria-rowcount') === '40' && node.getAttribute('aria-busy') === 'false'"
    );
    await expect(inForce.textContent()).resolves.toBe(
      'No filter applied. Changes not applied yet: Apply or Enter.'
    );
    await bar.getByRole('button', { name: 'Apply' }).click();
    await gridShows(
      page,
      label,
      "return node.getAttribute('aria-rowcount') === '37'"
    );
    await expect(inForce.textContent()).resolves.toBe(
      'Filter applied: rank greater than "2".'
    );
    await expect(
      bar.locator('.searchbook-mod-unapplied').count()
    ).resolves.toBe(0);
  });
});
