/**
 * Typesense 30's resources in the panel, in a real JupyterLab in Chromium against the
 * Typesense 30 sandbox: presets (a cell searching through one shows no column for a field it
 * leaves out) and stopword sets, synonym sets and curation sets with the collections that use
 * them and the items inside them, each listed, added, edited as JSON (a mistyped entry refused
 * with what to write, the text kept) and deleted with the exact request shown before it is
 * sent, the server's state checked afterwards with requests of its own; the per-collection
 * synonyms and overrides of older versions disabled with why; an alias opening its
 * collection's grid.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import type { RunningLab } from './support/jupyter-lab';
import {
  cellOutput,
  runCommand,
  runInNotebookKernel,
  screenshot
} from './support/notebook-page';
import { openPanelLab, panelTreeItem } from './support/panel-lab';
import { remove, review, send } from './support/resource-dialog';
import { axeFindings } from './support/axe';
import { focusLandsOn } from './support/focus';

jest.setTimeout(180_000);

const TS_KEY = 'e2e-sets-ts-secret';

let server: ListeningServer;
let lab: RunningLab;
let browser: Browser;
let page: Page;

async function call(
  method: string,
  path: string,
  body?: unknown
): Promise<{ status: number; json: unknown }> {
  const r = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      'x-typesense-api-key': TS_KEY,
      'content-type': 'application/json'
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {})
  });
  return { status: r.status, json: await r.json() };
}

/** The ids of a search's hits, in order. */
async function searchIds(q: string): Promise<string[]> {
  const { json } = await call(
    'GET',
    `/collections/wear/documents/search?q=${encodeURIComponent(q)}&query_by=name`
  );
  return (json as { hits: { document: { id: string } }[] }).hits.map(
    h => h.document.id
  );
}

beforeAll(async () => {
  const ts = createTypesenseSandbox({ version: '30.0', apiKey: TS_KEY });
  server = await listen(ts.handler, { port: 0 });
  const created = await call('POST', '/collections', {
    name: 'wear',
    fields: [
      { name: 'name', type: 'string' },
      { name: 'price', type: 'int32' }
    ]
  });
  expect(created.status).toBe(201);
  ts.loadDocuments('wear', [
    { id: '1', name: 'Wool sweater', price: 60 },
    { id: '2', name: 'Cotton shirt', price: 25 },
    { id: '3', name: 'Rain jacket', price: 90 },
    { id: '4', name: 'Denim jacket', price: 70 }
  ]);
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-sets-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'sets.ipynb',
    cells: [`%connect typesense ${server.url} key=\${env:TS_KEY} name=ts`],
    env: { TS_KEY },
    viewport: { width: 1400, height: 1000 }
  }));
  await connection().waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await server?.close();
});

function connection(): Locator {
  return page
    .getByRole('tree', { name: 'searchbook connections' })
    .locator('[role="treeitem"][aria-level="1"][aria-label^="ts · "]');
}

/** A resource section (a `details`) by its heading, opened. */
async function opened(within: Locator, title: string): Promise<Locator> {
  const section = within
    .locator('details.searchbook-Resources', {
      has: page.locator(`> summary:text-is("${title}")`)
    })
    .first();
  await section.waitFor({ timeout: 20_000 });
  if (!(await section.evaluate(node => (node as HTMLDetailsElement).open))) {
    await section.locator('> summary').click();
  }
  return section;
}

const dialog = () => page.locator('.jp-Dialog');

