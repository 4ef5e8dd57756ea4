/**
 * Answers shown whole, in a real JupyterLab in Chromium against the sandbox: a stats metric
 * inside terms buckets shows as columns, a terms inside a terms as a table of its own led by
 * the parent key (its bars named by both keys), the other buckets' documents said under the
 * table; a `_bulk` with a failed item shows a warning under its status line.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { type RunningLab } from './support/jupyter-lab';
import { suiteChromium, suiteJupyterLab } from './support/shared-lab';
import {
  cellOutput,
  gridsShownIn,
  openNotebook,
  runAllCells,
  screenshot,
  writeNotebook
} from './support/notebook-page';

jest.setTimeout(240_000);

const ES_PASSWORD = 'whole-answers-es-5d1a';

let sandbox: RunningSandbox;
let lab: RunningLab;
let browser: Browser;
let page: Page;

const CELLS = ['connect', 'aggs', 'create', 'bulk'] as const;
const output = (name: (typeof CELLS)[number]) =>
  cellOutput(page, CELLS.indexOf(name));

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: ES_PASSWORD,
    tsApiKey: 'unused-e2e-key',
    security: true,
    products: 50
  });
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-whole-'));
  await writeNotebook(root, 'whole.ipynb', [
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD} name=sandbox-es`,
    'POST /products/_search\n{"size": 0, "aggs": {"cats": {"terms": {"field": "category", "size": 3}, "aggs": {"price_stats": {"stats": {"field": "price"}}, "brand": {"terms": {"field": "brand.keyword", "size": 1}}}}}}',
    'PUT /e2e-whole\n{"mappings": {"properties": {"price": {"type": "float"}}}}',
    'POST /e2e-whole/_bulk\n{"index": {"_id": "1"}}\n{"price": 1}\n{"index": {"_id": "2"}}\n{"price": "not a number"}'
  ]);
  lab = await suiteJupyterLab(root, { ES_PASSWORD });
  browser = await suiteChromium();
  page = await (
    await browser.newContext({ viewport: { width: 1600, height: 1000 } })
  ).newPage();
  await openNotebook(page, lab.open('whole.ipynb'));
  await runAllCells(page);
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await sandbox?.close();
});

it('a stats metric inside buckets shows as columns, a terms inside a terms as its own table with the parent key, the other documents said under it', async () => {
  const aggs = output('aggs');
  await aggs.locator('.searchbook-Aggregation-title').first().waitFor();
  expect(
    await aggs.locator('.searchbook-Aggregation-title').allTextContents()
  ).toEqual(['Aggregation cats', 'Aggregation cats > brand']);
  const grids = await gridsShownIn(aggs, 2);
  const cats = JSON.parse(
    (await grids.nth(0).getAttribute('data-columns')) ?? '[]'
  ) as string[];
  expect(cats.slice(0, 2)).toEqual(['key', 'doc_count']);
  expect(cats).toEqual(
    expect.arrayContaining([
      'price_stats.count',
      'price_stats.min',
      'price_stats.max',
      'price_stats.avg',
      'price_stats.sum'
    ])
  );
  expect(
    JSON.parse((await grids.nth(1).getAttribute('data-columns')) ?? '[]')
  ).toEqual(['cats', 'key', 'doc_count']);
  // The second chart's bars are named by the category and the brand.
  const labels = await aggs
    .locator('.searchbook-BarChart')
    .nth(1)
    .locator('.searchbook-BarChart-label')
    .allTextContents();
  expect(labels.length).toBe(3);
  for (const label of labels) {
    expect(label).toMatch(/^\S+ · .+$/);
  }
  const notes = await aggs
    .locator('.searchbook-Aggregation-note')
    .allTextContents();
  expect(
    notes.some(n =>
      /^and [\d,]+ documents in other buckets \(sum_other_doc_count\)$/.test(n)
    )
  ).toBe(true);
  expect(
    notes.some(n =>
      n.startsWith(
        'documents in other buckets (sum_other_doc_count), per cats bucket: '
      )
    )
  ).toBe(true);
  await aggs.scrollIntoViewIfNeeded();
  await screenshot(page, 'aggregations-whole');
});

it('a _bulk with a failed item shows how many failed, with the reason, under its status line', async () => {
  const bulk = output('bulk');
  await bulk.locator('.searchbook-Status').waitFor();
  expect(await bulk.locator('.searchbook-Status').textContent()).toMatch(
    /^sandbox-es · POST \/e2e-whole\/_bulk · 200 · \d+ ms · ⚠ 1 of 2 items failed$/
  );
  const warning = bulk.locator('.searchbook-Warning[role="alert"]');
  expect(await warning.textContent()).toMatch(
    /^Warning: 1 of 2 items failed\. First reasons:\n {2}- index 2 in e2e-whole \(400\): /
  );
  expect(await warning.isVisible()).toBe(true);
  await bulk.scrollIntoViewIfNeeded();
  await screenshot(page, 'bulk-partial-failure');
});
