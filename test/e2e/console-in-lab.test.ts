/**
 * The console as a daily tool, in a real JupyterLab in Chromium: JSON answers with their status
 * line, open tree and field table (and a scrollbar corner that follows the dark theme); errors
 * that lead with the cause; a grid per search of a several-search request, a failed one said
 * once over the first; facets titled as facets, an empty one said in a facet's words; a request
 * in flight with its clock and a Stop control; a typed password removed from the cell on
 * request; a JSON body indented as it is typed; an example notebook that opening leaves
 * unchanged.
 */
import { copyFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { type SlowEngine, startSlowEngine } from '../support/slow-engine';
import { REPO, type RunningLab } from './support/jupyter-lab';
import { suiteChromium, suiteJupyterLab } from './support/shared-lab';
import {
  cellOutput,
  gridsShownIn,
  openNotebook,
  runAllCells,
  runCommand,
  screenshot,
  writeNotebook
} from './support/notebook-page';

jest.setTimeout(180_000);

const ES_PASSWORD = 'e2e-console-es-3b7f';
const TS_API_KEY = 'e2e-console-ts-91ac';

let sandbox: RunningSandbox;
let slow: SlowEngine;
let lab: RunningLab;
let browser: Browser;
let page: Page;
let root: string;

/** The code cells of answers.ipynb (run all at once; the last one fails) and of waits.ipynb (run one by one), by name, in order. */
const ANSWERS = [
  'connect-es',
  'write',
  'mapping',
  'msearch',
  'connect-ts',
  'facets',
  'ts-searches',
  'empty-facet',
  'use-es',
  'fielddata'
] as const;
const WAITS = [
  'connect-slow',
  'slow',
  'typed-password',
  'typed-again'
] as const;
type CellName = (typeof ANSWERS)[number] | (typeof WAITS)[number];
const indexOf = (name: CellName) =>
  Math.max(
    (ANSWERS as readonly string[]).indexOf(name),
    (WAITS as readonly string[]).indexOf(name)
  );
const output = (name: CellName) => cellOutput(page, indexOf(name));

interface LabWindow {
  jupyterapp?: {
    commands: {
      execute(id: string, args?: Record<string, unknown>): Promise<unknown>;
    };
    shell: {
      currentWidget: null | {
        context?: { model: { dirty: boolean } };
        sessionContext?: {
          session?: {
            kernel?: { info: Promise<unknown>; spec: Promise<unknown> } | null;
          } | null;
        };
        content?: {
          activeCellIndex: number;
          widgets: ReadonlyArray<{
            model: { sharedModel: { getSource(): string } };
          }>;
        };
      };
    };
  };
}

/** Runs one cell without waiting for it to finish. */
async function startCell(name: (typeof WAITS)[number]): Promise<void> {
  await page.evaluate(index => {
    const lab = (window as LabWindow).jupyterapp;
    const content = lab?.shell.currentWidget?.content;
    if (content) {
      content.activeCellIndex = index;
    }
    // Not awaited: the command settles only when the cell has finished.
    void lab?.commands.execute('notebook:run-cell');
  }, indexOf(name));
}

const sourceOf = (name: CellName) =>
  page.evaluate(
    index =>
      (window as LabWindow).jupyterapp?.shell.currentWidget?.content?.widgets[
        index
      ]?.model.sharedModel.getSource() ?? '',
    indexOf(name)
  );

/** Waits until the cell's source no longer holds `secret`. */
const secretRemoved = (name: CellName, secret: string) =>
  page.waitForFunction(
    ([index, typed]) =>
      !(
        (window as LabWindow).jupyterapp?.shell.currentWidget?.content?.widgets[
          index
        ]?.model.sharedModel.getSource() ?? typed
      ).includes(typed),
    [indexOf(name), secret] as const,
    { timeout: 10_000 }
  );

beforeAll(async () => {
  [sandbox, slow] = await Promise.all([
    startSandbox({
      esPort: 0,
      tsPort: 0,
      tls: false,
      esVersion: '8.15.0',
      tsVersion: '29.0',
      esPassword: ES_PASSWORD,
      tsApiKey: TS_API_KEY,
      security: true,
      products: 50
    }),
    startSlowEngine(60_000)
  ]);
  root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-console-'));
  await writeNotebook(root, 'answers.ipynb', [
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=\${env:ES_PASSWORD} name=sandbox-es`,
    'PUT /e2e-json/_doc/1?refresh=true\n{"name": "lamp", "price": 5}',
    'GET /products/_mapping',
    'POST /_msearch\n{"index": "products"}\n{"size": 2}\n{"index": "e2e-json"}\n{}',
    `%connect typesense ${sandbox.tsUrl} key=\${env:TYPESENSE_API_KEY} name=sandbox-ts`,
    'GET /collections/books/documents/search?q=*&query_by=title&facet_by=genre&per_page=3',
    'POST /multi_search\n{"searches": [{"collection": "books", "q": "*", "per_page": 1}, {"collection": "no_such", "q": "*"}, {"collection": "books", "q": "*", "per_page": 1}]}',
    'GET /collections/books/documents/search?q=*&query_by=title&filter_by=genre:=no_such_genre&facet_by=genre',
    '%use sandbox-es',
    'POST /products/_search\n{"size": 0, "aggs": {"names": {"terms": {"field": "name"}}}}'
  ]);
  await writeNotebook(root, 'waits.ipynb', [
    `%connect elasticsearch ${slow.url} auth=none name=slow`,
    'GET /slow/_search',
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=hunter2-typed`,
    `%connect elasticsearch ${sandbox.esUrl} user=elastic password=hunter3-typed name=again`
  ]);
  await copyFile(
    join(REPO, 'examples', 'elasticsearch.ipynb'),
    join(root, 'example.ipynb')
  );
  lab = await suiteJupyterLab(root, {
    ES_PASSWORD,
    TYPESENSE_API_KEY: TS_API_KEY
  });
  browser = await suiteChromium();
  page = await (
    await browser.newContext({ viewport: { width: 1600, height: 1000 } })
  ).newPage();
  await openNotebook(page, lab.open('answers.ipynb'));
  await runAllCells(page);
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all([sandbox?.close(), slow?.close()]);
});

describe('JSON answers', () => {
  it('a write shows its status line and the answer as compact text, with no tree or search box', async () => {
    const write = output('write');
    expect(await write.locator('.searchbook-Status').textContent()).toMatch(
      /^sandbox-es · PUT \/e2e-json\/_doc\/1\?refresh=true · 201 · \d+ ms$/
    );
    expect(
      JSON.parse(
        (await write.locator('.searchbook-JsonCompact').textContent()) ?? '{}'
      )
    ).toMatchObject({ result: 'created', _id: '1' });
    expect(
      await write.locator('details, .jp-RenderedJSON, input').count()
    ).toBe(0);
  });

  it('a mapping shows its fields as a field / type table and opens down to the properties', async () => {
    const mapping = output('mapping');
    expect(await mapping.locator('.searchbook-Status').textContent()).toMatch(
      /^sandbox-es · GET \/products\/_mapping · 200 · \d+ ms$/
    );
    const grid = mapping.locator('.searchbook-Grid');
    expect(
      JSON.parse((await grid.getAttribute('data-columns')) ?? '[]')
    ).toEqual(['field', 'type']);
    expect(Number(await grid.getAttribute('aria-rowcount'))).toBeGreaterThan(5);
    expect(
      await mapping
        .locator('details[open] > summary .searchbook-Json-key')
        .allTextContents()
    ).toEqual(['products: ', 'mappings: ', 'properties: ']);
    await mapping.scrollIntoViewIfNeeded();
    await screenshot(page, 'json-mapping');
  });

  it("the grid's scrollbar corner follows a dark theme instead of staying a light square", async () => {
    const cornerBrightness = () =>
      page
        .locator('.searchbook-Grid .lm-DataGrid-scrollCorner')
        .first()
        .evaluate(node => {
          const [r, g, b] = (
            getComputedStyle(node).backgroundColor.match(/\d+/g) ?? [
              '255',
              '255',
              '255'
            ]
          ).map(Number);
          return ((r ?? 255) + (g ?? 255) + (b ?? 255)) / 3;
        });
    await page.evaluate(() =>
      (window as LabWindow).jupyterapp?.commands.execute(
        'apputils:change-theme',
        { theme: 'JupyterLab Dark' }
      )
    );
    await page.waitForFunction(
      () => document.body.dataset.jpThemeLight === 'false',
      undefined,
      { timeout: 30_000 }
    );
    try {
      expect(await cornerBrightness()).toBeLessThan(100);
    } finally {
      await page.evaluate(() =>
        (window as LabWindow).jupyterapp?.commands.execute(
          'apputils:change-theme',
          { theme: 'JupyterLab Light' }
        )
      );
      await page.waitForFunction(
        () => document.body.dataset.jpThemeLight === 'true',
        undefined,
        { timeout: 30_000 }
      );
    }
  });
});

it('an error leads with the root cause the engine gave', async () => {
  const text =
    (await output('fielddata')
      .locator('[data-mime-type="application/vnd.jupyter.stderr"]')
      .textContent()) ?? '';
  expect(text).toMatch(
    /^RequestFailed: Elasticsearch answered 400: illegal_argument_exception: Fielddata is disabled on \[name\]/
  );
  expect(text).toContain('name.keyword');
});

it('several searches in one _msearch: a grid per search, each titled with its index', async () => {
  const msearch = output('msearch');
  expect(
    await msearch.locator('.searchbook-SearchTitle').allTextContents()
  ).toEqual(['Search 1 of 2: products', 'Search 2 of 2: e2e-json']);
  expect(await (await gridsShownIn(msearch, 2)).count()).toBe(2);
  expect(
    await msearch.locator('.searchbook-Status').first().textContent()
  ).toMatch(/ · 200 · \d+ ms · 50 total · 2 shown$/);
});

it('Typesense facets are titled as facets', async () => {
  expect(
    await output('facets')
      .locator('.searchbook-Aggregation-title')
      .first()
      .textContent()
  ).toBe('Facet genre');
});

it('a multi_search with a failed search says how many failed once, over the first search, not under each', async () => {
  const searches = output('ts-searches');
  await expect(
    searches.locator('.searchbook-SearchTitle').count()
  ).resolves.toBe(3);
  const statuses = await searches
    .locator('.searchbook-Status')
    .allTextContents();
  expect(statuses).toHaveLength(3);
  expect(statuses.map(s => s.includes('1 of 3 searches failed'))).toEqual([
    true,
    false,
    false
  ]);
  const warnings = await searches
    .locator('.searchbook-Warning')
    .allTextContents();
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/^Warning: 1 of 3 searches failed\./);
});