describe('presets and stopwords', () => {
  it('adds, edits and deletes a preset, each request shown before it is sent', async () => {
    const presets = await opened(connection(), 'Presets');
    const put = await review(
      page,
      presets.getByRole('button', { name: 'Add to Presets' }),
      '{"value": {"query_by": "name", "sort_by": "price:asc"}}',
      'cheap_first'
    );
    expect(put).toBe(
      'PUT /presets/cheap_first\n{\n  "value": {\n    "query_by": "name",\n    "sort_by": "price:asc"\n  }\n}'
    );
    expect((await call('GET', '/presets/cheap_first')).status).toBe(404);
    await send(page);
    await presets.getByRole('listitem', { name: 'cheap_first' }).waitFor();
    await expect(call('GET', '/presets/cheap_first')).resolves.toMatchObject({
      json: { value: { sort_by: 'price:asc' } }
    });

    const edit = await review(
      page,
      presets.getByRole('button', { name: 'Edit cheap_first' }),
      '{"value": {"query_by": "name", "sort_by": "price:desc"}}'
    );
    expect(edit.split('\n')[0]).toBe('PUT /presets/cheap_first');
    await send(page);
    await presets
      .getByRole('listitem', { name: 'cheap_first' })
      .filter({ hasText: 'price:desc' })
      .waitFor();
    await expect(call('GET', '/presets/cheap_first')).resolves.toMatchObject({
      json: { value: { sort_by: 'price:desc' } }
    });

    expect(await remove(page, presets, 'cheap_first')).toBe(
      'DELETE /presets/cheap_first'
    );
    expect((await call('GET', '/presets/cheap_first')).status).toBe(404);
  });

  it('a search through a preset that leaves a field out shows no column for it in the cell’s grid', async () => {
    const presets = await opened(connection(), 'Presets');
    await review(
      page,
      presets.getByRole('button', { name: 'Add to Presets' }),
      '{"value": {"exclude_fields": "price"}}',
      'no_price'
    );
    await send(page);
    await presets.getByRole('listitem', { name: 'no_price' }).waitFor();
    await page.getByRole('tab', { name: /^sets\.ipynb/ }).click();
    await runCommand(page, 'notebook:insert-cell-below');
    await runCommand(page, 'notebook:enter-edit-mode');
    await page.keyboard.type(
      'GET /collections/wear/documents/search?q=*&preset=no_price'
    );
    await runCommand(page, 'notebook:run-cell');
    const grid = cellOutput(page, 1).locator('.searchbook-Grid');
    await grid.waitFor({ timeout: 30_000 });
    const columns = JSON.parse(
      (await grid.getAttribute('data-columns')) ?? '[]'
    ) as string[];
    expect(columns).toContain('name');
    expect(columns).not.toContain('price');
    await expect(grid.getAttribute('aria-rowcount')).resolves.toBe('4');
    await remove(page, presets, 'no_price');
  });

  it('adds, edits and deletes a stopword set, refusing an empty list with what to write', async () => {
    const stopwords = await opened(connection(), 'Stopwords');
    await stopwords.getByRole('button', { name: 'Add to Stopwords' }).click();
    await dialog().getByLabel('Name', { exact: true }).fill('common');
    await dialog()
      .getByLabel('JSON', { exact: true })
      .fill('{"stopwords": [], "locale": "en"}');
    await dialog().getByRole('button', { name: 'Review' }).click();
    const alert = dialog()
      .getByRole('alert')
      .filter({ hasText: 'write at least one stopword' });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toMatch(
      /^"stopwords": write at least one stopword.*Nothing was sent\.$/
    );
    await expect(
      dialog().getByLabel('JSON', { exact: true }).inputValue()
    ).resolves.toBe('{"stopwords": [], "locale": "en"}');
    expect((await call('GET', '/stopwords/common')).status).toBe(404);
    await dialog()
      .getByLabel('JSON', { exact: true })
      .fill('{"stopwords": ["the", "a"], "locale": "en"}');
    await dialog().getByRole('button', { name: 'Review' }).click();
    await expect(
      dialog().getByLabel('Request to send').textContent()
    ).resolves.toMatch(/^PUT \/stopwords\/common\n/);
    await send(page);
    await stopwords.getByRole('listitem', { name: 'common' }).waitFor();
    const added = await call('GET', '/stopwords/common');
    expect(added.status).toBe(200);
    expect(JSON.stringify(added.json)).toContain('"the"');

    await review(
      page,
      stopwords.getByRole('button', { name: 'Edit common' }),
      '{"stopwords": ["the", "a", "an"], "locale": "en"}'
    );
    await send(page);
    await stopwords
      .getByRole('listitem', { name: 'common' })
      .filter({ hasText: '"an"' })
      .waitFor();
    // Read back in whichever shape the server answers, the set now holds "an".
    expect(
      JSON.stringify((await call('GET', '/stopwords/common')).json)
    ).toContain('"an"');

    expect(await remove(page, stopwords, 'common')).toBe(
      'DELETE /stopwords/common'
    );
    expect((await call('GET', '/stopwords/common')).status).toBe(404);
  });
});

