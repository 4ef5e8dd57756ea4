/**
 * The extension in a real JupyterLab (from .venv) in Debian's Chromium: a notebook on the
 * searchbook kernel against the sandbox engines, checked the way a user would look at it.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { type RunningLab } from './support/jupyter-lab';
import { suiteChromium, suiteJupyterLab } from './support/shared-lab';
import {
  bandUnder,
  cellOutput,
  openNotebook,
  runAllCells,
  runCommand,
  screenshot,
  writeNotebook
} from './support/notebook-page';

jest.setTimeout(180_000);

const ES_PASSWORD = 'e2e-es-secret-5d1c';
const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">';
const HOSTILE_NOTE = '<script>window.__pwned=2</script>';

/** A document of many long fields: its grid is wider than any notebook output. */
const WIDE_DOCUMENT = Object.fromEntries(
  Array.from({ length: 30 }, (_, i) => [
    `field_${i}`,
    `a value long enough to widen its column ${i}`
  ])
);

let sandbox: RunningSandbox;
let lab: RunningLab;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: ES_PASSWORD,
    tsApiKey: 'e2e-ts-secret',
    security: true,
    products: 500
  });
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-notebooks-'));
  await writeNotebook(root, 'grid.ipynb', [
    `%connect elasticsearch ${sandbox.esUrl} auth=basic user=elastic password=\${env:ES_PASSWORD} name=sandbox-es`,
    [
      'PUT /e2e-payload/_doc/1?refresh=true',
      JSON.stringify({ name: HOSTILE_NAME, note: HOSTILE_NOTE, price: 30 }),
      'PUT /e2e-payload/_doc/2?refresh=true',
      JSON.stringify({ name: 'lamp', note: 'plain', price: 5 }),
      'PUT /e2e-payload/_doc/3?refresh=true',
      JSON.stringify({ name: 'desk', note: 'plain', price: 120 })
    ].join('\n'),
    'GET /e2e-payload/_search\n{"query": {"match_all": {}}, "sort": [{"_doc": "asc"}]}',
    'GET /_cat/indices?format=json',
    [
      'PUT /e2e-wide/_doc/1?refresh=true',
      JSON.stringify(WIDE_DOCUMENT),
      'GET /e2e-wide/_search'
    ].join('\n')
  ]);
  lab = await suiteJupyterLab(root, { ES_PASSWORD });
  browser = await suiteChromium();
  context = await browser.newContext({
    viewport: { width: 1920, height: 1080 }
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: lab.url
  });
  page = await context.newPage();
  await openNotebook(page, lab.open('grid.ipynb'));
  await runAllCells(page);
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await sandbox?.close();
});

/** The hits grid of the search cell. */
const searchGrid = () => cellOutput(page, 2).locator('.searchbook-Grid');

