/**
 * Whole documents in the side panel's document grid, in a real JupyterLab (from .venv) in
 * Debian's Chromium, against the sandbox engines: a row's document as JSON with its metadata
 * (values shown as text), edited as JSON into pending changes that Save writes (a value its
 * field cannot hold refused in the dialog with nothing sent, a concurrent change shown in the
 * conflict list), long text in a multi-line editor, a JSON cell opening at its top, a duplicated
 * row saved as a new document, and filtering by the value of a cell from its context menu.
 * Every write is checked in the engine with a direct request.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { typesenseWithItems } from './support/typesense-items';
import { openPanelLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { screenshot } from './support/notebook-page';
import {
  cellPoint,
  cellShows,
  cellText,
  editBar,
  filterBar,
  gridOf,
  gridTab,
  openGrid,
  pendingCount,
  problemsOf,
  rowHeader,
  rowOf,
  saveEdits,
  toolbarAction
} from './support/grid-page';

jest.setTimeout(240_000);

const TS_KEY = 'e2e-documents-ts-secret';
const HOSTILE = '<img src=x onerror="window.__pwned=1">';
/** One line of about 51 KB, as a long description field holds. */
const LONG_TEXT = `${'lorem ipsum dolor sit amet '.repeat(1900)}END`;
const TAGS = Array.from({ length: 120 }, (_, i) => `tag-${i}`);
const BOOKS_MAPPING = {
  properties: {
    title: { type: 'keyword' },
    qty: { type: 'integer' },
    available: { type: 'boolean' },
    published: { type: 'date' },
    notes: { type: 'text' },
    tags: { type: 'keyword' },
    place: { properties: { city: { type: 'keyword' } } }
  }
};
const BOOKS = Array.from({ length: 6 }, (_, n) => ({
  id: `b${n}`,
  source: {
    title: n === 5 ? HOSTILE : `Book ${n}`,
    qty: n,
    available: n % 2 === 0,
    published: `2024-0${n + 1}-15`,
    // b4 has no note at all: its cell is empty.
    ...(n === 4 ? {} : { notes: n === 1 ? LONG_TEXT : `Note ${n}` }),
    tags: n === 2 ? TAGS : [`t${n}`],
    place: { city: n < 3 ? 'Rome' : 'Oslo' }
  }
}));

let servers: ListeningServer[] = [];
let esUrl = '';
let tsUrl = '';
let lab: RunningLab;
let browser: Browser;
let page: Page;

async function engine(
  url: string,
  path: string,
  init: RequestInit = {}
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      'x-typesense-api-key': TS_KEY
    }
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {}
  };
}
const esSource = async (id: string) =>
  (await engine(esUrl, `/books/_doc/${id}`)).body['_source'] as
    Record<string, unknown> | undefined;
const tsDocument = async (id: string) =>
  (await engine(tsUrl, `/collections/items/documents/${id}`)).body;

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex('books', BOOKS_MAPPING, BOOKS);
  const ts = typesenseWithItems(TS_KEY, 4);
  servers = [
    await listen(es.handler, { port: 0 }),
    await listen(ts.handler, { port: 0 })
  ];
  esUrl = servers[0]?.url ?? '';
  tsUrl = servers[1]?.url ?? '';
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-documents-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'documents.ipynb',
    cells: [
      `%connect elasticsearch ${esUrl} name=es`,
      `%connect typesense ${tsUrl} key=\${env:TS_KEY} name=ts`
    ],
    env: { TS_KEY },
    beforeOpen: opened => opened.setDefaultTimeout(30_000)
  }));
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
});

/** The edit bar's pending count, once it reads `text`: edits reach it after the kernel typed them (bounded). */
async function pendingIs(label: string, text: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await pendingCount(page, label).textContent()) === text) {
      return;
    }
    await new Promise(r => setTimeout(r, 100));
  }
  await expect(pendingCount(page, label).textContent()).resolves.toBe(text);
}
const dialog = () => page.getByRole('dialog');

