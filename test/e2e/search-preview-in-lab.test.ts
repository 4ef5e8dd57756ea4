/**
 * The search preview of a Typesense collection's grid in a real JupyterLab in Chromium, against
 * the Typesense sandbox: a query typed in the box ranks the rows as the engine does (its count,
 * its first hit, its text_match score in a column), the matched word is painted marked in its
 * cell and said by the live region, "Copy as cell" carries the query, and Clear browses again;
 * a hit a curation rule placed says so in its row. An Elasticsearch grid shows no search box.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import {
  openPanelLab,
  panelTreeItem,
  reloadLab,
  workspaceHolds
} from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { screenshot } from './support/notebook-page';
import { headerPoint, toolbarAction } from './support/grid-page';

jest.setTimeout(180_000);

const TS_KEY = 'e2e-search-preview-ts-secret';
const BOOKS = [
  ...Array.from({ length: 45 }, (_, n) => ({
    id: `c${n}`,
    title: n % 3 === 0 ? `Glass castle ${n}` : `Castle number ${n}`,
    genre: n % 2 === 0 ? 'fiction' : 'history',
    year: 1900 + n
  })),
  ...Array.from({ length: 15 }, (_, n) => ({
    id: `g${n}`,
    title: `Garden ${n}`,
    genre: 'fiction',
    year: 2000 + n
  }))
];

let servers: ListeningServer[] = [];
let lab: RunningLab;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex('shop', { properties: { title: { type: 'text' } } }, [
    { id: '1', source: { title: 'Glass castle' } }
  ]);
  const ts = createTypesenseSandbox({ version: '30.0', apiKey: TS_KEY });
  ts.createCollection({
    name: 'books',
    fields: [
      { name: 'title', type: 'string' },
      { name: 'genre', type: 'string', facet: true },
      { name: 'year', type: 'int32', sort: true }
    ]
  });
  ts.loadDocuments('books', BOOKS);
  servers = [
    await listen(es.handler, { port: 0 }),
    await listen(ts.handler, { port: 0 })
  ];
  const [esServer, tsServer] = servers as [ListeningServer, ListeningServer];
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-search-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'search.ipynb',
    cells: [
      `%connect elasticsearch ${esServer.url} name=es`,
      `%connect typesense ${tsServer.url} key=\${env:TS_KEY} name=ts`
    ],
    env: { TS_KEY },
    viewport: { width: 1600, height: 1000 },
    beforeOpen: async (opened, context, running) => {
      opened.setDefaultTimeout(30_000);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: running.url
      });
    }
  }));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
});

const label = 'books · ts';
const grid = () => page.getByRole('grid', { name: label, exact: true });
const tab = (of: Locator) =>
  of.locator(
    'xpath=ancestor::*[contains(@class,"searchbook-DocumentGrid")][1]'
  );
const searchBox = () =>
  tab(grid()).getByRole('search', { name: 'Search preview' });
const columnsOf = async (of: Locator): Promise<string[]> =>
  JSON.parse((await of.getAttribute('data-columns')) ?? '[]') as string[];

/** The engine's own answer to the search, for comparing. */
async function engineSearch(q: string): Promise<{
  found: number;
  first: { id: string; score: string };
}> {
  const params = new URLSearchParams({ q, query_by: 'title,genre' });
  const r = await fetch(
    `${servers[1]?.url}/collections/books/documents/search?${params}`,
    { headers: { 'x-typesense-api-key': TS_KEY } }
  );
  const body = (await r.json()) as {
    found: number;
    hits: { document: { id: string }; text_match_info: { score: string } }[];
  };
  const hit = body.hits[0];
  return {
    found: body.found,
    first: {
      id: hit?.document.id ?? '',
      score: hit?.text_match_info.score ?? ''
    }
  };
}

/** Polls (bounded) until the grid's row count is `count`. */
async function rowCount(count: number): Promise<void> {
  let now: string | null = null;
  for (let tries = 0; tries < 200; tries++) {
    now = await grid().getAttribute('aria-rowcount');
    if (now === String(count)) {
      return;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`aria-rowcount stayed ${now}, not ${count}`);
}

/** What the live region says of row 1's cell in `column`, the grid focused and its cursor moved there by keyboard. */
async function spoken(column: string): Promise<string> {
  const index = (await columnsOf(grid())).indexOf(column);
  expect(index).toBeGreaterThanOrEqual(0);
  await grid().focus();
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < index; i++) {
    await page.keyboard.press('ArrowRight');
  }
  const announcer = grid().locator('xpath=..').locator('[data-grid-announcer]');
  const start = `${column}, row 1 of `;
  let text = '';
  for (let tries = 0; tries < 100; tries++) {
    text = (await announcer.textContent()) ?? '';
    if (text.startsWith(start) && !text.endsWith('loading')) {
      return text;
    }
    await page.waitForTimeout(100);
  }
  return text;
}