async function copiedTsv(cell: number): Promise<string> {
  await cellOutput(page, cell)
    .getByRole('button', { name: 'Copy TSV' })
    .click();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Clicks the middle of a column's header, found through the grid's published column edges. */
async function clickHeader(column: string): Promise<void> {
  const grid = searchGrid();
  const columns: string[] = JSON.parse(
    (await grid.getAttribute('data-columns')) ?? '[]'
  );
  const edges: number[] = JSON.parse(
    (await grid.getAttribute('data-column-edges')) ?? '[]'
  );
  const index = columns.indexOf(column);
  const box = await grid.boundingBox();
  if (index < 0 || !box) {
    throw new Error(`no column ${column} in ${columns.join(', ')}`);
  }
  await page.mouse.click(
    box.x + ((edges[index] ?? 0) + (edges[index + 1] ?? 0)) / 2,
    box.y + 8
  );
}

describe('searchbook in JupyterLab', () => {
  it('renders the search as a grid with the mapping columns and every hit', async () => {
    const grid = searchGrid();
    await grid.waitFor();
    expect(
      JSON.parse((await grid.getAttribute('data-columns')) ?? '[]')
    ).toEqual(
      expect.arrayContaining(['_id', '_index', 'name', 'note', 'price'])
    );
    expect(await grid.getAttribute('aria-rowcount')).toBe('3');
    const status = await cellOutput(page, 2)
      .locator('.searchbook-Status')
      .textContent();
    expect(status).toMatch(
      /^sandbox-es · GET \/e2e-payload\/_search · 200 · \d+ ms · 3 total · 3 shown$/
    );
    await screenshot(page, 'hits-grid-light');
  });

  it('leaves no empty band under a grid whose columns fit', async () => {
    const { band, scrollsSideways } = await bandUnder(searchGrid());
    expect(scrollsSideways).toBe(false);
    expect(Math.abs(band)).toBeLessThanOrEqual(1);
  });

  it('keeps room for the sideways scroll bar under a grid wider than its output, and no more', async () => {
    const grid = cellOutput(page, 4).locator('.searchbook-Grid').last();
    await grid.waitFor();
    const { band, scrollsSideways } = await bandUnder(grid);
    expect(scrollsSideways).toBe(true);
    // The bar's height is taken into account: the one row is not covered by it.
    expect(Math.abs(band)).toBeLessThanOrEqual(1);
  });

  it('follows the window in width: it draws as wide as it is, the sideways scroll bar and its room coming and going with it', async () => {
    const grid = searchGrid();
    /**
     * Once the grid draws as wide as it is inside its borders (its drawn area, the viewport, laid
     * out from the size Lumino was told), that width between `least` and `most`: the width.
     */
    const fitted = async (least: number, most: number): Promise<number> => {
      const width = await page.waitForFunction(
        ([node, range]) => {
          const drawn = (node as HTMLElement).querySelector<HTMLElement>(
            '.lm-DataGrid-viewport'
          );
          const inside = (node as HTMLElement).clientWidth;
          return (
            drawn?.getBoundingClientRect().width === inside &&
            inside >= range.least &&
            inside <= range.most &&
            inside
          );
        },
        [await grid.elementHandle(), { least, most }] as const,
        { timeout: 10_000 }
      );
      return (await width.jsonValue()) as number;
    };
    const wide = await fitted(1, Number.MAX_SAFE_INTEGER);
    try {
      await page.setViewportSize({ width: 700, height: 1080 });
      await fitted(1, wide - 500);
      const narrow = await bandUnder(grid);
      expect(narrow.scrollsSideways).toBe(true);
      expect(Math.abs(narrow.band)).toBeLessThanOrEqual(1);
    } finally {
      await page.setViewportSize({ width: 1920, height: 1080 });
    }
    expect(await fitted(wide, wide)).toBe(wide);
    const back = await bandUnder(grid);
    expect(back.scrollsSideways).toBe(false);
    expect(Math.abs(back.band)).toBeLessThanOrEqual(1);
  });

  it('sorts the rows shown when a header is clicked, and back on the third click', async () => {
    const ids = (tsv: string) =>
      tsv
        .split('\n')
        .slice(1)
        .map(line => line.split('\t')[0]);
    expect(ids(await copiedTsv(2))).toEqual(['1', '2', '3']);
    await clickHeader('price');
    expect(await searchGrid().getAttribute('data-sort')).toBe(
      'price ascending'
    );
    expect(ids(await copiedTsv(2))).toEqual(['2', '1', '3']);
    await clickHeader('price');
    expect(ids(await copiedTsv(2))).toEqual(['3', '1', '2']);
    await clickHeader('price');
    expect(ids(await copiedTsv(2))).toEqual(['1', '2', '3']);
  });

  it('shows a document holding HTML and script as characters and runs nothing', async () => {
    const tsv = await copiedTsv(2);
    expect(tsv).toContain(HOSTILE_NAME);
    expect(tsv).toContain(HOSTILE_NOTE);
    const grid = searchGrid();
    const columns: string[] = JSON.parse(
      (await grid.getAttribute('data-columns')) ?? '[]'
    );
    const edges: number[] = JSON.parse(
      (await grid.getAttribute('data-column-edges')) ?? '[]'
    );
    const box = await grid.boundingBox();
    const name = columns.indexOf('name');
    // Header rows (name, type) then the first body row: the hostile document.
    const rowHeight =
      (box?.height ?? 0) > 0
        ? Number(
            (
              await grid.evaluate(n =>
                getComputedStyle(n).getPropertyValue('--jp-ui-font-size1')
              )
            ).replace('px', '')
          ) * 1.9
        : 0;
    await page.mouse.dblclick(
      (box?.x ?? 0) + ((edges[name] ?? 0) + (edges[name + 1] ?? 0)) / 2,
      (box?.y ?? 0) + rowHeight * 2.5
    );
    const view = cellOutput(page, 2).locator('.searchbook-ValueView-body');
    await view.waitFor();
    expect(await view.textContent()).toBe(HOSTILE_NAME);
    expect(
      await page
        .locator('.jp-Notebook img[src="x"], .jp-OutputArea script')
        .count()
    ).toBe(0);
    expect(
      await page.evaluate(() => (window as { __pwned?: number }).__pwned)
    ).toBeUndefined();
    await screenshot(page, 'value-view-hostile-document');
  });

  it('toggles to the raw JSON response and back', async () => {
    const output = cellOutput(page, 2);
    await output.getByRole('button', { name: 'Raw JSON' }).click();
    const raw = output.locator('.searchbook-RawJson');
    await raw.waitFor({ state: 'visible' });
    const body = JSON.parse((await raw.textContent()) ?? '{}') as {
      hits?: { hits?: unknown[] };
    };
    expect(body.hits?.hits).toHaveLength(3);
    expect(
      await output.locator('.searchbook-GridView').first().isVisible()
    ).toBe(false);
    await output.getByRole('button', { name: 'Raw JSON' }).click();
    await raw.waitFor({ state: 'hidden' });
    expect(
      await output.locator('.searchbook-GridView').first().isVisible()
    ).toBe(true);
  });

  it('renders _cat/indices as a table in the same grid', async () => {
    const grid = cellOutput(page, 3).locator('.searchbook-Grid');
    await grid.waitFor();
    expect(
      JSON.parse((await grid.getAttribute('data-columns')) ?? '[]')
    ).toEqual(expect.arrayContaining(['index', 'docs.count', 'health']));
    const tsv = await copiedTsv(3);
    expect(tsv).toMatch(/\ne2e-payload\t|\te2e-payload\t|\te2e-payload$/m);
  });

  it('paints the grid with the dark theme colours after a theme switch', async () => {
    // The painted canvas (the first; the second is the selection overlay), in the left padding
    // of the first body cell, where only the row's background is painted.
    const brightness = (node: HTMLElement): number => {
      const canvas = node.querySelector('canvas');
      const ratio = window.devicePixelRatio;
      const rowHeight = Math.round(
        Number.parseFloat(
          getComputedStyle(node).getPropertyValue('--jp-ui-font-size1')
        ) * 1.9
      );
      const edges = JSON.parse(node.dataset.columnEdges ?? '[0]') as number[];
      const x = Math.floor(((edges[0] ?? 0) + 3) * ratio);
      const y = Math.floor(rowHeight * 2.5 * ratio);
      const pixel = canvas?.getContext('2d')?.getImageData(x, y, 1, 1).data;
      return pixel && pixel[3] === 255
        ? (pixel[0]! + pixel[1]! + pixel[2]!) / 3
        : -1;
    };
    expect(await searchGrid().evaluate(brightness)).toBeGreaterThan(200);
    await runCommand(page, 'apputils:change-theme', {
      theme: 'JupyterLab Dark'
    });
    await page.waitForFunction(
      () => document.body.dataset.jpThemeLight === 'false',
      undefined,
      { timeout: 30_000 }
    );
    let dark = 255;
    for (let attempt = 0; attempt < 60 && dark >= 80; attempt++) {
      await page.waitForTimeout(250);
      dark = await searchGrid().evaluate(brightness);
    }
    expect(dark).toBeLessThan(80);
    expect(dark).toBeGreaterThanOrEqual(0);
    await screenshot(page, 'hits-grid-dark');
    await runCommand(page, 'apputils:change-theme', {
      theme: 'JupyterLab Light'
    });
  });

  it('highlights console cells in the editor', async () => {
    const editor = page
      .locator('.jp-Notebook .jp-CodeCell')
      .nth(2)
      .locator('.cm-content');
    const method = editor.locator('span', { hasText: /^GET$/ }).first();
    await method.waitFor();
    const color = await method.evaluate(node => getComputedStyle(node).color);
    const plain = await editor.evaluate(node => getComputedStyle(node).color);
    expect(color).not.toBe(plain);
  });

  it('completes with Tab and shows help with Shift-Tab, both answered by the kernel', async () => {
    await runCommand(page, 'notebook:insert-cell-below');
    await runCommand(page, 'notebook:enter-edit-mode');
    await page.keyboard.type('GET /_cat/indi');
    await page.keyboard.press('Tab');
    const editor = page.locator(
      '.jp-Notebook .jp-CodeCell.jp-mod-active .cm-content'
    );
    const completer = page.locator('.jp-Completer');
    // One match is inserted at once; several open the completer's list.
    await page.waitForFunction(
      () =>
        /_cat\/indices/.test(
          document.querySelector('.jp-CodeCell.jp-mod-active .cm-content')
            ?.textContent ?? ''
        ) ||
        document.querySelector('.jp-Completer .jp-Completer-item') !== null,
      undefined,
      { timeout: 15_000 }
    );
    const offered = (await completer.isVisible())
      ? await completer.textContent()
      : await editor.textContent();
    expect(offered).toContain('indices');
    if (await completer.isVisible()) {
      await page.keyboard.press('Escape');
    }
    await runCommand(page, 'notebook:enter-edit-mode');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('GET /_cat/indices');
    await page.keyboard.press('Shift+Tab');
    const tooltip = page.locator('.jp-Tooltip');
    await tooltip.waitFor({ timeout: 15_000 });
    expect(await tooltip.textContent()).toMatch(/cat/i);
    await screenshot(page, 'inspect-tooltip');
  });
});