it('a facet with no values says so in a facet’s words, not as an aggregation without buckets', async () => {
  const text = (await output('empty-facet').textContent()) ?? '';
  expect(text).toContain('No values: the engine counted none for this facet.');
  expect(text).not.toContain('No buckets');
});

it('a request in flight shows its clock in place and stops with its Stop control', async () => {
  await openNotebook(page, lab.open('waits.ipynb'));
  await startCell('connect-slow');
  await output('connect-slow')
    .locator('text=Connected to Elasticsearch')
    .waitFor({ timeout: 30_000 });
  await startCell('slow');
  const progress = output('slow').locator('.searchbook-Progress');
  await progress.waitFor({ timeout: 30_000 });
  const first =
    (await progress.locator('.searchbook-Progress-line').textContent()) ?? '';
  expect(first).toMatch(/^slow: GET \/slow\/_search · \d+ s$/);
  await page.waitForFunction(
    before => {
      const line =
        document
          .querySelectorAll('.jp-Notebook .jp-CodeCell')[1]
          ?.querySelector('.searchbook-Progress-line')?.textContent ?? '';
      return line !== '' && line !== before;
    },
    first,
    { timeout: 10_000 }
  );
  await screenshot(page, 'request-in-flight');
  await progress.getByRole('button', { name: 'Stop' }).click();
  await output('slow')
    .locator('[data-mime-type="application/vnd.jupyter.stderr"]', {
      hasText: 'Interrupted'
    })
    .waitFor({ timeout: 15_000 });
  expect(await output('slow').textContent()).toMatch(
    /interrupted after \d+\.\d s/
  );
});