describe('synonym sets', () => {
  it('adds a set, shows the collections that use it, and adds, edits and deletes its items', async () => {
    const sets = await opened(connection(), 'Synonym sets');
    const put = await review(
      page,
      sets.getByRole('button', { name: 'Add to Synonym sets' }),
      '{"items": []}',
      'clothing'
    );
    expect(put).toBe('PUT /synonym_sets/clothing\n{\n  "items": []\n}');
    await send(page);
    const set = sets.getByRole('listitem', { name: 'clothing', exact: true });
    await expect(
      set.locator('.searchbook-Resource-title').textContent()
    ).resolves.toBe('clothing · used by no collection');
    // A collection names the set in its schema (a change made in a cell).
    await call('PATCH', '/collections/wear', { synonym_sets: ['clothing'] });
    await sets.getByRole('button', { name: 'Refresh Synonym sets' }).click();
    await set
      .locator('.searchbook-Resource-title')
      .filter({ hasText: 'clothing · used by wear' })
      .waitFor();

    // The collection's schema names the set too.
    await panelTreeItem(page, 'wear').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Schema…' }).click();
    await expect(
      dialog().locator('.searchbook-Schema-facts').textContent()
    ).resolves.toMatch(/synonym sets clothing · curation sets \(none\)$/);
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });

    const items = await opened(set, 'Synonyms in clothing');
    await items.getByRole('status').filter({ hasText: 'None yet.' }).waitFor();
    // A mistyped item is refused, naming the key and what to write; the text stays.
    await items
      .getByRole('button', { name: 'Add to Synonyms in clothing' })
      .click();
    await dialog().getByLabel('Name', { exact: true }).fill('knit');
    await dialog()
      .getByLabel('JSON', { exact: true })
      .fill('{"synonyms": "sweater, jacket"}');
    await dialog().getByRole('button', { name: 'Review' }).click();
    await dialog()
      .getByRole('alert')
      .filter({ hasText: '"synonyms": write a list of words' })
      .waitFor();
    await screenshot(page, 'typesense-synonym-item-refused');
    await dialog()
      .getByLabel('JSON', { exact: true })
      .fill('{"synonyms": ["sweater", "jacket"]}');
    await dialog().getByRole('button', { name: 'Review' }).click();
    await expect(
      dialog().getByLabel('Request to send').textContent()
    ).resolves.toBe(
      'PUT /synonym_sets/clothing/items/knit\n{\n  "synonyms": [\n    "sweater",\n    "jacket"\n  ]\n}'
    );
    expect(
      (await call('GET', '/synonym_sets/clothing/items/knit')).status
    ).toBe(404);
    await send(page);
    await items.getByRole('listitem', { name: 'knit' }).waitFor();
    await expect(
      call('GET', '/synonym_sets/clothing/items/knit')
    ).resolves.toMatchObject({
      status: 200,
      json: { id: 'knit', synonyms: ['sweater', 'jacket'] }
    });
    // The set works in a search of the collection that names it.
    expect((await searchIds('sweater')).sort()).toEqual(['1', '3', '4']);
    await screenshot(page, 'typesense-synonym-set-items');

    const edit = await review(
      page,
      items.getByRole('button', { name: 'Edit knit' }),
      '{"root": "sweater", "synonyms": ["cardigan"]}'
    );
    expect(edit.split('\n')[0]).toBe('PUT /synonym_sets/clothing/items/knit');
    await send(page);
    await items
      .getByRole('listitem', { name: 'knit' })
      .filter({ hasText: 'cardigan' })
      .waitFor();
    await expect(
      call('GET', '/synonym_sets/clothing/items/knit')
    ).resolves.toMatchObject({
      json: { root: 'sweater', synonyms: ['cardigan'] }
    });
    expect(await searchIds('sweater')).toEqual(['1']);

    expect(await remove(page, items, 'knit')).toBe(
      'DELETE /synonym_sets/clothing/items/knit'
    );
    expect(
      (await call('GET', '/synonym_sets/clothing/items/knit')).status
    ).toBe(404);
    await expect(
      call('GET', '/synonym_sets/clothing/items')
    ).resolves.toMatchObject({ json: [] });

    await call('PATCH', '/collections/wear', { synonym_sets: [] });
    expect(await remove(page, sets, 'clothing')).toBe(
      'DELETE /synonym_sets/clothing'
    );
    expect((await call('GET', '/synonym_sets/clothing')).status).toBe(404);
  });
});