/** Canvas pixels of row 1's cell in `column` painted in the (yellow) search-match color. */
async function markedPixels(column: string): Promise<number> {
  return page.evaluate(
    ({ label, column }) => {
      type Grid = {
        headerWidth: number;
        headerHeight: number;
        scrollX: number;
        defaultSizes: { rowHeight: number };
        columnSize(region: string, i: number): number;
        node: HTMLElement;
      };
      type Shell = {
        widgets(
          area: string
        ): Iterable<{ dataGrid?: Grid; title: { label: string } }>;
      };
      const shell = (window as unknown as { jupyterapp: { shell: Shell } })
        .jupyterapp.shell;
      const dataGrid = [...shell.widgets('main')].find(
        w => w.title.label === label
      )?.dataGrid;
      if (!dataGrid) {
        throw new Error(`no grid ${label}`);
      }
      const columns = JSON.parse(
        dataGrid.node.dataset.columns ?? '[]'
      ) as string[];
      const index = columns.indexOf(column);
      let x = dataGrid.headerWidth - dataGrid.scrollX;
      for (let i = 0; i < index; i++) {
        x += dataGrid.columnSize('body', i);
      }
      const width = dataGrid.columnSize('body', index);
      const y = dataGrid.headerHeight;
      const height = dataGrid.defaultSizes.rowHeight;
      const canvas = dataGrid.node.querySelector('canvas') as HTMLCanvasElement;
      const ratio = window.devicePixelRatio;
      const pixels = canvas
        .getContext('2d')
        ?.getImageData(
          x * ratio,
          y * ratio,
          width * ratio,
          height * ratio
        ).data;
      // The theme's greys (text, background) have r, g and b alike; the mark is yellow.
      let count = 0;
      for (let i = 0; pixels && i < pixels.length; i += 4) {
        const [r, g, b] = [
          pixels[i] ?? 0,
          pixels[i + 1] ?? 0,
          pixels[i + 2] ?? 0
        ];
        if (r - b > 60 && g - b > 40) {
          count++;
        }
      }
      return count;
    },
    { label, column }
  );
}

it('a query ranks the rows as the engine does, with the score column and the match marked; Elasticsearch grids have no box', async () => {
  await panelTreeItem(page, 'books').waitFor({ timeout: 30_000 });
  await panelTreeItem(page, 'books').dblclick();
  await grid().waitFor({ timeout: 30_000 });
  await rowCount(BOOKS.length);
  const box = searchBox();
  await expect(
    box.getByRole('textbox', { name: 'query_by' }).getAttribute('placeholder')
  ).resolves.toBe('title,genre');
  // An engine without a preview shows no box.
  await panelTreeItem(page, 'shop').dblclick();
  const es = page.getByRole('grid', { name: 'shop · es', exact: true });
  await es.waitFor({ timeout: 30_000 });
  await expect(
    tab(es).getByRole('search', { name: 'Search preview' }).count()
  ).resolves.toBe(0);
  await page.getByRole('tab', { name: /^books · ts/ }).click();
  await grid().waitFor({ state: 'visible' });
  expect(await columnsOf(grid())).not.toContain('_text_match');
  await expect(markedPixels('title')).resolves.toBe(0);

  const engine = await engineSearch('glass');
  expect(engine.found).toBe(15);
  await box.getByRole('searchbox', { name: 'q' }).fill('glass');
  await box.getByRole('searchbox', { name: 'q' }).press('Enter');
  await rowCount(engine.found);
  expect((await columnsOf(grid())).slice(0, 3)).toEqual([
    'id',
    '_text_match',
    '_highlight'
  ]);
  expect(await spoken('id')).toMatch(new RegExp(`: ${engine.first.id}$`));
  expect(await spoken('_text_match')).toMatch(
    new RegExp(`: ${engine.first.score}$`)
  );
  expect(await spoken('title')).toMatch(
    /: Glass castle \d+ \(matches: Glass\)$/
  );
  expect(await spoken('_highlight')).toMatch(
    /: title: Glass castle \d+ \(matches: Glass\)$/
  );
  // Painted marked in the cell, and nowhere in an unmatched one.
  await expect(markedPixels('title')).resolves.toBeGreaterThan(20);
  await expect(markedPixels('genre')).resolves.toBe(0);
  await screenshot(page, 'search-preview-ranked');

  await page.evaluate(() => navigator.clipboard.writeText(''));
  await toolbarAction(tab(grid()), 'Copy', 'Copy as cell');
  let copied = '';
  for (let tries = 0; tries < 50 && copied === ''; tries++) {
    copied = await page.evaluate(() => navigator.clipboard.readText());
    await page.waitForTimeout(100);
  }
  expect(copied).toContain('"q": "glass"');
  expect(copied).toContain('"query_by": "title,genre"');
});