async function clickCell(label: string, row: number, column: string) {
  const point = await cellPoint(page, label, row, column);
  await page.mouse.click(point.x, point.y);
}

/** Right-clicks a cell and picks an item of its context menu. */
async function cellMenu(
  label: string,
  row: number,
  column: string,
  item: string
): Promise<void> {
  const point = await cellPoint(page, label, row, column);
  await page.mouse.click(point.x, point.y, { button: 'right' });
  const menu = page.locator('.searchbook-CellMenu');
  await menu.waitFor();
  await menu.getByRole('menuitem', { name: item }).click();
  await menu.waitFor({ state: 'detached' });
}

/** The edit dialog's JSON, changed by `change`, applied with Ctrl-Enter. */
async function applyJson(
  change: (doc: Record<string, unknown>) => void
): Promise<void> {
  const area = dialog().getByRole('textbox', { name: 'Document (JSON)' });
  const doc = JSON.parse(await area.inputValue()) as Record<string, unknown>;
  change(doc);
  await area.fill(JSON.stringify(doc, null, 2));
  await area.press('Control+Enter');
}

/** Waits for the dialog's list of problems to say this (a dialog opened again after Apply shows it). */
async function dialogSays(pattern: RegExp): Promise<void> {
  await page.waitForFunction(
    source =>
      new RegExp(source).test(
        document.querySelector('.jp-Dialog [role="alert"]')?.textContent ?? ''
      ),
    pattern.source,
    { timeout: 30_000 }
  );
}

/** The filter bar's rows as column / operator / value. */
const filterRows = (label: string) =>
  filterBar(page, label)
    .getByRole('group')
    .evaluateAll(groups =>
      groups.map(g =>
        [...g.querySelectorAll('select, input[type="text"]')]
          .slice(0, 3)
          .map(c => (c as HTMLInputElement).value)
          .filter(v => v !== '')
          .join(' ')
      )
    );

async function rowCountIs(label: string, count: number): Promise<void> {
  await page.waitForFunction(
    ({ l, count }) => {
      const grid = document.querySelector(`[role="grid"][aria-label="${l}"]`);
      return (
        grid?.getAttribute('data-view') !== 'loading' &&
        grid?.getAttribute('aria-rowcount') === String(count) &&
        (count === 0 || Number(grid.getAttribute('data-loaded-rows')) > 0)
      );
    },
    { l: label, count },
    { timeout: 30_000 }
  );
}

