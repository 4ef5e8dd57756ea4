/**
 * Typesense resources in the panel, in a real JupyterLab in Chromium against the Typesense 29
 * sandbox: a scoped search key made from a search-only key (shown once, searches only what its
 * embedded filter allows, found in neither the page afterwards, the saved notebook, the
 * server's log nor any kernel message in clear), aliases added, opening their collection's
 * grid and deleted with the request shown before it is sent, a kind the server's version lacks
 * shown disabled with the reason, a collection's schema read-only (vector fields and what
 * auto-embeds them included, no credential), more notifications than the window holds stacking
 * inside it (newest in view, each scrolled to readable), and a collection's own synonyms and
 * overrides (the shape before 30) listed, added, edited and deleted from its menu.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { generateBooksSample } from '@searchbook/sandbox/sample-typesense';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import { openPanelLab } from './support/panel-lab';
import { remove, review, send } from './support/resource-dialog';
import type { RunningLab } from './support/jupyter-lab';
import { runCommand, screenshot } from './support/notebook-page';
import { gridTab, toolbarAction } from './support/grid-page';

jest.setTimeout(180_000);

const TS_KEY = 'e2e-resources-ts-secret';
const SEARCH_KEY = 'e2e-resources-search-only';
const EMBEDDING_KEY = 'sk-e2e-embedding-model-key';

let server: ListeningServer;
let lab: RunningLab;
let browser: Browser;
let page: Page;
const received: string[] = [];

async function call(
  path: string,
  key: string,
  init: RequestInit = {}
): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    ...init,
    headers: { 'x-typesense-api-key': key, 'content-type': 'application/json' }
  });
}

beforeAll(async () => {
  const ts = createTypesenseSandbox({ version: '29.0', apiKey: TS_KEY });
  generateBooksSample(ts);
  server = await listen(ts.handler, { port: 0 });
  const created = await call('/keys', TS_KEY, {
    method: 'POST',
    body: JSON.stringify({
      description: 'website search',
      actions: ['documents:search'],
      collections: ['*'],
      value: SEARCH_KEY
    })
  });
  expect(created.status).toBe(201);
  const collection = await call('/collections', TS_KEY, {
    method: 'POST',
    body: JSON.stringify({
      name: 'companies',
      fields: [
        { name: 'name', type: 'string' },
        { name: 'company_id', type: 'int32' }
      ]
    })
  });
  expect(collection.status).toBe(201);
  // Vector fields, one of them embedded by a model whose key the server lists cut short.
  const passages = await call('/collections', TS_KEY, {
    method: 'POST',
    body: JSON.stringify({
      name: 'passages',
      fields: [
        { name: 'text', type: 'string' },
        { name: 'vec', type: 'float[]', num_dim: 4, vec_dist: 'ip' },
        {
          name: 'text_embedding',
          type: 'float[]',
          embed: {
            from: ['text'],
            model_config: {
              model_name: 'openai/text-embedding-3-small',
              api_key: EMBEDDING_KEY
            }
          }
        }
      ]
    })
  });
  expect(passages.status).toBe(201);
  ts.loadDocuments('companies', [
    { id: '1', name: 'Acme north', company_id: 124 },
    { id: '2', name: 'Acme south', company_id: 124 },
    { id: '3', name: 'Globex', company_id: 126 }
  ]);
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-resources-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'resources.ipynb',
    cells: [`%connect typesense ${server.url} key=\${env:TS_KEY} name=ts`],
    env: { TS_KEY },
    viewport: { width: 1400, height: 1000 },
    // Every kernel message the browser receives, to check that no key value crosses in clear.
    beforeOpen: opened =>
      void opened.on('websocket', socket =>
        socket.on('framereceived', frame =>
          received.push(
            typeof frame.payload === 'string'
              ? frame.payload
              : frame.payload.toString('utf8')
          )
        )
      )
  }));
  await connection('ts').waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await server?.close();
});

function connection(name: string): Locator {
  return page
    .getByRole('tree', { name: 'searchbook connections' })
    .locator(`[role="treeitem"][aria-level="1"][aria-label^="${name} · "]`);
}

async function openSection(title: string): Promise<Locator> {
  const section = connection('ts').locator('details.searchbook-Admin-section', {
    has: page.locator(`summary:text-is("${title}")`)
  });
  await section.waitFor({ timeout: 20_000 });
  if (!(await section.evaluate(node => (node as HTMLDetailsElement).open))) {
    await section.locator('summary').first().click();
  }
  return section;
}

const dialog = () => page.locator('.jp-Dialog');

describe('scoped search keys', () => {
  let value = '';

  it('says what is wrong with parameters that are not JSON, keeping what was typed', async () => {
    const keys = await openSection('Keys');
    await keys.getByRole('button', { name: 'Scoped search key…' }).click();
    await dialog().waitFor();
    await dialog()
      .getByLabel('Parent search-only key', { exact: true })
      .fill(SEARCH_KEY);
    await dialog()
      .getByLabel('Embedded parameters (JSON)', { exact: true })
      .fill('{"filter_by": company_id:124}');
    await dialog().getByRole('button', { name: 'Make key' }).click();
    await dialog().getByRole('alert').filter({ hasText: 'not JSON' }).waitFor();
    await expect(
      dialog()
        .getByLabel('Embedded parameters (JSON)', { exact: true })
        .inputValue()
    ).resolves.toBe('{"filter_by": company_id:124}');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('makes a key from a search-only key with an embedded filter and shows it once; it finds only the filtered documents', async () => {
    const keys = await openSection('Keys');
    await keys.getByRole('button', { name: 'Scoped search key…' }).click();
    await dialog().waitFor();
    await expect(
      dialog()
        .getByLabel('Parent search-only key', { exact: true })
        .getAttribute('type')
    ).resolves.toBe('password');
    await dialog()
      .getByLabel('Parent search-only key', { exact: true })
      .fill(SEARCH_KEY);
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    await dialog()
      .getByLabel('Embedded parameters (JSON)', { exact: true })
      .fill(
        JSON.stringify({ filter_by: 'company_id:124', expires_at: expiresAt })
      );
    await dialog().getByRole('button', { name: 'Make key' }).click();
    const shown = dialog().getByLabel('New key value');
    await shown.waitFor();
    await expect(
      dialog().locator('.jp-Dialog-header').textContent()
    ).resolves.toContain('Scoped search key');
    value = (await shown.textContent()) ?? '';
    expect(value.length).toBeGreaterThan(40);
    expect(value).not.toContain(SEARCH_KEY);
    await screenshot(page, 'typesense-scoped-key');
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
    const found = await call(
      '/collections/companies/documents/search?q=*&query_by=name',
      value
    );
    expect(found.status).toBe(200);
    const body = (await found.json()) as {
      hits: { document: { company_id: number } }[];
    };
    expect(body.hits.map(h => h.document.company_id)).toEqual([124, 124]);
    expect(
      await page.evaluate(
        v => document.documentElement.outerHTML.includes(v),
        value
      )
    ).toBe(false);
  });

  it('writes the key into neither the saved notebook, the server log nor any kernel message in clear', async () => {
    expect(value).not.toBe('');
    // The command settles once the server wrote the file.
    await runCommand(page, 'docmanager:save');
    const notebook = await readFile(join(lab.root, 'resources.ipynb'), 'utf8');
    expect(notebook).toContain('%connect typesense');
    expect(notebook).not.toContain(value);
    expect(notebook).not.toContain(SEARCH_KEY);
    expect(lab.log()).not.toContain(value);
    expect(
      received.some(
        frame => frame.includes('"scopedKeyMade"') && frame.includes('"sealed"')
      )
    ).toBe(true);
    expect(received.some(frame => frame.includes(value))).toBe(false);
  });
});

describe('aliases', () => {
  it('adds an alias after showing the PUT it sends, and lists it with its collection', async () => {
    const aliases = await openSection('Aliases');
    await aliases
      .getByRole('status')
      .filter({ hasText: 'None yet.' })
      .waitFor();
    await aliases.getByRole('button', { name: 'Add to Aliases' }).click();
    await dialog().waitFor();
    await dialog().getByLabel('Name', { exact: true }).fill('books_live');
    await dialog()
      .getByLabel('JSON', { exact: true })
      .fill('{"collection_name": "books"}');
    await dialog().getByRole('button', { name: 'Review' }).click();
    const request = dialog().getByLabel('Request to send');
    await request.waitFor();
    await expect(request.textContent()).resolves.toBe(
      'PUT /aliases/books_live\n{\n  "collection_name": "books"\n}'
    );
    // Nothing is sent before the user confirms.
    await expect((await call('/aliases', TS_KEY)).json()).resolves.toEqual({
      aliases: []
    });
    await screenshot(page, 'typesense-alias-confirm');
    await dialog().getByRole('button', { name: 'Send' }).click();
    await dialog().waitFor({ state: 'detached' });
    const item = aliases.getByRole('listitem', { name: 'books_live' });
    await item.waitFor();
    await expect(
      item.locator('.searchbook-Resource-title').textContent()
    ).resolves.toBe('books_live → books');
    await expect((await call('/aliases', TS_KEY)).json()).resolves.toEqual({
      aliases: [{ name: 'books_live', collection_name: 'books' }]
    });
  });

  it('opens the collection’s grid from the alias’s Open', async () => {
    const aliases = await openSection('Aliases');
    await aliases.getByRole('button', { name: 'Open books_live' }).click();
    const grid = page.getByRole('grid', { name: 'books · ts' });
    await grid.waitFor({ timeout: 30_000 });
    const { found } = (await (
      await call('/collections/books/documents/search?q=*', TS_KEY)
    ).json()) as { found: number };
    await expect(grid.getAttribute('aria-rowcount')).resolves.toBe(
      String(found)
    );
  });

  it('more notifications than the window holds stack inside it, the newest in view, each one scrolled to readable, none over another', async () => {
    // A short window: three confirmations and seven failed exports (errors stay until closed)
    // make a stack taller than it.
    await page.setViewportSize({ width: 1400, height: 520 });
    try {
      const tab = gridTab(page, 'books · ts');
      for (const item of ['Copy as cell', 'Copy as curl', 'Copy as Python']) {
        await toolbarAction(tab, 'Copy', item);
      }
      const exports = 7;
      for (let n = 1; n <= exports; n++) {
        await connection('ts')
          .locator('[role="treeitem"][aria-level="2"][aria-label^="books · "]')
          .click({ button: 'right' });
        await page.getByRole('menuitem', { name: 'Export…' }).click();
        const dialog = page.getByRole('dialog');
        await dialog
          .getByRole('textbox', { name: 'File' })
          .fill(`missing/books-${n}.jsonl`);
        await dialog.getByRole('button', { name: 'Export' }).click();
        await dialog.waitFor({ state: 'detached' });
      }
      const failed = page
        .locator('.Toastify__toast')
        .filter({ hasText: /^Export of books to missing\/books-\d\.jsonl: / });
      await page.waitForFunction(
        count =>
          [...document.querySelectorAll('.Toastify__toast')].filter(toast =>
            toast.textContent?.startsWith('Export of books to missing/')
          ).length === count,
        exports
      );
      // Their entrance animations played out, the places they keep.
      await page.evaluate(() =>
        Promise.all(
          [...document.querySelectorAll('.Toastify__toast')]
            .flatMap(toast => toast.getAnimations())
            .map(animation => animation.finished)
        )
      );
      const inWindow = () =>
        page.evaluate(() => {
          const box = (node: Element) => {
            const r = node.getBoundingClientRect();
            return {
              top: r.top,
              bottom: r.bottom,
              left: r.left,
              right: r.right
            };
          };
          const stack = document.querySelector('.jp-toastContainer');
          return {
            stack: stack ? box(stack) : null,
            toasts: [...document.querySelectorAll('.Toastify__toast')].map(
              toast => ({ text: toast.textContent ?? '', ...box(toast) })
            ),
            width: window.innerWidth,
            height: window.innerHeight
          };
        });
      const inside = (
        b: { top: number; bottom: number; left: number; right: number },
        w: { width: number; height: number }
      ) =>
        b.top >= 0 && b.left >= 0 && b.bottom <= w.height && b.right <= w.width;
      const all = await inWindow();
      const errors = all.toasts.filter(t =>
        t.text.startsWith('Export of books to missing/')
      );
      expect(
        errors.reduce((sum, t) => sum + t.bottom - t.top, 0)
      ).toBeGreaterThan(all.height);
      expect(all.stack).not.toBeNull();
      expect(inside(all.stack!, all)).toBe(true);
      // The newest (on top) is whole in the window as it comes.
      expect(all.toasts[0]?.text).toMatch(
        new RegExp(`^Export of books to missing/books-${exports}\\.jsonl: `)
      );
      expect(inside(all.toasts[0]!, all)).toBe(true);
      // Each of them, scrolled to within the stack, is whole in the window.
      for (let n = 0; n < exports; n++) {
        await failed.nth(n).scrollIntoViewIfNeeded();
        const box = await failed.nth(n).boundingBox();
        expect(box).not.toBeNull();
        expect(
          inside(
            {
              top: box!.y,
              bottom: box!.y + box!.height,
              left: box!.x,
              right: box!.x + box!.width
            },
            all
          )
        ).toBe(true);
      }
      const overlapping = all.toasts.flatMap((a, i) =>
        all.toasts
          .slice(i + 1)
          .filter(
            b =>
              a.left < b.right - 1 &&
              b.left < a.right - 1 &&
              a.top < b.bottom - 1 &&
              b.top < a.bottom - 1
          )
          .map(b => `${a.text} / ${b.text}`)
      );
      expect(overlapping).toEqual([]);
      await screenshot(page, 'typesense-notifications-stacked');
      // Closed, as a user would, so the suite's later steps see no leftover errors.
      for (let n = exports; n >= 1; n--) {
        await failed
          .filter({ hasText: `books-${n}.jsonl` })
          .getByRole('button', { name: 'Hide notification' })
          .click();
      }
      await page.waitForFunction(
        () =>
          ![...document.querySelectorAll('.Toastify__toast')].some(toast =>
            toast.textContent?.startsWith('Export of books to missing/')
          )
      );
    } finally {
      await page.setViewportSize({ width: 1400, height: 1000 });
    }
  });

  it('deletes the alias after showing the DELETE it sends', async () => {
    const aliases = await openSection('Aliases');
    await aliases.getByRole('button', { name: 'Delete books_live' }).click();
    const request = dialog().getByLabel('Request to send');
    await request.waitFor();
    await expect(request.textContent()).resolves.toBe(
      'DELETE /aliases/books_live'
    );
    await dialog().getByRole('button', { name: 'Send' }).click();
    await aliases
      .getByRole('listitem', { name: 'books_live' })
      .waitFor({ state: 'detached' });
    await expect((await call('/aliases', TS_KEY)).json()).resolves.toEqual({
      aliases: []
    });
  });

  it('shows a kind the server lacks disabled, with the version that brings it', async () => {
    const sets = connection('ts').locator(
      'details.searchbook-Resources[aria-disabled="true"]',
      { has: page.locator('summary:text-is("Synonym sets")') }
    );
    await sets.waitFor();
    await expect(
      sets.locator('.searchbook-Admin-status').textContent()
    ).resolves.toMatch(/Typesense 30/);
  });
});

describe('a collection’s schema', () => {
  it('shows the fields read-only from the collection’s menu, with the add-field request to copy as a cell', async () => {
    await connection('ts')
      .locator('[role="treeitem"][aria-level="2"][aria-label^="books · "]')
      .click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Schema…' }).click();
    await dialog().waitFor();
    await expect(
      dialog().locator('.jp-Dialog-header').textContent()
    ).resolves.toContain('Schema of books');
    const author = dialog()
      .getByRole('table', { name: 'Fields of books' })
      .getByRole('row', { name: /^author / });
    await expect(author.textContent()).resolves.toBe(
      'authorstringfacet, index'
    );
    await expect(
      dialog().getByLabel('Add-field cell').textContent()
    ).resolves.toMatch(/^PATCH \/collections\/books\n/);
    await expect(
      dialog()
        .getByRole('button', { name: /edit|delete/i })
        .count()
    ).resolves.toBe(0);
    await screenshot(page, 'typesense-collection-schema');
    // A button of its own height, not squeezed by the dialog's column of parts.
    const copy = dialog().getByRole('button', { name: 'Copy as cell' });
    expect((await copy.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(16);
    await copy.click();
    await dialog().getByRole('button', { name: 'Copied' }).waitFor();
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('says which fields are vectors and what embeds them, in the schema’s own keys, with no credential', async () => {
    await connection('ts')
      .locator('[role="treeitem"][aria-level="2"][aria-label^="passages · "]')
      .click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Schema…' }).click();
    const fields = dialog().getByRole('table', { name: 'Fields of passages' });
    await fields.waitFor();
    const row = (name: string) =>
      fields.getByRole('row', { name: new RegExp(`^${name} `) });
    await expect(row('vec').textContent()).resolves.toBe(
      'vecfloat[]indexnum_dim 4, vec_dist ip, hnsw_params M 16 ef_construction 200'
    );
    await expect(row('text_embedding').textContent()).resolves.toBe(
      'text_embeddingfloat[]indexnum_dim 1536, vec_dist cosine, hnsw_params M 16 ef_construction 200, embed from text by model openai/text-embedding-3-small'
    );
    await expect(row('text').textContent()).resolves.toBe('textstringindex');
    await expect(dialog().textContent()).resolves.not.toContain(
      EMBEDDING_KEY.slice(0, 5)
    );
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
  });
});

describe('a collection’s synonyms and overrides', () => {
  const tab = () => page.locator('.searchbook-CollectionResources');

  /** A section of the collection's tab by its heading. */
  const section = (title: string) =>
    tab().locator('details.searchbook-Resources', {
      has: page.locator(`> summary:text-is("${title}")`)
    });

  async function openFromMenu(): Promise<void> {
    await connection('ts')
      .locator('[role="treeitem"][aria-level="2"][aria-label^="books · "]')
      .click({ button: 'right' });
    await page
      .getByRole('menuitem', { name: 'Synonyms and overrides (curation)…' })
      .click();
    await tab().waitFor();
  }

  it('opens from the collection’s menu in one tab, however often it is asked', async () => {
    await openFromMenu();
    await openFromMenu();
    await expect(tab().count()).resolves.toBe(1);
    await expect(
      page.getByRole('tab', { name: /books · synonyms and overrides/ }).count()
    ).resolves.toBe(1);
    await section('Synonyms of books')
      .getByRole('status')
      .filter({ hasText: 'None yet.' })
      .waitFor();
  });

  it('adds, edits and deletes a synonym, each request shown before it is sent', async () => {
    const synonyms = section('Synonyms of books');
    const put = await review(
      page,
      synonyms.getByRole('button', { name: 'Add to Synonyms of books' }),
      '{"synonyms": ["novel", "book"]}',
      'reading'
    );
    expect(put).toBe(
      'PUT /collections/books/synonyms/reading\n{\n  "synonyms": [\n    "novel",\n    "book"\n  ]\n}'
    );
    expect(
      (await call('/collections/books/synonyms/reading', TS_KEY)).status
    ).toBe(404);
    await send(page);
    await synonyms.getByRole('listitem', { name: 'reading' }).waitFor();
    await expect(
      (await call('/collections/books/synonyms/reading', TS_KEY)).json()
    ).resolves.toMatchObject({ id: 'reading', synonyms: ['novel', 'book'] });

    const edit = await review(
      page,
      synonyms.getByRole('button', { name: 'Edit reading' }),
      '{"root": "book", "synonyms": ["novel", "tome"]}'
    );
    expect(edit.split('\n')[0]).toBe('PUT /collections/books/synonyms/reading');
    await send(page);
    await synonyms
      .getByRole('listitem', { name: 'reading' })
      .filter({ hasText: 'tome' })
      .waitFor();
    await expect(
      (await call('/collections/books/synonyms/reading', TS_KEY)).json()
    ).resolves.toMatchObject({ root: 'book', synonyms: ['novel', 'tome'] });

    expect(await remove(page, synonyms, 'reading')).toBe(
      'DELETE /collections/books/synonyms/reading'
    );
    expect(
      (await call('/collections/books/synonyms/reading', TS_KEY)).status
    ).toBe(404);
  });

  it('adds, edits and deletes an override, a mistyped rule refused with what to write', async () => {
    const overrides = section('Overrides (curation) of books');
    await overrides
      .getByRole('button', { name: 'Add to Overrides (curation) of books' })
      .click();
    await dialog().getByLabel('Name', { exact: true }).fill('pin');
    const mistyped =
      '{"rule": {"query": "dune", "match": "fuzzy"}, "includes": [{"id": "1", "position": 1}]}';
    await dialog().getByLabel('JSON', { exact: true }).fill(mistyped);
    await dialog().getByRole('button', { name: 'Review' }).click();
    await dialog()
      .getByRole('alert')
      .filter({ hasText: '"rule.match": write "exact" or "contains"' })
      .waitFor();
    await expect(
      dialog().getByLabel('JSON', { exact: true }).inputValue()
    ).resolves.toBe(mistyped);
    await screenshot(page, 'typesense-29-override-refused');
    await dialog()
      .getByLabel('JSON', { exact: true })
      .fill(mistyped.replace('fuzzy', 'exact'));
    await dialog().getByRole('button', { name: 'Review' }).click();
    await expect(
      dialog().getByLabel('Request to send').textContent()
    ).resolves.toMatch(/^PUT \/collections\/books\/overrides\/pin\n/);
    expect(
      (await call('/collections/books/overrides/pin', TS_KEY)).status
    ).toBe(404);
    await send(page);
    await overrides.getByRole('listitem', { name: 'pin' }).waitFor();
    await expect(
      (await call('/collections/books/overrides/pin', TS_KEY)).json()
    ).resolves.toMatchObject({
      id: 'pin',
      rule: { query: 'dune', match: 'exact' },
      includes: [{ id: '1', position: 1 }]
    });

    await review(
      page,
      overrides.getByRole('button', { name: 'Edit pin' }),
      '{"rule": {"query": "dune", "match": "contains"}, "excludes": [{"id": "2"}]}'
    );
    await send(page);
    await overrides
      .getByRole('listitem', { name: 'pin' })
      .filter({ hasText: 'contains' })
      .waitFor();
    await expect(
      (await call('/collections/books/overrides/pin', TS_KEY)).json()
    ).resolves.toMatchObject({
      rule: { match: 'contains' },
      excludes: [{ id: '2' }]
    });
    await screenshot(page, 'typesense-29-collection-resources');

    expect(await remove(page, overrides, 'pin')).toBe(
      'DELETE /collections/books/overrides/pin'
    );
    expect(
      (await call('/collections/books/overrides/pin', TS_KEY)).status
    ).toBe(404);
    // With the tab current, the panel still follows the notebook's kernel and its connection.
    await expect(
      page.locator('.searchbook-Sidebar-heading').textContent()
    ).resolves.toContain('resources.ipynb');
    await expect(connection('ts').isVisible()).resolves.toBe(true);
  });
});