it('a refused %connect with a typed password offers to remove it, and removes it from the cell', async () => {
  await startCell('typed-password');
  const offer = output('typed-password').getByRole('button', {
    name: 'Remove it from the cell'
  });
  await offer.waitFor({ timeout: 30_000 });
  expect(await output('typed-password').textContent()).toContain(
    'is still in this cell, and is saved with the notebook, until you remove it'
  );
  expect(await sourceOf('typed-password')).toContain('hunter2-typed');
  await offer.click();
  await secretRemoved('typed-password', 'hunter2-typed');
  expect(await sourceOf('typed-password')).toBe(
    `%connect elasticsearch ${sandbox.esUrl} user=elastic`
  );
});

it('the palette command the refusal names removes a typed password too', async () => {
  await startCell('typed-again');
  // Where the extension is missing, the output's text names this command; here the offer shows.
  await output('typed-again')
    .getByRole('button', { name: 'Remove it from the cell' })
    .waitFor({ timeout: 30_000 });
  await page.keyboard.press('Control+Shift+C');
  const palette = page.locator('#modal-command-palette');
  await palette.locator('input').waitFor();
  await page.keyboard.type('Remove typed secrets');
  await palette
    .locator('.lm-CommandPalette-item', {
      hasText: 'searchbook: Remove typed secrets from the cell'
    })
    .click();
  await secretRemoved('typed-again', 'hunter3-typed');
  // The palette gives the keyboard back to the notebook, not to the page.
  expect(
    await page.evaluate(
      () =>
        document.activeElement !== document.body &&
        document.activeElement?.closest('.jp-Notebook') !== null
    )
  ).toBe(true);
  expect(await sourceOf('typed-again')).toBe(
    `%connect elasticsearch ${sandbox.esUrl} user=elastic name=again`
  );
});