describe('whole documents of an Elasticsearch index (sandbox)', () => {
  let label = '';

  it("Document shows the active row's document as JSON under its metadata, values as text, from the top", async () => {
    label = await openGrid(page, 'es', 'books');
    await clickCell(label, await rowOf(page, label, 'b2'), 'title');
    await toolbarAction(editBar(page, label), 'Document', 'View document');
    await dialog().waitFor();
    const meta = dialog().getByLabel('Metadata');
    await expect(meta.textContent()).resolves.toMatch(
      /_indexbooks_idb2_version\d+_seq_no\d+_primary_term1/
    );
    const json = dialog().getByRole('document', { name: 'Document (JSON)' });
    await expect(
      json.textContent().then(t => JSON.parse(t ?? ''))
    ).resolves.toEqual(await esSource('b2'));
    // The document is longer than the view, and opens at its start.
    await expect(
      json.evaluate(n => [n.scrollTop, n.scrollHeight > n.clientHeight])
    ).resolves.toEqual([0, true]);
    await screenshot(page, 'documents-view');
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });

    await cellMenu(
      label,
      await rowOf(page, label, 'b5'),
      'qty',
      'View document'
    );
    await dialog().waitFor();
    await expect(
      dialog().getByRole('document', { name: 'Document (JSON)' }).textContent()
    ).resolves.toContain(JSON.stringify(HOSTILE).slice(1, -1));
    await expect(dialog().locator('img').count()).resolves.toBe(0);
    expect(
      await page.evaluate(
        () => (window as unknown as { __pwned?: number }).__pwned
      )
    ).toBeUndefined();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
  });

  it('Edit as JSON opens at the top; the changed fields become pending changes of the row, and Save writes them', async () => {
    await clickCell(label, await rowOf(page, label, 'b2'), 'title');
    await toolbarAction(editBar(page, label), 'Document', 'View document');
    await dialog().getByRole('button', { name: 'Edit as JSON' }).click();
    const area = dialog().getByRole('textbox', { name: 'Document (JSON)' });
    await area.waitFor();
    await expect(
      area.evaluate(n => n === document.activeElement)
    ).resolves.toBe(true);
    await expect(
      area.evaluate(n => [
        n.scrollTop,
        n.scrollHeight > n.clientHeight,
        (n as HTMLTextAreaElement).selectionStart
      ])
    ).resolves.toEqual([0, true, 0]);
    await applyJson(doc => {
      doc['qty'] = 22;
      (doc['place'] as Record<string, unknown>)['city'] = 'Lima';
      doc['tags'] = ['only'];
    });
    await dialog().waitFor({ state: 'detached' });
    await pendingIs(label, '1 change pending');
    const row = await rowOf(page, label, 'b2');
    await expect(cellText(page, label, row, 'qty')).resolves.toBe('22');
    await expect(cellText(page, label, row, 'place.city')).resolves.toBe(
      'Lima'
    );
    await expect(rowHeader(page, label, row)).resolves.toMatch(/^✎ /);
    // Pending only: not yet in the engine.
    await expect(esSource('b2')).resolves.toMatchObject({ qty: 2 });
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(esSource('b2')).resolves.toEqual({
      ...BOOKS[2]?.source,
      qty: 22,
      place: { city: 'Lima' },
      tags: ['only']
    });
  });

  it('a value its field cannot hold is refused in the dialog, saying what to write; nothing is pending or sent', async () => {
    await cellMenu(
      label,
      await rowOf(page, label, 'b3'),
      'title',
      'Edit document as JSON…'
    );
    await applyJson(doc => {
      doc['qty'] = 'many';
      delete doc['notes'];
    });
    await dialogSays(/notes was removed: .*write "notes": null/);
    // The dialog keeps the text typed, to correct it.
    const area = dialog().getByRole('textbox', { name: 'Document (JSON)' });
    await applyJson(doc => {
      doc['notes'] = 'Note 3';
    });
    await dialogSays(
      /qty \(integer\): "many" is not a number; write a number such as 42/
    );
    await expect(area.inputValue()).resolves.toContain('"many"');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    await pendingIs(label, 'No pending changes');
    await expect(esSource('b3')).resolves.toEqual(BOOKS[3]?.source);
  });

  it('a document changed by someone else after the JSON edit is a conflict in the list under the grid', async () => {
    await cellMenu(
      label,
      await rowOf(page, label, 'b3'),
      'qty',
      'Edit document as JSON…'
    );
    await applyJson(doc => {
      doc['qty'] = 33;
    });
    await dialog().waitFor({ state: 'detached' });
    await engine(esUrl, '/books/_update/b3?refresh=true', {
      method: 'POST',
      body: JSON.stringify({ doc: { qty: 99 } })
    });
    await expect(saveEdits(page, label)).resolves.toMatch(
      /^Saved 0 of 1 change; 1 conflict/
    );
    await expect(
      problemsOf(page, label).locator('.searchbook-mod-conflict').textContent()
    ).resolves.toMatch(/qty: yours 33 · stored now 99/);
    await expect(esSource('b3')).resolves.toMatchObject({ qty: 99 });
    await problemsOf(page, label)
      .getByRole('button', { name: 'Drop my change' })
      .click();
    await pendingIs(label, 'No pending changes');
  });

  it('a long text edits in a multi-line editor over the grid: Ctrl-Enter keeps it, Escape drops it', async () => {
    const row = await rowOf(page, label, 'b1');
    const point = await cellPoint(page, label, row, 'notes');
    await page.mouse.dblclick(point.x, point.y);
    const editor = gridOf(page, label).locator(
      'textarea.lm-DataGrid-cellEditorWidget'
    );
    await editor.waitFor();
    await expect(editor.inputValue()).resolves.toBe(LONG_TEXT);
    const sizes = await editor.evaluate(n => {
      const grid = n.closest('[role="grid"]')?.getBoundingClientRect();
      const box = n.getBoundingClientRect();
      return {
        width: box.width / (grid?.width ?? 1),
        height: box.height / (grid?.height ?? 1),
        top: n.scrollTop
      };
    });
    expect(sizes.width).toBeGreaterThan(0.5);
    expect(sizes.height).toBeGreaterThan(0.5);
    expect(sizes.top).toBe(0);
    await screenshot(page, 'documents-long-text');
    // Enter is a new line, not the end of the edit.
    await editor.fill('First line');
    await editor.press('Enter');
    await editor.pressSequentially('second line');
    await editor.press('Escape');
    await editor.waitFor({ state: 'detached' });
    await pendingIs(label, 'No pending changes');
    await page.mouse.dblclick(point.x, point.y);
    await editor.waitFor();
    await editor.fill('First line');
    await editor.press('Enter');
    await editor.pressSequentially('second line');
    await editor.press('Control+Enter');
    await editor.waitFor({ state: 'detached' });
    await pendingIs(label, '1 change pending');
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(esSource('b1')).resolves.toMatchObject({
      notes: 'First line\nsecond line'
    });
  });

  it('a JSON cell opens its editor at the top of the value', async () => {
    await clickCell(label, await rowOf(page, label, 'b0'), 'title');
    // b0's tags are short; a long list opens at its first line too.
    await engine(esUrl, '/books/_update/b0?refresh=true', {
      method: 'POST',
      body: JSON.stringify({ doc: { tags: TAGS } })
    });
    await gridTab(page, label).getByRole('button', { name: 'Refresh' }).click();
    await cellShows(page, label, { id: 'b0' }, 'tags', 'tag-119', 'contain');
    const point = await cellPoint(
      page,
      label,
      await rowOf(page, label, 'b0'),
      'tags'
    );
    await page.mouse.dblclick(point.x, point.y);
    const editor = gridOf(page, label).locator(
      'textarea.lm-DataGrid-cellEditorWidget'
    );
    await editor.waitFor();
    await expect(
      editor.evaluate(n => [
        n.scrollTop,
        n.scrollHeight > n.clientHeight,
        (n as HTMLTextAreaElement).selectionStart
      ])
    ).resolves.toEqual([0, true, 0]);
    await editor.press('Escape');
    await editor.waitFor({ state: 'detached' });
  });

  it('Duplicate row adds a new row with the values and an empty id; Save creates the document', async () => {
    await cellMenu(
      label,
      await rowOf(page, label, 'b3'),
      'title',
      'Duplicate row'
    );
    // The copy is made from the stored document, read from the kernel first: bounded wait.
    for (
      let i = 0;
      i < 100 && (await rowHeader(page, label, 0)) !== 'new';
      i++
    ) {
      await new Promise(r => setTimeout(r, 100));
    }
    await expect(rowHeader(page, label, 0)).resolves.toBe('new');
    await expect(cellText(page, label, 0, '_id')).resolves.toBe('');
    await expect(cellText(page, label, 0, 'title')).resolves.toBe('Book 3');
    await expect(cellText(page, label, 0, 'place.city')).resolves.toBe('Oslo');
    await pendingIs(label, '1 change pending');
    const point = await cellPoint(page, label, 0, '_id');
    await page.mouse.dblclick(point.x, point.y);
    const input = gridOf(page, label).locator('.lm-DataGrid-cellEditorWidget');
    await input.waitFor();
    await input.fill('b3-copy');
    await input.press('Enter');
    await input.waitFor({ state: 'detached' });
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(esSource('b3-copy')).resolves.toEqual(await esSource('b3'));
  });

  it('Filter by this value and Exclude this value add a filter row and run it: text, number, boolean, date; an empty cell filters by presence', async () => {
    // Six documents and the copy saved above.
    const total = 7;
    await rowCountIs(label, total);
    await cellMenu(
      label,
      await rowOf(page, label, 'b4'),
      'place.city',
      'Filter by this value'
    );
    await expect(filterRows(label)).resolves.toEqual([
      'place.city equals Oslo'
    ]);
    await rowCountIs(label, 4);
    await cellMenu(
      label,
      await rowOf(page, label, 'b4'),
      'available',
      'Exclude this value'
    );
    await expect(filterRows(label)).resolves.toEqual([
      'place.city equals Oslo',
      'available not equals true'
    ]);
    // b3, b5 and b3-copy: in Oslo, not available (b3's qty is 99 since the conflict).
    await rowCountIs(label, 3);
    await cellMenu(
      label,
      await rowOf(page, label, 'b5'),
      'published',
      'Exclude this value'
    );
    await rowCountIs(label, 2);
    await cellMenu(
      label,
      await rowOf(page, label, 'b3'),
      'qty',
      'Filter by this value'
    );
    await expect(filterRows(label)).resolves.toEqual([
      'place.city equals Oslo',
      'available not equals true',
      `published not equals ${BOOKS[5]?.source.published}`,
      'qty equals 99'
    ]);
    await rowCountIs(label, 2);
    await gridTab(page, label)
      .getByRole('search', { name: 'Filter documents' })
      .getByRole('button', { name: 'Clear' })
      .click();
    await rowCountIs(label, total);
    // From the keyboard: Shift-F10 opens the active cell's menu, arrows move, Enter picks.
    await clickCell(label, await rowOf(page, label, 'b4'), 'notes');
    await page.keyboard.press('Shift+F10');
    const menu = page.locator('.searchbook-CellMenu');
    await menu.waitFor();
    await expect(menu.count()).resolves.toBe(1);
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('ArrowDown');
    }
    await expect(
      menu.locator('.lm-Menu-item.lm-mod-active').textContent()
    ).resolves.toBe('Filter by this value');
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    await expect(filterRows(label)).resolves.toEqual(['notes is null']);
    await rowCountIs(label, 1);
    await expect(rowOf(page, label, 'b4')).resolves.toBe(0);
    await screenshot(page, 'documents-filtered');
  });
});

