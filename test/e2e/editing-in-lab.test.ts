/**
 * Editing in the side panel's document grid, in a real JupyterLab (from .venv) in Debian's
 * Chromium, against the sandbox engines and a real Elasticsearch node: cells typed, rows
 * inserted (with and without an id) and deleted, Discard, Show requests, a refused value with
 * nothing sent, a conflict made by a direct write (Overwrite, Drop my change; on Typesense too,
 * which keeps no versions), a failed save where nothing typed is lost, a cut cell that loads
 * its whole value, pending edits surviving a kernel restart and a page reload, and deleting an
 * index or emptying a collection through the tree's menu with the name typed. Every write is checked in the engine with a direct request.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  createElasticsearchSandbox,
  type ElasticsearchSandbox
} from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import {
  type EsTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { typesenseWithItems } from './support/typesense-items';
import { openPanelLab, reloadLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { runAllCells, runCommand, screenshot } from './support/notebook-page';
import {
  cellPoint,
  cellText,
  closeGrid,
  editBar,
  editMessage,
  gridOf,
  gridTab,
  openGrid,
  pendingCount,
  problemsOf,
  rowHeader,
  rowOf,
  saveEdits,
  statusLine,
  statusShows,
  targetInTree,
  typeInto,
  toolbarAction
} from './support/grid-page';

jest.setTimeout(240_000);

const TS_KEY = 'e2e-editing-ts-secret';
const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const SHOP_MAPPING = {
  properties: {
    name: { type: 'keyword' },
    qty: { type: 'integer' },
    addr: { type: 'ip' },
    variants: {
      type: 'nested',
      properties: { sku: { type: 'keyword' }, stock: { type: 'integer' } }
    }
  }
};
const SHOP = Array.from({ length: 7 }, (_, n) => ({
  id: `p${n}`,
  source: {
    name: n === 5 ? HOSTILE : `Item ${n}`,
    qty: n,
    addr: `10.0.0.${n}`,
    // p6 holds a nested array far over the 10,000 characters a cell keeps.
    variants:
      n === 6
        ? Array.from({ length: 400 }, (_, i) => ({
            sku: `sku-${String(i).padStart(4, '0')}-long-code`,
            stock: i
          }))
        : [{ sku: `s${n}`, stock: n }]
  }
}));

let es: ElasticsearchSandbox;
let servers: ListeningServer[] = [];
let esUrl = '';
let tsUrl = '';
let real: RunningEsTarget | undefined;
let realSkipped: string | undefined;
const REAL_INDEX = `edit-e2e-${Date.now().toString(36)}`;
const REAL_TARGET = elasticsearchTargets().find(
  (t: EsTarget) => t.engine === 'real' && t.version.startsWith('8.')
);
let lab: RunningLab;
let browser: Browser;
let page: Page;

async function engine(
  url: string,
  path: string,
  init: RequestInit = {}
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers = {
    'content-type': 'application/json',
    'x-typesense-api-key': TS_KEY,
    ...(init.headers as Record<string, string> | undefined)
  };
  const response = await fetch(`${url}${path}`, { ...init, headers });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {}
  };
}
const source = async (url: string, index: string, id: string) =>
  (await engine(url, `/${index}/_doc/${id}`)).body['_source'] as
    Record<string, unknown> | undefined;

async function startRealNode(): Promise<void> {
  if (!REAL_TARGET || REAL_TARGET.skipped) {
    return;
  }
  real = await REAL_TARGET.start({ security: false });
  await engine(real.url, `/${REAL_INDEX}`, {
    method: 'PUT',
    body: JSON.stringify({
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: SHOP_MAPPING
    })
  });
  for (const doc of SHOP.slice(0, 3)) {
    await engine(real.url, `/${REAL_INDEX}/_doc/${doc.id}?refresh=true`, {
      method: 'PUT',
      body: JSON.stringify(doc.source)
    });
  }
}

beforeAll(async () => {
  const realStarted = startRealNode().catch((err: Error) => {
    realSkipped = err.message;
  });
  es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex('shop', SHOP_MAPPING, SHOP);
  es.loadIndex('trash', undefined, [{ id: '1', source: { a: 1 } }]);
  es.loadIndex('void', SHOP_MAPPING, []);
  const ts = typesenseWithItems(TS_KEY, 5);
  const old = createTypesenseSandbox({ version: '27.1', apiKey: TS_KEY });
  old.createCollection({
    name: 'legacy',
    fields: [{ name: 'title', type: 'string' }]
  });
  servers = [
    await listen(es.handler, { port: 0 }),
    await listen(ts.handler, { port: 0 }),
    await listen(old.handler, { port: 0 })
  ];
  const [esServer, tsServer, oldServer] = servers as [
    ListeningServer,
    ListeningServer,
    ListeningServer
  ];
  esUrl = esServer.url;
  tsUrl = tsServer.url;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    realStarted,
    new Promise(resolve => (timer = setTimeout(resolve, REAL_START_TIMEOUT_MS)))
  ]);
  clearTimeout(timer);
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-editing-'));
  const cells = [
    `%connect elasticsearch ${esUrl} name=es`,
    `%connect typesense ${tsUrl} key=\${env:TS_KEY} name=ts`,
    `%connect typesense ${oldServer.url} key=\${env:TS_KEY} name=old`
  ];
  if (real) {
    cells.push(`%connect elasticsearch ${real.url} name=real`);
  }
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'editing.ipynb',
    cells,
    env: { TS_KEY },
    beforeOpen: opened => opened.setDefaultTimeout(30_000)
  }));
}, REAL_START_TIMEOUT_MS + 240_000);

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
  if (real) {
    await engine(real.url, `/${REAL_INDEX}`, { method: 'DELETE' }).catch(
      () => undefined
    );
  }
  await real?.close();
});

async function dblclickCell(
  label: string,
  row: number,
  column: string
): Promise<void> {
  const point = await cellPoint(page, label, row, column);
  await page.mouse.dblclick(point.x, point.y);
}

async function selectRow(label: string, row: number): Promise<void> {
  const point = await cellPoint(page, label, row, 'row-header');
  await page.mouse.click(point.x, point.y);
}

/** Discard, answered in its dialog (asked when more than one change is pending). */
async function discardAll(label: string, question?: string): Promise<void> {
  await editBar(page, label).getByRole('button', { name: 'Discard' }).click();
  if (question === undefined) {
    return;
  }
  const dialog = page.getByRole('dialog');
  await expect(dialog.textContent()).resolves.toContain(question);
  await dialog.getByRole('button', { name: 'Discard' }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('editing an Elasticsearch index (sandbox)', () => {
  let label = '';

  it('a typed cell is pending and marked until Save; Save stores it, checked in the engine', async () => {
    label = await openGrid(page, 'es', 'shop');
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      'No pending changes'
    );
    await expect(
      editBar(page, label).getByRole('button', { name: 'Save' }).isDisabled()
    ).resolves.toBe(true);
    const row = await rowOf(page, label, 'p0');
    await typeInto(page, label, row, 'qty', '42');
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '1 change pending'
    );
    await expect(cellText(page, label, row, 'qty')).resolves.toBe('42');
    await expect(rowHeader(page, label, row)).resolves.toMatch(/^✎ /);
    await typeInto(page, label, { id: 'p1' }, 'name', 'Renamed');
    await editBar(page, label)
      .getByRole('button', { name: 'Insert row' })
      .click();
    await typeInto(page, label, 0, 'name', 'Pending new row');
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '3 changes pending'
    );
    await screenshot(page, 'editing-pending');
    // Not yet in the engine.
    await expect(source(esUrl, 'shop', 'p0')).resolves.toMatchObject({
      qty: 0
    });
    // Discard asks first when it would drop more than one change, and can be undone until the next change.
    await selectRow(label, await rowOf(page, label, 'p2'));
    await editBar(page, label)
      .getByRole('button', { name: 'Delete rows' })
      .click();
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '4 changes pending'
    );
    await discardAll(label, 'Discard 4 pending changes?');
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      'No pending changes'
    );
    await expect(rowHeader(page, label, 0)).resolves.not.toBe('new');
    await editBar(page, label)
      .getByRole('button', { name: 'Undo', exact: true })
      .click();
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '4 changes pending'
    );
    await expect(
      cellText(page, label, await rowOf(page, label, 'p0'), 'qty')
    ).resolves.toBe('42');
    await expect(
      cellText(page, label, await rowOf(page, label, 'p1'), 'name')
    ).resolves.toBe('Renamed');
    await expect(
      rowHeader(page, label, await rowOf(page, label, 'p2'))
    ).resolves.toMatch(/^✕ /);
    await expect(rowHeader(page, label, 0)).resolves.toBe('new');
    await expect(cellText(page, label, 0, 'name')).resolves.toBe(
      'Pending new row'
    );
    await expect(
      editBar(page, label)
        .getByRole('button', { name: 'Undo', exact: true })
        .isHidden()
    ).resolves.toBe(true);
    await discardAll(label, 'Discard 4 pending changes?');
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      'No pending changes'
    );
    await expect(
      cellText(page, label, await rowOf(page, label, 'p0'), 'qty')
    ).resolves.toBe('0');
    await expect(
      cellText(page, label, await rowOf(page, label, 'p1'), 'name')
    ).resolves.toBe('Item 1');

    await typeInto(page, label, { id: 'p0' }, 'qty', '42');
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(source(esUrl, 'shop', 'p0')).resolves.toMatchObject({
      qty: 42,
      name: 'Item 0'
    });
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      'No pending changes'
    );
    await expect(
      cellText(page, label, await rowOf(page, label, 'p0'), 'qty')
    ).resolves.toBe('42');
    await expect(
      rowHeader(page, label, await rowOf(page, label, 'p0'))
    ).resolves.not.toMatch(/✎/);
  });

  it('read-only cells say why instead of opening an editor; a hostile value edits as text', async () => {
    const row = await rowOf(page, label, 'p2');
    await dblclickCell(label, row, '_id');
    await expect(editMessage(page, label).textContent()).resolves.toMatch(
      /_id identifies the document and cannot be changed/
    );
    await dblclickCell(label, row, 'variants.sku');
    await expect(editMessage(page, label).textContent()).resolves.toMatch(
      /edit the array in the variants column/
    );
    await expect(
      gridOf(page, label).locator('.lm-DataGrid-cellEditorWidget').count()
    ).resolves.toBe(0);
    await dblclickCell(label, await rowOf(page, label, 'p5'), 'name');
    const editor = gridOf(page, label).locator('.lm-DataGrid-cellEditorWidget');
    await expect(editor.inputValue()).resolves.toBe(HOSTILE);
    await editor.press('Escape');
    expect(
      await page.evaluate(
        () => (window as unknown as { __pwned?: number }).__pwned
      )
    ).toBeUndefined();
  });

  it('a cut cell loads its whole value before the editor opens', async () => {
    await dblclickCell(label, await rowOf(page, label, 'p6'), 'variants');
    const editor = gridOf(page, label).locator(
      'textarea.lm-DataGrid-cellEditorWidget'
    );
    await editor.waitFor({ timeout: 15_000 });
    const text = await editor.inputValue();
    expect(text.length).toBeGreaterThan(10_000);
    expect(JSON.parse(text)).toHaveLength(400);
    await editor.press('Escape');
  });

  it('inserts a row with a typed id and one without: that one gets a random id and the grid shows it', async () => {
    await editBar(page, label)
      .getByRole('button', { name: 'Insert row' })
      .click();
    await typeInto(page, label, 0, '_id', 'p100');
    await typeInto(page, label, 0, 'name', 'Typed id');
    await typeInto(page, label, 0, 'qty', '3');
    await editBar(page, label)
      .getByRole('button', { name: 'Insert row' })
      .click();
    await typeInto(page, label, 0, 'name', 'Engine id');
    await expect(rowHeader(page, label, 0)).resolves.toBe('new');
    await expect(saveEdits(page, label)).resolves.toBe('Saved 2 changes.');
    await expect(source(esUrl, 'shop', 'p100')).resolves.toEqual({
      name: 'Typed id',
      qty: 3
    });
    const found = await engine(esUrl, '/shop/_search', {
      method: 'POST',
      body: JSON.stringify({ query: { term: { name: 'Engine id' } } })
    });
    const hits = (found.body['hits'] as { hits: Array<{ _id: string }> }).hits;
    expect(hits).toHaveLength(1);
    const given = hits[0]?._id ?? '';
    expect(given).toMatch(/^[A-Za-z0-9]{20}$/);
    await expect(rowOf(page, label, given)).resolves.toBeGreaterThanOrEqual(0);
    await expect(
      rowHeader(page, label, await rowOf(page, label, given))
    ).resolves.toBe('saved');
  });

  it('a new row whose save landed but whose answer was lost is saved once when saved again', async () => {
    await editBar(page, label)
      .getByRole('button', { name: 'Insert row' })
      .click();
    await typeInto(page, label, 0, 'name', 'Sent twice');
    await typeInto(page, label, 0, 'qty', '5');
    await editBar(page, label)
      .getByRole('button', { name: 'Show requests' })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const text = (await dialog.getByLabel('Requests').textContent()) ?? '';
    await dialog.getByRole('button', { name: 'Close' }).click();
    const id =
      /^PUT \/shop\/_doc\/([A-Za-z0-9]{20})\?op_type=create/.exec(text)?.[1] ??
      '';
    expect(id).not.toBe('');
    // What a first Save leaves when the kernel restarts before its answer: the document written, the row still pending.
    await engine(esUrl, `/shop/_doc/${id}?refresh=true`, {
      method: 'PUT',
      body: JSON.stringify({ name: 'Sent twice', qty: 5 })
    });
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    const found = await engine(esUrl, '/shop/_search', {
      method: 'POST',
      body: JSON.stringify({ query: { match_phrase: { name: 'Sent twice' } } })
    });
    expect(
      (found.body['hits'] as { hits: Array<{ _id: string }> }).hits.map(
        h => h._id
      )
    ).toEqual([id]);
    await expect(
      rowHeader(page, label, await rowOf(page, label, id))
    ).resolves.toBe('saved');
  });

  it('Delete rows marks the selected row; Save deletes the document', async () => {
    await selectRow(label, await rowOf(page, label, 'p1'));
    await editBar(page, label)
      .getByRole('button', { name: 'Delete rows' })
      .click();
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '1 change pending'
    );
    await expect(
      rowHeader(page, label, await rowOf(page, label, 'p1'))
    ).resolves.toMatch(/^✕ /);
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(engine(esUrl, '/shop/_doc/p1')).resolves.toMatchObject({
      status: 404
    });
    // The deleted row's block is still in memory: the status counts the rows shown, never more than there are.
    const shown = Number(
      await gridOf(page, label).getAttribute('aria-rowcount')
    );
    const figures = /^([\d,]+) of ([\d,]+) rows loaded/.exec(
      (await statusLine(page, label).textContent()) ?? ''
    );
    expect(figures?.slice(1).map(n => Number(n.replace(/,/g, '')))).toEqual([
      shown,
      shown
    ]);
  });

  it('Show requests shows what Save would send, and sends nothing', async () => {
    await typeInto(page, label, { id: 'p2' }, 'qty', '7');
    await editBar(page, label)
      .getByRole('button', { name: 'Show requests' })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const text = (await dialog.getByLabel('Requests').textContent()) ?? '';
    expect(text).toMatch(/^POST \/shop\/_update\/p2/);
    expect(text).toContain('"qty": 7');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(source(esUrl, 'shop', 'p2')).resolves.toMatchObject({
      qty: 2
    });
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '1 change pending'
    );
  });

  it('a fraction in an integer field is refused under its cell, nothing is sent, and everything stays pending', async () => {
    await typeInto(page, label, { id: 'p3' }, 'qty', '2.5');
    await typeInto(page, label, { id: 'p4' }, 'variants', '[{"sku": "x",]');
    const message = await saveEdits(page, label);
    expect(message).toMatch(/^Nothing was sent: 2 values refused/);
    // Each refusal names its field once, and a JSON one says where the text goes wrong.
    const listed = await problemsOf(page, label).textContent();
    expect(listed).toMatch(/qty \(\w+\): .*fraction/);
    expect(listed).toMatch(/variants \(\w+\) takes JSON: .*line 1, column \d+/);
    expect(listed).not.toMatch(
      /qty: qty|variants: variants|\(line 1, column \d+\)/
    );
    await expect(
      gridTab(page, label).locator('.searchbook-CellNote').isVisible()
    ).resolves.toBe(true);
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '3 changes pending'
    );
    await expect(source(esUrl, 'shop', 'p2')).resolves.toMatchObject({
      qty: 2
    });
    await expect(source(esUrl, 'shop', 'p3')).resolves.toMatchObject({
      qty: 3
    });
    await discardAll(label, 'Discard 3 pending changes?');
    await expect(problemsOf(page, label).isHidden()).resolves.toBe(true);
  });

  it('a conflict keeps the edit beside the stored value: Overwrite saves it, Drop my change shows the stored one', async () => {
    await typeInto(page, label, { id: 'p3' }, 'qty', '11');
    await engine(esUrl, '/shop/_update/p3?refresh=true', {
      method: 'POST',
      body: JSON.stringify({ doc: { qty: 99 } })
    });
    await expect(saveEdits(page, label)).resolves.toMatch(
      /^Saved 0 of 1 change; 1 conflict/
    );
    const conflict = problemsOf(page, label).locator(
      '.searchbook-mod-conflict'
    );
    await expect(conflict.textContent()).resolves.toMatch(
      /qty: yours 11 · stored now 99/
    );
    await expect(
      cellText(page, label, await rowOf(page, label, 'p3'), 'qty')
    ).resolves.toBe('11');
    await screenshot(page, 'editing-conflict');
    await conflict.getByRole('button', { name: 'Overwrite' }).click();
    await page.waitForFunction(
      l =>
        document
          .querySelector(`[role="grid"][aria-label="${l}"]`)
          ?.getAttribute('data-pending') === '0',
      label,
      { timeout: 30_000 }
    );
    await expect(source(esUrl, 'shop', 'p3')).resolves.toMatchObject({
      qty: 11
    });

    await typeInto(page, label, { id: 'p3' }, 'qty', '12');
    await engine(esUrl, '/shop/_update/p3?refresh=true', {
      method: 'POST',
      body: JSON.stringify({ doc: { qty: 77 } })
    });
    await saveEdits(page, label);
    await problemsOf(page, label)
      .getByRole('button', { name: 'Drop my change' })
      .click();
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      'No pending changes'
    );
    await expect(
      cellText(page, label, await rowOf(page, label, 'p3'), 'qty')
    ).resolves.toBe('77');
    await expect(source(esUrl, 'shop', 'p3')).resolves.toMatchObject({
      qty: 77
    });
  });

  it('a failed save keeps the failed change pending with the engine’s reason; the other change of the same Save shows as saved', async () => {
    await typeInto(page, label, { id: 'p2' }, 'qty', '8');
    // Text the kernel passes on as it is, which the engine refuses: not an IP address.
    await typeInto(page, label, { id: 'p4' }, 'addr', 'not-an-ip');
    const message = await saveEdits(page, label);
    expect(message).toMatch(/^Saved 1 of 2 changes; 1 failed/);
    await expect(source(esUrl, 'shop', 'p2')).resolves.toMatchObject({
      qty: 8
    });
    await expect(problemsOf(page, label).textContent()).resolves.toMatch(
      /not saved.*failed to parse field \[addr\] of type \[ip\]/s
    );
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '1 change pending'
    );
    await expect(
      cellText(page, label, await rowOf(page, label, 'p4'), 'addr')
    ).resolves.toBe('not-an-ip');
    await expect(
      rowHeader(page, label, await rowOf(page, label, 'p2'))
    ).resolves.not.toMatch(/[✎!]/);
    await editBar(page, label).getByRole('button', { name: 'Discard' }).click();
  });

  it('confirmations come and go without replacing the row count; an empty index and a filter matching nothing say so', async () => {
    const status = gridTab(page, label).locator(
      '.searchbook-DocumentGrid-status'
    );
    await expect(status.textContent()).resolves.toMatch(
      /rows loaded · last: POST /
    );
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(page.url()).origin
      });
    await toolbarAction(gridTab(page, label), 'Copy', 'Copy as curl');
    const toast = page
      .locator('.jp-toast-message')
      .filter({ hasText: 'Copied the request as a curl command.' });
    await toast.waitFor();
    await expect(status.textContent()).resolves.toMatch(
      /rows loaded · last: POST /
    );
    // It closes by itself (JupyterLab's notification centre keeps it).
    await toast.waitFor({ state: 'detached', timeout: 30_000 });

    const bar = gridTab(page, label).getByRole('search', {
      name: 'Filter documents'
    });
    await bar.getByRole('button', { name: 'Add filter' }).click();
    const row = bar.getByRole('group', { name: 'Filter row 1' });
    await row.getByRole('combobox', { name: 'Column' }).selectOption('name');
    await row
      .getByRole('combobox', { name: 'Operator' })
      .selectOption('equals');
    await row.getByRole('textbox', { name: 'Value' }).fill('no such item');
    await bar.getByRole('button', { name: 'Apply' }).click();
    const viewState = gridTab(page, label).locator(
      '.searchbook-DocumentGrid-viewState'
    );
    await page.waitForFunction(
      l =>
        document
          .querySelector(`[role="grid"][aria-label="${l}"]`)
          ?.getAttribute('data-view') === 'empty',
      label,
      { timeout: 30_000 }
    );
    await expect(viewState.locator('p').allInnerTexts()).resolves.toEqual([
      'No documents match',
      'Filter: name equals "no such item"'
    ]);
    await screenshot(page, 'editing-no-match');
    await bar.getByRole('button', { name: 'Clear' }).click();
    await page.waitForFunction(
      l =>
        document
          .querySelector(`[role="grid"][aria-label="${l}"]`)
          ?.getAttribute('data-view') === 'shown',
      label,
      { timeout: 30_000 }
    );

    await targetInTree(page, 'es', 'void').dblclick();
    const empty = 'void · es';
    await page.waitForFunction(
      l =>
        document
          .querySelector(`[role="grid"][aria-label="${l}"]`)
          ?.getAttribute('data-view') === 'empty',
      empty,
      { timeout: 30_000 }
    );
    await expect(
      gridTab(page, empty)
        .locator('.searchbook-DocumentGrid-viewState')
        .innerText()
    ).resolves.toBe('void is empty: it holds no documents.');
    await closeGrid(page, empty);
  });

  it('Delete index… shows the exact request and needs the name typed; the tree then drops it', async () => {
    await targetInTree(page, 'es', 'trash').click({ button: 'right' });
    await page.getByRole('menuitem', { name: /Delete index/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Request').textContent()).resolves.toBe(
      'DELETE /trash'
    );
    // What it deletes is read from the server as the menu opened.
    await expect(dialog.locator('p').first().textContent()).resolves.toBe(
      'This deletes trash and every document in it (1 document now). It cannot be undone. The request:'
    );
    const confirm = dialog.getByRole('button', { name: 'Delete index' });
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await dialog.getByRole('textbox').fill('tras');
    await expect(confirm.isDisabled()).resolves.toBe(true);
    await dialog.getByRole('textbox').fill('trash');
    await expect(confirm.isDisabled()).resolves.toBe(false);
    await screenshot(page, 'delete-index-dialog');
    await confirm.click();
    await targetInTree(page, 'es', 'trash').waitFor({
      state: 'detached',
      timeout: 30_000
    });
    await expect(engine(esUrl, '/trash')).resolves.toMatchObject({
      status: 404
    });
    await expect(engine(esUrl, '/shop/_count')).resolves.toMatchObject({
      status: 200
    });
  });

  it('Delete index… sends nothing when the index changed while the confirmation was open, and says so', async () => {
    await engine(esUrl, '/bin/_doc/1?refresh=true', {
      method: 'PUT',
      body: JSON.stringify({ a: 1 })
    });
    await page
      .locator('.searchbook-Sidebar')
      .getByRole('button', { name: 'Refresh', exact: true })
      .click();
    await targetInTree(page, 'es', 'bin').click({ button: 'right' });
    await page.getByRole('menuitem', { name: /Delete index/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Request').waitFor();
    // Someone writes to it meanwhile.
    await engine(esUrl, '/bin/_doc/2?refresh=true', {
      method: 'PUT',
      body: JSON.stringify({ a: 2 })
    });
    await dialog.getByRole('textbox').fill('bin');
    await dialog.getByRole('button', { name: 'Delete index' }).click();
    const message = page
      .locator('.searchbook-Sidebar-message')
      .filter({ hasText: 'changed since you confirmed' });
    await message.waitFor({ timeout: 30_000 });
    await expect(message.textContent()).resolves.toBe(
      'bin: bin changed since you confirmed: it holds 2 documents now, 1 document when its menu was opened. Nothing was sent: open its menu again to confirm what it holds now.'
    );
    await expect(engine(esUrl, '/bin/_count')).resolves.toMatchObject({
      status: 200,
      body: { count: 2 }
    });
    await targetInTree(page, 'es', 'bin')
      .locator('xpath=self::*[starts-with(@aria-label, "bin · 2 documents")]')
      .waitFor();
  });
});

describe('Typesense collections', () => {
  it('an edited cell is saved with PATCH (checked in the engine)', async () => {
    const label = await openGrid(page, 'ts', 'items');
    await typeInto(page, label, { id: 'i1' }, 'rank', '41');
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(
      engine(tsUrl, '/collections/items/documents/i1')
    ).resolves.toMatchObject({ body: { rank: 41, title: 'Item 1' } });
    await closeGrid(page, label);
  });

  it('a change written by someone else after the grid read the row is a conflict, though Typesense keeps no versions: Overwrite saves yours; a deletion is kept back too', async () => {
    const label = await openGrid(page, 'ts', 'items');
    await typeInto(page, label, { id: 'i2' }, 'rank', '21');
    await engine(tsUrl, '/collections/items/documents/i2', {
      method: 'PATCH',
      body: JSON.stringify({ rank: 99 })
    });
    await expect(saveEdits(page, label)).resolves.toMatch(
      /^Saved 0 of 1 change; 1 conflict/
    );
    const conflict = problemsOf(page, label).locator(
      '.searchbook-mod-conflict'
    );
    await expect(conflict.textContent()).resolves.toMatch(
      /Someone changed rank in this document after the grid read it[\s\S]*rank: yours 21 · stored now 99/
    );
    await expect(
      engine(tsUrl, '/collections/items/documents/i2')
    ).resolves.toMatchObject({ body: { rank: 99 } });
    await screenshot(page, 'editing-conflict-typesense');
    await conflict.getByRole('button', { name: 'Overwrite' }).click();
    await page.waitForFunction(
      l =>
        document
          .querySelector(`[role="grid"][aria-label="${l}"]`)
          ?.getAttribute('data-pending') === '0',
      label,
      { timeout: 30_000 }
    );
    await expect(
      engine(tsUrl, '/collections/items/documents/i2')
    ).resolves.toMatchObject({ body: { rank: 21, title: 'Item 2' } });

    // A row deleted after someone else changed it is kept; Drop my change shows their value.
    await selectRow(label, await rowOf(page, label, 'i3'));
    await editBar(page, label)
      .getByRole('button', { name: 'Delete rows' })
      .click();
    await engine(tsUrl, '/collections/items/documents/i3', {
      method: 'PATCH',
      body: JSON.stringify({ title: 'Item 3, revised' })
    });
    await expect(saveEdits(page, label)).resolves.toMatch(/1 conflict/);
    await expect(problemsOf(page, label).textContent()).resolves.toMatch(
      /Someone changed title in this document after the grid read it, so it was not deleted/
    );
    await expect(
      engine(tsUrl, '/collections/items/documents/i3')
    ).resolves.toMatchObject({
      status: 200,
      body: { title: 'Item 3, revised' }
    });
    await problemsOf(page, label)
      .getByRole('button', { name: 'Drop my change' })
      .click();
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      'No pending changes'
    );
    await expect(
      cellText(page, label, await rowOf(page, label, 'i3'), 'title')
    ).resolves.toBe('Item 3, revised');
    await closeGrid(page, label);
  });

  it('Empty collection… removes every document and keeps the schema; the open grid shows it emptied', async () => {
    const label = await openGrid(page, 'ts', 'items');
    await targetInTree(page, 'ts', 'items').click({ button: 'right' });
    await page.getByRole('menuitem', { name: /Empty collection/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByLabel('Request').textContent()).resolves.toBe(
      'DELETE /collections/items/documents?truncate=true'
    );
    await dialog.getByRole('textbox').fill('items');
    await dialog.getByRole('button', { name: 'Empty collection' }).click();
    await page.waitForFunction(
      () =>
        /^items · 0 documents/.test(
          document
            .querySelector(
              '[data-connection="ts"] [aria-level="2"][aria-label^="items · "]'
            )
            ?.getAttribute('aria-label') ?? ''
        ),
      undefined,
      { timeout: 30_000 }
    );
    // The grid open on it reads it again, without Refresh.
    await statusShows(page, label, /^0 of 0 rows loaded/, 15_000);
    await expect(
      gridOf(page, label).getAttribute('aria-rowcount')
    ).resolves.toBe('0');
    await closeGrid(page, label);
    const collection = await engine(tsUrl, '/collections/items');
    expect(collection.body['num_documents']).toBe(0);
    expect(
      (collection.body['fields'] as Array<{ name: string }>).map(f => f.name)
    ).toEqual(expect.arrayContaining(['title', 'rank']));
  });

  it('on a server older than 28.0, Empty collection… is disabled and says why', async () => {
    await targetInTree(page, 'old', 'legacy').click({ button: 'right' });
    const item = page.getByRole('menuitem', { name: /Empty collection/ });
    await expect(item.getAttribute('aria-disabled')).resolves.toBe('true');
    await expect(item.textContent()).resolves.toMatch(/28/);
    await page.keyboard.press('Escape');
  });
});

(REAL_TARGET?.skipped ? describe.skip : describe)(
  `${REAL_TARGET?.name ?? 'a real Elasticsearch node'}${REAL_TARGET?.skipped ? ` (skipped: ${REAL_TARGET.skipped})` : ''}`,
  () => {
    it('an edit saved from the grid is stored, with a conflict from a direct write caught', async () => {
      if (!real) {
        throw new Error(
          `the real node did not start: ${realSkipped ?? 'no answer in time'}`
        );
      }
      const label = await openGrid(page, 'real', REAL_INDEX);
      await typeInto(page, label, { id: 'p0' }, 'qty', '42');
      await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
      await expect(source(real.url, REAL_INDEX, 'p0')).resolves.toMatchObject({
        qty: 42
      });
      await typeInto(page, label, { id: 'p1' }, 'qty', '2.5');
      await expect(saveEdits(page, label)).resolves.toMatch(
        /^Nothing was sent/
      );
      await editBar(page, label)
        .getByRole('button', { name: 'Discard' })
        .click();
      await typeInto(page, label, { id: 'p1' }, 'qty', '11');
      await engine(real.url, `/${REAL_INDEX}/_update/p1?refresh=true`, {
        method: 'POST',
        body: JSON.stringify({ doc: { qty: 99 } })
      });
      await expect(saveEdits(page, label)).resolves.toMatch(/1 conflict/);
      await problemsOf(page, label)
        .getByRole('button', { name: 'Overwrite' })
        .click();
      await page.waitForFunction(
        l =>
          document
            .querySelector(`[role="grid"][aria-label="${l}"]`)
            ?.getAttribute('data-pending') === '0',
        label,
        { timeout: 30_000 }
      );
      await expect(source(real.url, REAL_INDEX, 'p1')).resolves.toMatchObject({
        qty: 11
      });
    });
  }
);

describe('nothing typed is lost', () => {
  it('pending edits survive a kernel restart and a page reload, and save afterwards', async () => {
    // The first part's tab on shop may be behind another tab: close every one.
    const tabs = page.getByRole('tab', { name: /^shop · es/ });
    while ((await tabs.count()) > 0) {
      await tabs.first().locator('.lm-TabBar-tabCloseIcon').click();
    }
    let label = await openGrid(page, 'es', 'shop');
    await typeInto(page, label, { id: 'p4' }, 'qty', '55');
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '1 change pending'
    );
    await page.getByRole('tab', { name: /editing\.ipynb/ }).click();
    // Execution counts cleared, so waiting for the cells to run again waits for the new kernel.
    await runCommand(page, 'notebook:clear-all-cell-outputs');
    // Kept in the page, not awaited: the command settles only once its dialog is answered and
    // the kernel has restarted.
    await page.evaluate(() => {
      const w = window as unknown as {
        jupyterapp: { commands: { execute(id: string): Promise<unknown> } };
        __restarted?: Promise<unknown>;
      };
      w.__restarted = w.jupyterapp.commands.execute('notebook:restart-kernel');
    });
    await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Confirm Kernel Restart' })
      .click();
    await page.waitForFunction(
      () => document.querySelector('.jp-Dialog') === null
    );
    await page.evaluate(
      () =>
        (window as unknown as { __restarted?: Promise<unknown> }).__restarted
    );
    await runAllCells(page);
    await page.getByRole('tab', { name: /^shop · es/ }).click();
    await expect(editMessage(page, label).textContent()).resolves.toMatch(
      /^The kernel restarted or stopped\. Pending changes are kept/
    );
    await closeGrid(page, label);
    label = await openGrid(page, 'es', 'shop');
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '1 change pending'
    );
    await expect(
      cellText(page, label, await rowOf(page, label, 'p4'), 'qty')
    ).resolves.toBe('55');

    await reloadLab(page);
    // The reloaded page restores the grid tab only as a closed one: open it again from the tree.
    if (await gridOf(page, label).count()) {
      await closeGrid(page, label);
    }
    label = await openGrid(page, 'es', 'shop');
    await expect(pendingCount(page, label).textContent()).resolves.toBe(
      '1 change pending'
    );
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(source(esUrl, 'shop', 'p4')).resolves.toMatchObject({
      qty: 55
    });
  });
});
