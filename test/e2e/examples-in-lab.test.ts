/**
 * The example notebooks users open first, run in a real JupyterLab in Chromium against the
 * sandbox engines: every cell runs, grids and charts appear where the notebooks promise them.
 */
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { REPO, type RunningLab } from './support/jupyter-lab';
import { suiteChromium, suiteJupyterLab } from './support/shared-lab';
import {
  cellOutput,
  gridsShownIn,
  openNotebook,
  runAllCells,
  screenshot
} from './support/notebook-page';

jest.setTimeout(240_000);

const ES_PASSWORD = 'e2e-examples-es-7c2d';
const TS_API_KEY = 'e2e-examples-ts-4e9a';

let sandbox: RunningSandbox;
let lab: RunningLab;
let browser: Browser;
let page: Page;
/** Code cell ids of each example, in order, to find a cell's output by its id. */
const codeCells = new Map<string, string[]>();

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: ES_PASSWORD,
    tsApiKey: TS_API_KEY,
    security: true
  });
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-examples-'));
  for (const name of (await readdir(join(REPO, 'examples'))).filter(n =>
    n.endsWith('.ipynb')
  )) {
    const text = await readFile(join(REPO, 'examples', name), 'utf8');
    // Unchanged: they read this run's sandbox addresses from the kernel's environment.
    await writeFile(join(root, name), text);
    const cells = (
      JSON.parse(text) as { cells: { cell_type: string; id: string }[] }
    ).cells;
    codeCells.set(
      name,
      cells.filter(c => c.cell_type === 'code').map(c => c.id)
    );
  }
  // As `npm start` exports them: the secrets, and where the sandbox listens.
  lab = await suiteJupyterLab(root, {
    ES_PASSWORD,
    TYPESENSE_API_KEY: TS_API_KEY,
    SEARCHBOOK_ES_URL: sandbox.esUrl,
    SEARCHBOOK_TYPESENSE_URL: sandbox.tsUrl
  });
  browser = await suiteChromium();
  page = await (
    await browser.newContext({ viewport: { width: 1600, height: 1000 } })
  ).newPage();
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await sandbox?.close();
});

function output(notebook: string, cellId: string) {
  const index = codeCells.get(notebook)?.indexOf(cellId) ?? -1;
  if (index < 0) {
    throw new Error(`${notebook} has no code cell "${cellId}"`);
  }
  return cellOutput(page, index);
}

async function gridColumns(
  notebook: string,
  cellId: string
): Promise<string[]> {
  const grid = (await gridsShownIn(output(notebook, cellId))).first();
  return JSON.parse(
    (await grid.getAttribute('data-columns')) ?? '[]'
  ) as string[];
}

/** Cells whose output is an error (JupyterLab renders tracebacks as stderr text). */
async function failedCells(notebook: string): Promise<string[]> {
  const ids = codeCells.get(notebook) ?? [];
  const failed: string[] = [];
  for (const [index, id] of ids.entries()) {
    if (
      (await cellOutput(page, index)
        .locator(
          '.jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"]'
        )
        .count()) > 0
    ) {
      failed.push(id);
    }
  }
  return failed;
}

describe('examples/elasticsearch.ipynb', () => {
  beforeAll(async () => {
    await openNotebook(page, lab.open('elasticsearch.ipynb'));
    await runAllCells(page);
  });

  it('runs top to bottom, failing only where it shows a refusal', async () => {
    expect(await failedCells('elasticsearch.ipynb')).toEqual(['sql']);
    expect(await output('elasticsearch.ipynb', 'sql').textContent()).toMatch(
      /SQL/
    );
    await screenshot(page, 'example-elasticsearch');
  });

  it('shows the search as a document grid', async () => {
    expect(await gridColumns('elasticsearch.ipynb', 'search')).toEqual(
      expect.arrayContaining(['_id', 'name', 'brand', 'price'])
    );
  });

  it('draws the bucket aggregations as bar charts with their tables', async () => {
    const aggs = output('elasticsearch.ipynb', 'aggs');
    await aggs.locator('.searchbook-BarChart').first().waitFor();
    expect(
      await aggs.locator('.searchbook-BarChart').count()
    ).toBeGreaterThanOrEqual(2);
    expect(
      await aggs.locator('.searchbook-BarChart-label').count()
    ).toBeGreaterThan(3);
    await aggs.scrollIntoViewIfNeeded();
    await screenshot(page, 'example-elasticsearch-aggregations');
  });

  it('lists the indices as a table', async () => {
    expect(await gridColumns('elasticsearch.ipynb', 'cat')).toEqual([
      'index',
      'health',
      'status',
      'docs.count',
      'store.size'
    ]);
  });
});

describe('examples/typesense.ipynb', () => {
  beforeAll(async () => {
    await openNotebook(page, lab.open('typesense.ipynb'));
    await runAllCells(page);
  });

  it('runs top to bottom, failing only at the filter error, with its advice', async () => {
    expect(await failedCells('typesense.ipynb')).toEqual(['filter-error']);
    expect(
      await output('typesense.ipynb', 'filter-error').textContent()
    ).toMatch(/price/);
    await screenshot(page, 'example-typesense');
  });

  it('shows search, one-search multi_search and export as document grids led by id', async () => {
    for (const cell of ['search', 'multi-search', 'export']) {
      const columns = await gridColumns('typesense.ipynb', cell);
      expect(columns[0]).toBe('id');
      expect(columns).toEqual(expect.arrayContaining(['title']));
    }
  });
});