describe('whole documents of a Typesense collection (sandbox)', () => {
  let label = '';

  it('a JSON edit is saved; a wrong-typed value is refused with nothing sent; a change made meanwhile is a conflict', async () => {
    label = await openGrid(page, 'ts', 'items');
    await cellMenu(
      label,
      await rowOf(page, label, 'i1'),
      'title',
      'View document'
    );
    await expect(dialog().getByLabel('Metadata').textContent()).resolves.toBe(
      'collectionitemsidi1'
    );
    await dialog().getByRole('button', { name: 'Edit as JSON' }).click();
    await applyJson(doc => {
      doc['rank'] = 'high';
    });
    await dialogSays(/rank \(int32\): "high" is not a number/);
    await applyJson(doc => {
      doc['rank'] = 11;
      doc['title'] = 'Item one';
    });
    await dialog().waitFor({ state: 'detached' });
    await expect(tsDocument('i1')).resolves.toMatchObject({ rank: 1 });
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(tsDocument('i1')).resolves.toEqual({
      id: 'i1',
      title: 'Item one',
      rank: 11
    });

    await cellMenu(
      label,
      await rowOf(page, label, 'i2'),
      'rank',
      'Edit document as JSON…'
    );
    await applyJson(doc => {
      doc['rank'] = 22;
    });
    await dialog().waitFor({ state: 'detached' });
    await engine(tsUrl, '/collections/items/documents/i2', {
      method: 'PATCH',
      body: JSON.stringify({ rank: 99 })
    });
    await expect(saveEdits(page, label)).resolves.toMatch(
      /^Saved 0 of 1 change; 1 conflict/
    );
    await expect(
      problemsOf(page, label).locator('.searchbook-mod-conflict').textContent()
    ).resolves.toMatch(/rank: yours 22 · stored now 99/);
    await expect(tsDocument('i2')).resolves.toMatchObject({ rank: 99 });
  });
});
