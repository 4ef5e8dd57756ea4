/**
 * `npm run docs:pictures`: the guide's pictures, made from the product as it is. The sandbox and
 * a JupyterLab are started as `npm start` starts them, the getting-started page's steps are
 * followed in Chromium (as its browser test does), and each step is captured; then
 * reduce.py shrinks the captures to a palette and sets the grid's steps side by side, into
 * docs/images/. Look at every picture before committing it.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { launchChromium } from '../support/browser';
import {
  readGettingStarted,
  type StepName,
  walkGettingStarted
} from '../support/getting-started';
import { cellPoint, gridShows, gridTab, openGrid } from '../support/grid-page';
import { REPO, startJupyterLab } from '../support/jupyter-lab';

const ES_PASSWORD = 'docs-pictures-es';
const TS_API_KEY = 'docs-pictures-ts';
const OUT = join(REPO, 'docs', 'images');

/** The sandbox on `npm start`'s ports, so the pictures name the connection a reader sees. */
async function sandboxOnUsualPorts(): Promise<RunningSandbox> {
  const options = {
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: ES_PASSWORD,
    tsApiKey: TS_API_KEY,
    security: true
  };
  try {
    return await startSandbox({ ...options, esPort: 9200, tsPort: 8108 });
  } catch {
    console.error(
      'docs:pictures: ports 9200/8108 are taken; the pictures name other ports'
    );
    return startSandbox({ ...options, esPort: 0, tsPort: 0 });
  }
}

/** Captures the part of the page a locator covers, at most `height` pixels of it. */
async function capture(
  page: Page,
  part: Locator,
  path: string,
  height?: number
): Promise<void> {
  const box = await part.boundingBox();
  if (!box) {
    throw new Error(`nothing on screen to capture for ${path}`);
  }
  await page.screenshot({
    path,
    clip: {
      x: box.x,
      y: box.y,
      width: box.width,
      height: Math.min(box.height, height ?? box.height)
    }
  });
}

