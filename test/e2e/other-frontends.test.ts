/**
 * Outputs where searchbook's grid is not the whole story: Notebook 7 with the
 * extension (grids without an empty band, nothing to copy on an answer without rows), and a
 * JupyterLab with the extension disabled, which must show the HTML tables and not a JSON tree.
 */
import { scratchDir } from '../support/scratch-dir';
import type { Browser, Page } from 'playwright-core';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { type RunningLab, startJupyterLab } from './support/jupyter-lab';
import { suiteChromium } from './support/shared-lab';
import {
  bandUnder,
  cellOutput,
  openNotebook,
  runAllCells,
  screenshot,
  writeNotebook
} from './support/notebook-page';

jest.setTimeout(240_000);

const ES_PASSWORD = 'e2e-frontends-secret-2b7e';

let sandbox: RunningSandbox;
let root: string;
let browser: Browser;

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
    products: 300
  });
  root = scratchDir('searchbook-e2e-frontends-');
  await writeNotebook(root, 'frontends.ipynb', [
    `%connect elasticsearch ${sandbox.esUrl} auth=basic user=elastic password=\${env:ES_PASSWORD} name=sandbox-es`,
    'GET /products/_search\n{"size": 3, "_source": ["name", "price"], "sort": [{"_doc": "asc"}]}',
    'GET /products/_search\n{"size": 0, "aggs": {"brands": {"terms": {"field": "brand.keyword"}}}}',
    'GET /_cat/indices?format=json'
  ]);
  browser = await suiteChromium();
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

async function withFrontend(
  options: Partial<Parameters<typeof startJupyterLab>[0]>,
  check: (page: Page) => Promise<void>
): Promise<void> {
  const lab: RunningLab = await startJupyterLab({
    root,
    env: { ES_PASSWORD },
    ...options
  });
  const context = await browser.newContext({
    viewport: { width: 1600, height: 1000 }
  });
  try {
    const page = await context.newPage();
    await openNotebook(page, lab.open('frontends.ipynb'));
    await runAllCells(page);
    await check(page);
  } finally {
    await context.close();
    await lab.close();
  }
}

it('Notebook 7 shows grids with no empty band under them, and no copy buttons on an answer without rows', async () => {
  await withFrontend({ app: 'notebook' }, async page => {
    const grid = cellOutput(page, 1).locator('.searchbook-Grid');
    await grid.waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe('3');
    const { band, scrollsSideways } = await bandUnder(grid);
    expect(scrollsSideways).toBe(false);
    expect(Math.abs(band)).toBeLessThanOrEqual(1);
    const aggs = cellOutput(page, 2);
    await aggs.locator('.searchbook-Empty').waitFor();
    expect(await aggs.getByRole('button', { name: 'Copy TSV' }).count()).toBe(
      0
    );
    expect(await aggs.getByRole('button', { name: 'Raw JSON' }).count()).toBe(
      1
    );
    expect(
      await cellOutput(page, 1)
        .getByRole('button', { name: 'Copy TSV' })
        .count()
    ).toBe(1);
    await screenshot(page, 'notebook7-grids');
  });
});

it('JupyterLab with the extension disabled shows the HTML tables, not a JSON tree', async () => {
  await withFrontend({ disabledExtensions: ['searchbook'] }, async page => {
    const hits = cellOutput(page, 1);
    const table = hits.locator('table.searchbook-table');
    await table.waitFor();
    expect(await hits.locator('.searchbook-Grid').count()).toBe(0);
    expect(await page.locator('.jp-OutputArea .jp-RenderedJSON').count()).toBe(
      0
    );
    expect(await table.locator('thead th').allTextContents()).toEqual(
      expect.arrayContaining(['_id', 'name', 'price'])
    );
    expect(await table.locator('tbody tr').count()).toBe(3);
    // The aggregation-only answer: its aggregation table, and no empty hits table before it.
    const aggs = cellOutput(page, 2).locator('table.searchbook-table');
    expect(await aggs.count()).toBe(1);
    expect(await aggs.locator('caption').textContent()).toBe(
      'Aggregation brands'
    );
    expect(
      await cellOutput(page, 3)
        .locator('table.searchbook-table tbody tr')
        .count()
    ).toBeGreaterThan(0);
    await screenshot(page, 'lab-without-extension');
  });
});