describe('curation sets', () => {
  it('adds a set and adds, edits and deletes its rules, the rule taking effect in a search', async () => {
    await call('PUT', '/curation_sets/promos', { items: [] });
    await call('PATCH', '/collections/wear', { curation_sets: ['promos'] });
    const sets = await opened(connection(), 'Curation sets');
    await sets.getByRole('button', { name: 'Refresh Curation sets' }).click();
    const set = sets.getByRole('listitem', { name: 'promos', exact: true });
    await set
      .locator('.searchbook-Resource-title')
      .filter({ hasText: 'promos · used by wear' })
      .waitFor();
    const rules = await opened(set, 'Curation rules in promos');
    expect(await searchIds('jacket')).toEqual(
      expect.arrayContaining(['3', '4'])
    );

    await rules
      .getByRole('button', { name: 'Add to Curation rules in promos' })
      .click();
    await dialog().getByLabel('Name', { exact: true }).fill('pin-sweater');
    await dialog()
      .getByLabel('JSON', { exact: true })
      .fill(
        '{"rule": {"query": "jacket", "match": "exact"}, "includes": [{"id": "1", "position": 0}]}'
      );
    await dialog().getByRole('button', { name: 'Review' }).click();
    await dialog()
      .getByRole('alert')
      .filter({ hasText: '"includes[0].position": positions start at 1' })
      .waitFor();
    await dialog()
      .getByLabel('JSON', { exact: true })
      .fill(
        '{"rule": {"query": "jacket", "match": "exact"}, "includes": [{"id": "1", "position": 1}]}'
      );
    await dialog().getByRole('button', { name: 'Review' }).click();
    await expect(
      dialog().getByLabel('Request to send').textContent()
    ).resolves.toMatch(
      /^PUT \/curation_sets\/promos\/items\/pin-sweater\n\{\n {2}"rule": \{/
    );
    expect(await searchIds('jacket')).not.toContain('1');
    await send(page);
    await rules.getByRole('listitem', { name: 'pin-sweater' }).waitFor();
    await expect(
      call('GET', '/curation_sets/promos/items/pin-sweater')
    ).resolves.toMatchObject({
      status: 200,
      json: { includes: [{ id: '1', position: 1 }] }
    });
    expect((await searchIds('jacket'))[0]).toBe('1');

    await review(
      page,
      rules.getByRole('button', { name: 'Edit pin-sweater' }),
      '{"rule": {"query": "jacket", "match": "exact"}, "excludes": [{"id": "3"}]}'
    );
    await send(page);
    // The list shows each rule as the server holds it, an empty `excludes` too: wait for this one.
    await rules
      .getByRole('listitem', { name: 'pin-sweater' })
      .filter({ hasText: '"excludes":[{"id":"3"}]' })
      .waitFor();
    expect(await searchIds('jacket')).toEqual(['4']);

    expect(await remove(page, rules, 'pin-sweater')).toBe(
      'DELETE /curation_sets/promos/items/pin-sweater'
    );
    expect(
      (await call('GET', '/curation_sets/promos/items/pin-sweater')).status
    ).toBe(404);
    expect((await searchIds('jacket')).sort()).toEqual(['3', '4']);
  });
});

describe('what the panel shows is what the server holds', () => {
  const json = () => dialog().getByLabel('JSON', { exact: true });

  it('a set’s Edit… starts from the items as the server holds them after item edits and deletes, and Send keeps them', async () => {
    await call('PUT', '/synonym_sets/clothing', {
      items: [
        { id: 'sn', synonyms: ['sneakers', 'trainers'] },
        { id: 'mug', synonyms: ['mug', 'cup'] }
      ]
    });
    const sets = await opened(connection(), 'Synonym sets');
    await sets.getByRole('button', { name: 'Refresh Synonym sets' }).click();
    const set = sets.getByRole('listitem', { name: 'clothing', exact: true });
    const items = await opened(set, 'Synonyms in clothing');
    await items.getByRole('listitem', { name: 'mug' }).waitFor();
    await review(
      page,
      items.getByRole('button', { name: 'Edit sn' }),
      '{"synonyms": ["sneakers", "trainers", "kicks"]}'
    );
    await send(page);
    await items
      .getByRole('listitem', { name: 'sn' })
      .filter({ hasText: 'kicks' })
      .waitFor();
    await remove(page, items, 'mug');

    await set
      .getByRole('button', { name: 'Edit clothing', exact: true })
      .click();
    await json().waitFor();
    const shown = await json().inputValue();
    expect(shown).toContain('"kicks"');
    expect(shown).not.toContain('"mug"');
    await dialog().getByRole('button', { name: 'Review' }).click();
    await send(page);
    await items.getByRole('status').filter({ hasText: '1 entry' }).waitFor();
    await expect(call('GET', '/synonym_sets/clothing')).resolves.toMatchObject({
      json: {
        items: [{ id: 'sn', synonyms: ['sneakers', 'trainers', 'kicks'] }]
      }
    });
  });

  it('a set’s form sends nothing when the set changed since it opened: it shows the conflict and what the server holds, keeping the text', async () => {
    const sets = await opened(connection(), 'Synonym sets');
    const set = sets.getByRole('listitem', { name: 'clothing', exact: true });
    await set
      .getByRole('button', { name: 'Edit clothing', exact: true })
      .click();
    await json().waitFor();
    // Another tab or a cell adds an item while the form is open.
    await call('PUT', '/synonym_sets/clothing/items/hat', {
      synonyms: ['hat', 'cap']
    });
    const typed =
      '{"items": [{"id": "sn", "synonyms": ["sneakers", "kicks"]}]}';
    await json().fill(typed);
    await dialog().getByRole('button', { name: 'Review' }).click();
    await dialog().getByLabel('Request to send').waitFor();
    await dialog().getByRole('button', { name: 'Send' }).click();
    const conflict = dialog()
      .getByRole('alert')
      .filter({ hasText: 'Conflict' });
    await conflict.waitFor();
    await expect(conflict.textContent()).resolves.toMatch(
      /^Conflict: "clothing" changed on the server since this form read it .*Nothing was sent\. The server now holds:\n[^]*"hat"[^]*Review again to send it over what the server holds, or Cancel\.$/
    );
    await screenshot(page, 'typesense-set-conflict');
    await expect(json().inputValue()).resolves.toBe(typed);
    const held = await call('GET', '/synonym_sets/clothing');
    expect(
      (held.json as { items: { id: string }[] }).items.map(i => i.id).sort()
    ).toEqual(['hat', 'sn']);
    // Seen the conflict, the user sends the text over it knowingly.
    await dialog().getByRole('button', { name: 'Review' }).click();
    await send(page);
    const items = await opened(set, 'Synonyms in clothing');
    await items.getByRole('status').filter({ hasText: '1 entry' }).waitFor();
    await expect(call('GET', '/synonym_sets/clothing')).resolves.toMatchObject({
      json: { items: [{ id: 'sn', synonyms: ['sneakers', 'kicks'] }] }
    });
    await remove(page, sets, 'clothing');
  });

  it('an entry without a name is refused in the form, saying what to write, with nothing sent', async () => {
    const aliases = await opened(connection(), 'Aliases');
    await aliases.getByRole('button', { name: 'Add to Aliases' }).click();
    await json().fill('{"collection_name": "wear"}');
    await dialog().getByRole('button', { name: 'Review' }).click();
    const alert = dialog()
      .getByRole('alert')
      .filter({ hasText: 'Give the entry a name' });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toBe(
      'Give the entry a name (letters, digits, - and _). Nothing was sent.'
    );
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    await expect(call('GET', '/aliases')).resolves.toMatchObject({
      json: { aliases: [] }
    });
  });

  it('lists the sets again after a cell changed which collections use them, without Refresh', async () => {
    await call('PUT', '/curation_sets/promo', { items: [] });
    const sets = await opened(connection(), 'Curation sets');
    await sets.getByRole('button', { name: 'Refresh Curation sets' }).click();
    const title = sets
      .getByRole('listitem', { name: 'promo', exact: true })
      .locator('> .searchbook-Resource-title');
    await title.filter({ hasText: 'promo · used by no collection' }).waitFor();
    await expect(
      runInNotebookKernel(
        page,
        'PATCH /collections/wear\n{"curation_sets": ["promo"]}'
      )
    ).resolves.toBe('ok');
    await title
      .filter({ hasText: 'promo · used by wear' })
      .waitFor({ timeout: 15_000 });
  });

  it('Use in…, by keyboard, adds a set to a collection’s sets after showing the PATCH, keeping the sets it had, and ends on its button', async () => {
    await call('PUT', '/curation_sets/extra', { items: [] });
    await call('PATCH', '/collections/wear', { curation_sets: ['promo'] });
    const sets = await opened(connection(), 'Curation sets');
    await sets.getByRole('button', { name: 'Refresh Curation sets' }).click();
    const entry = sets.getByRole('listitem', { name: 'extra', exact: true });
    // By keyboard alone: Enter on Use in…, the name typed, Enter to review, Enter to send.
    await entry
      .getByRole('button', { name: 'Use extra in a collection' })
      .focus();
    await page.keyboard.press('Enter');
    await dialog().waitFor();
    await expect(axeFindings(page, ['.jp-Dialog'])).resolves.toEqual([]);
    await expect(focusLandsOn(page, 'input[')).resolves.toBe('input[');
    await page.keyboard.type('wear');
    await page.keyboard.press('Enter');
    const request = dialog().getByLabel('Request to send');
    await request.waitFor();
    await expect(request.textContent()).resolves.toBe(
      'PATCH /collections/wear\n{\n  "curation_sets": [\n    "promo",\n    "extra"\n  ]\n}'
    );
    await expect(axeFindings(page, ['.jp-Dialog'])).resolves.toEqual([]);
    await expect(focusLandsOn(page, 'button[] Send')).resolves.toBe(
      'button[] Send'
    );
    await page.keyboard.press('Enter');
    await dialog().waitFor({ state: 'detached' });
    await entry
      .locator('> .searchbook-Resource-title')
      .filter({ hasText: 'extra · used by wear' })
      .waitFor();
    // The list read again redraws the entry: the keyboard is on its Use in… again.
    await expect(
      focusLandsOn(page, 'button[] Use extra in a collection')
    ).resolves.toBe('button[] Use extra in a collection');
    await expect(call('GET', '/collections/wear')).resolves.toMatchObject({
      json: { curation_sets: ['promo', 'extra'] }
    });
    await call('PATCH', '/collections/wear', { curation_sets: ['promo'] });
  });

  it('Delete… of a set reads who uses it from the server first and warns, naming them', async () => {
    await call('PUT', '/curation_sets/promo2', { items: [] });
    const sets = await opened(connection(), 'Curation sets');
    await sets.getByRole('button', { name: 'Refresh Curation sets' }).click();
    const entry = sets.getByRole('listitem', { name: 'promo2', exact: true });
    await entry
      .locator('> .searchbook-Resource-title')
      .filter({ hasText: 'promo2 · used by no collection' })
      .waitFor();
    // Changed outside the panel and any cell: the list still says no collection uses it.
    await call('PATCH', '/collections/wear', {
      curation_sets: ['promo', 'promo2']
    });
    await entry.getByRole('button', { name: 'Delete promo2' }).click();
    await dialog().getByLabel('Request to send').waitFor();
    await expect(dialog().getByRole('alert').textContent()).resolves.toBe(
      'wear names promo2: deleting it leaves that collection naming a set that no longer exists. Remove promo2 from it first, or send anyway.'
    );
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    expect((await call('GET', '/curation_sets/promo2')).status).toBe(200);
    await call('PATCH', '/collections/wear', { curation_sets: ['promos'] });
  });
});

describe('the collection and its alias', () => {
  it('offers no per-collection synonyms and overrides on 30: the menu item is disabled, saying the sets replaced them', async () => {
    await panelTreeItem(page, 'wear').click({ button: 'right' });
    const item = page.getByRole('menuitem', {
      name: /^Synonyms and overrides \(curation\)…/
    });
    await item.waitFor();
    await expect(item.getAttribute('aria-disabled')).resolves.toBe('true');
    await expect(item.textContent()).resolves.toMatch(
      /…\s*\(in synonym and curation sets from Typesense 30 on\)$/
    );
    await screenshot(page, 'typesense-30-collection-menu');
    await page.keyboard.press('Escape');
    await item.waitFor({ state: 'detached' });
  });

  it('opens the collection’s grid on a double-click of an alias', async () => {
    await call('PUT', '/aliases/wear_live', { collection_name: 'wear' });
    const aliases = await opened(connection(), 'Aliases');
    await aliases.getByRole('button', { name: 'Refresh Aliases' }).click();
    const alias = aliases.getByRole('listitem', { name: 'wear_live' });
    await alias.getByRole('button', { name: 'Open wear_live' }).waitFor();
    await alias.locator('.searchbook-Resource-title').dblclick();
    const grid = page.getByRole('grid', { name: 'wear · ts' });
    await grid.waitFor({ timeout: 30_000 });
    await expect(grid.getAttribute('aria-rowcount')).resolves.toBe('4');
  });
});

describe('the connection choice', () => {
  it('shows a connection’s automatic name whole in the Open… box', async () => {
    await expect(
      runInNotebookKernel(
        page,
        `%connect typesense ${server.url} key=\${env:TS_KEY}`
      )
    ).resolves.toBe('ok');
    const choice = page.getByRole('combobox', {
      name: 'Connection to open a name on'
    });
    const auto = choice.locator('option', { hasText: /^ts-127\.0\.0\.1-\d+$/ });
    await auto.waitFor({ state: 'attached', timeout: 15_000 });
    await choice.selectOption((await auto.textContent()) ?? '');
    // A sidebar dragged wider, so the choice and the name share a line.
    await page
      .locator('.searchbook-Sidebar-open')
      .evaluate((node: HTMLElement) => (node.style.width = '380px'));
    // The text the select shows, measured in its own font, fits inside it beside its arrow.
    const room = await choice.evaluate((node: HTMLSelectElement) => {
      const style = getComputedStyle(node);
      const context = document.createElement('canvas').getContext('2d');
      if (!context) {
        throw new Error('no canvas');
      }
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = node.selectedOptions[0]?.textContent ?? '';
      return {
        text: context.measureText(text).width,
        inner:
          node.clientWidth -
          Number.parseFloat(style.paddingLeft) -
          Number.parseFloat(style.paddingRight)
      };
    });
    expect(room.text).toBeLessThanOrEqual(room.inner);
  });
});