it('Enter in a JSON body indents the next line, and a typed closing bracket moves back', async () => {
  await runCommand(page, 'notebook:insert-cell-below');
  await runCommand(page, 'notebook:enter-edit-mode');
  for (const line of [
    'GET /products/_search',
    '{',
    '"query": {',
    '"match_all": {}'
  ]) {
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
  }
  await page.keyboard.type('}');
  await page.keyboard.press('Enter');
  await page.keyboard.type('}');
  const source = await page.evaluate(() => {
    const content = (window as LabWindow).jupyterapp?.shell.currentWidget
      ?.content;
    return (
      content?.widgets[
        content.activeCellIndex
      ]?.model.sharedModel.getSource() ?? ''
    );
  });
  // JupyterLab's indent unit is four spaces.
  expect(source).toBe(
    'GET /products/_search\n{\n    "query": {\n        "match_all": {}\n    }\n}'
  );
});

it('opening an example notebook changes nothing: not marked modified, and saving writes the same metadata', async () => {
  const original = JSON.parse(
    await readFile(join(root, 'example.ipynb'), 'utf8')
  ) as { metadata: unknown };
  await openNotebook(page, lab.open('example.ipynb'));
  // What opening writes into a notebook's metadata comes with the kernel's info and spec:
  // once both arrived (and the notebook's own handlers ran before this), it is still unmodified.
  await page.evaluate(async () => {
    const kernel = (window as LabWindow).jupyterapp?.shell.currentWidget
      ?.sessionContext?.session?.kernel;
    await kernel?.info;
    await kernel?.spec;
  });
  expect(
    await page.evaluate(
      () =>
        (window as LabWindow).jupyterapp?.shell.currentWidget?.context?.model
          .dirty
    )
  ).toBe(false);
  // The command settles once the server wrote the file.
  await page.evaluate(() =>
    (window as LabWindow).jupyterapp?.commands.execute('docmanager:save')
  );
  const saved = JSON.parse(
    await readFile(join(root, 'example.ipynb'), 'utf8')
  ) as { metadata: unknown };
  expect(saved.metadata).toEqual(original.metadata);
});