it('the query comes back with its tab after a page reload', async () => {
  await workspaceHolds(page, '"q":"glass"');
  // Until the layout is restored: the restorer brings the tab back and then activates the tab
  // that was current, which, on a loaded machine, came after a click that had shown the grid.
  await reloadLab(page);
  // Then click until the grid shows (bounded).
  const books = page.getByRole('tab', { name: /^books · ts/ });
  await books.waitFor({ timeout: 60_000 });
  for (let tries = 0; tries < 120 && !(await grid().isVisible()); tries++) {
    await books.click();
    await page.waitForTimeout(500);
  }
  if (!(await grid().isVisible())) {
    await screenshot(page, 'search-preview-not-restored');
  }
  await rowCount(15);
  expect((await columnsOf(grid())).slice(0, 2)).toEqual(['id', '_text_match']);
  await expect(
    searchBox().getByRole('searchbox', { name: 'q' }).inputValue()
  ).resolves.toBe('glass');
});

it('Clear returns to browsing every document in the usual order, the score sort dropped', async () => {
  // Sorted by the score while searching: a header click, as on any column.
  const header = await headerPoint(page, label, '_text_match');
  await page.mouse.click(header.x, header.y);
  for (
    let tries = 0;
    tries < 100 &&
    (await grid().getAttribute('data-sort')) !==
      '[{"column":"_text_match","direction":"asc"}]';
    tries++
  ) {
    await page.waitForTimeout(100);
  }
  await expect(grid().getAttribute('data-sort')).resolves.toBe(
    '[{"column":"_text_match","direction":"asc"}]'
  );
  await rowCount(15);
  await searchBox().getByRole('button', { name: 'Clear' }).click();
  await rowCount(BOOKS.length);
  await expect(grid().getAttribute('data-sort')).resolves.toBe('[]');
  // No note about a score sort left behind (the notes are empty and hidden while browsing).
  await expect(
    tab(grid()).locator('.searchbook-DocumentGrid-notes').textContent()
  ).resolves.toBe('');
  expect(await columnsOf(grid())).not.toContain('_text_match');
  await expect(
    searchBox().getByRole('searchbox', { name: 'q' }).inputValue()
  ).resolves.toBe('');
  await expect(markedPixels('title')).resolves.toBe(0);
});

it('says in the row which hit a curation rule placed, its rank the rule’s and not its score’s', async () => {
  const send = (method: string, path: string, body: unknown) =>
    fetch(`${servers[1]?.url}${path}`, {
      method,
      headers: {
        'x-typesense-api-key': TS_KEY,
        'content-type': 'application/json'
      },
      body: JSON.stringify(body)
    });
  // Garden 7 matches nothing of "castle": only the rule brings it, first.
  expect(
    (
      await send('PUT', '/curation_sets/pins', {
        items: [
          {
            id: 'pin-g7',
            rule: { query: 'castle', match: 'exact' },
            includes: [{ id: 'g7', position: 1 }]
          }
        ]
      })
    ).status
  ).toBe(200);
  expect(
    (await send('PATCH', '/collections/books', { curation_sets: ['pins'] }))
      .status
  ).toBe(200);
  try {
    const q = searchBox().getByRole('searchbox', { name: 'q' });
    await q.fill('castle');
    await q.press('Enter');
    await rowCount(46);
    expect(await spoken('id')).toMatch(/: g7$/);
    expect(await spoken('_highlight')).toMatch(
      /: curated \(placed by a curation rule\)/
    );
    await page.keyboard.press('ArrowDown');
    const announcer = grid()
      .locator('xpath=..')
      .locator('[data-grid-announcer]');
    let second = '';
    for (let tries = 0; tries < 100 && !second.includes('row 2 of'); tries++) {
      second = (await announcer.textContent()) ?? '';
      await page.waitForTimeout(100);
    }
    expect(second).toMatch(/^_highlight, row 2 of /);
    expect(second).not.toMatch(/curated/);
    await screenshot(page, 'search-preview-curated');
  } finally {
    await send('PATCH', '/collections/books', { curation_sets: [] });
    await send('DELETE', '/curation_sets/pins', {});
  }
});