/** The grid tab's parts a reader looks for: the Columns chooser, a cell's menu, Export…. */
async function gridParts(
  page: Page,
  label: string,
  raw: string
): Promise<void> {
  const tab = gridTab(page, label);
  await tab.getByRole('button', { name: 'Columns', exact: true }).click();
  const chooser = page.getByRole('dialog', { name: 'Columns' });
  await chooser.waitFor();
  await capture(page, chooser, join(raw, 'grid-columns.png'), 420);
  await page.keyboard.press('Escape');
  await chooser.waitFor({ state: 'detached' });

  const cell = await cellPoint(page, label, 1, 'name');
  await page.mouse.click(cell.x, cell.y, { button: 'right' });
  const menu = page.locator('.lm-Menu').last();
  await menu.waitFor();
  await capture(page, menu, join(raw, 'grid-context-menu.png'));
  await page.getByRole('menuitem', { name: 'Export…' }).click();
  const dialog = page.locator('.jp-Dialog-content');
  await dialog.waitFor();
  await page.waitForTimeout(200);
  await capture(page, dialog, join(raw, 'export-dialog.png'));
  await page.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * A Typesense connection beside the Elasticsearch one: the panel's Keys and Server dashboard
 * sections, and a collection's grid under a search preview.
 */
async function typesenseParts(
  page: Page,
  notebook: Locator,
  cellIndex: number,
  raw: string
): Promise<void> {
  const cell = notebook.locator('.jp-CodeCell').nth(cellIndex);
  await cell.locator('.cm-content').click();
  await page.keyboard.insertText(
    '%connect typesense ${env:SEARCHBOOK_TYPESENSE_URL} key=${env:TYPESENSE_API_KEY}'
  );
  await page.keyboard.press('Shift+Enter');
  await cell
    .locator('.jp-OutputArea')
    .getByText('Connected to Typesense')
    .waitFor({ timeout: 30_000 });
  const tree = page.getByRole('tree', { name: 'searchbook connections' });
  const ts = tree.locator(
    '[role="treeitem"][aria-level="1"][aria-label^="ts-"]'
  );
  await ts.waitFor({ timeout: 30_000 });
  const connection = ((await ts.getAttribute('aria-label')) ?? '').split(
    ' · '
  )[0] as string;
  for (const title of ['Keys', 'Server dashboard']) {
    const section = ts.locator('details.searchbook-Admin-section', {
      has: page.locator(`summary:text-is("${title}")`)
    });
    await section.locator('summary').first().click();
  }
  await ts.locator('.searchbook-Metric').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(2_500);
  await capture(
    page,
    page.locator('#jp-left-stack'),
    join(raw, 'panel-typesense.png')
  );

  const label = await openGrid(page, connection, 'books');
  const preview = gridTab(page, label).getByRole('search', {
    name: 'Search preview'
  });
  await preview.getByRole('searchbox', { name: 'q' }).fill('garden');
  await preview.getByRole('searchbox', { name: 'q' }).press('Enter');
  await gridShows(
    page,
    label,
    `return JSON.parse(node.dataset.columns ?? '[]').includes('_text_match') && node.getAttribute('data-view') !== 'loading'`
  );
  await page.waitForTimeout(500);
  await capture(
    page,
    gridTab(page, label),
    join(raw, 'search-preview.png'),
    460
  );
}

async function main(): Promise<void> {
  const raw = await mkdtemp(join(tmpdir(), 'searchbook-pictures-'));
  const steps = await readGettingStarted();
  const sandbox = await sandboxOnUsualPorts();
  const root = await mkdtemp(join(tmpdir(), 'searchbook-pictures-lab-'));
  await cp(join(REPO, 'examples'), root, { recursive: true });
  const lab = await startJupyterLab({
    root,
    env: {
      ES_PASSWORD,
      TYPESENSE_API_KEY: TS_API_KEY,
      SEARCHBOOK_ES_URL: sandbox.esUrl,
      SEARCHBOOK_TYPESENSE_URL: sandbox.tsUrl
    }
  });
  const browser = await launchChromium();
  try {
    const page = await (
      await browser.newContext({
        viewport: { width: 1440, height: 860 },
        deviceScaleFactor: 1
      })
    ).newPage();
    await page.goto(`${lab.url}/lab?token=${lab.token}&reset`);
    await page
      .locator('.jp-LauncherCard[data-category="Notebook"]')
      .first()
      .waitFor({ timeout: 60_000 });
    const notebook = page.locator('.jp-NotebookPanel:visible');
    let label = '';
    const shots: Partial<Record<StepName, () => Promise<void>>> = {
      searched: () =>
        capture(page, notebook, join(raw, 'notebook-hits.png'), 560),
      'grid-open': async () => {
        label = (await page
          .locator('.searchbook-DocumentGrid [role="grid"]')
          .first()
          .getAttribute('aria-label')) as string;
        await page.screenshot({ path: join(raw, 'notebook-and-grid.png') });
        await capture(
          page,
          page.locator('#jp-left-stack'),
          join(raw, 'panel-tree.png'),
          260
        );
      },
      filtered: async () => {
        await capture(
          page,
          gridTab(page, label),
          join(raw, 'step-filtered.png'),
          430
        );
        await capture(
          page,
          gridTab(page, label).getByRole('search', {
            name: 'Filter documents'
          }),
          join(raw, 'grid-filter-bar.png')
        );
      },
      sorted: () =>
        capture(page, gridTab(page, label), join(raw, 'step-sorted.png'), 430),
      edited: () =>
        capture(page, gridTab(page, label), join(raw, 'step-edited.png'), 430),
      requests: () =>
        capture(
          page,
          page.locator('.jp-Dialog-content'),
          join(raw, 'show-requests.png')
        ),
      saved: () =>
        capture(page, gridTab(page, label), join(raw, 'step-saved.png'), 430)
    };
    await walkGettingStarted(page, steps, async step => {
      await page.waitForTimeout(300);
      await shots[step]?.();
    });

    // Answers and charts: an aggregation in the notebook the walk wrote.
    const last = notebook.locator('.jp-CodeCell').nth(steps.cells.length);
    await last.locator('.cm-content').click();
    await page.keyboard.insertText(
      'GET /products/_search\n{"size": 0, "aggs": {"categories": {"terms": {"field": "category"}}}}'
    );
    await page.keyboard.press('Shift+Enter');
    const chart = last.locator('.jp-OutputArea');
    await chart.locator('.searchbook-BarChart').waitFor({ timeout: 30_000 });
    await last.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await capture(page, chart, join(raw, 'answers-chart.png'), 520);

    await gridParts(page, label, raw);
    await typesenseParts(page, notebook, steps.cells.length + 1, raw);

    await writeFile(
      join(raw, 'plan.json'),
      JSON.stringify({
        pictures: [
          'notebook-and-grid.png',
          'notebook-hits.png',
          'panel-tree.png',
          'grid-filter-bar.png',
          'show-requests.png',
          'answers-chart.png',
          'grid-columns.png',
          'grid-context-menu.png',
          'export-dialog.png',
          'panel-typesense.png',
          'search-preview.png'
        ],
        sheets: {
          'grid-steps.png': [
            {
              file: 'step-filtered.png',
              caption: `1. Filter: ${steps.filter.column} ${steps.filter.operator} ${steps.filter.value}`
            },
            {
              file: 'step-sorted.png',
              caption: `2. Sort: ${steps.sortColumn}, descending`
            },
            {
              file: 'step-edited.png',
              caption: `3. Edit: ${steps.edit.column} ${steps.edit.value}, pending`
            },
            { file: 'step-saved.png', caption: '4. Save' }
          ]
        }
      })
    );
  } finally {
    await browser.close();
    await lab.close();
    await sandbox.close();
  }
  await mkdir(OUT, { recursive: true });
  const { stdout } = await promisify(execFile)(
    join(REPO, '.venv', 'bin', 'python'),
    [join(REPO, 'test', 'e2e', 'docs-pictures', 'reduce.py'), raw, OUT]
  );
  process.stdout.write(stdout);
  console.log(`docs:pictures: written to ${OUT} (raw captures in ${raw})`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
