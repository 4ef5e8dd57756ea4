/**
 * "Export…" in the searchbook side panel, in a real JupyterLab (from .venv) in Debian's
 * Chromium, against the sandbox engine: from an index's context menu in the tree,
 * then from a grid tab under a filter, each through the dialog (file, format, fields) with the
 * progress and the final line in the panel, and the files' contents checked on disk next to
 * the notebook; and Cancel on a running export, pressed from the keyboard.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { parseCsv, partialsOf } from '../export/export-helpers';
import { openPanelLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { screenshot } from './support/notebook-page';
import { focusedIn } from './support/focus';

jest.setTimeout(180_000);

const DOCS = 3_000;
const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const docs = Array.from({ length: DOCS }, (_, n) => ({
  id: `d${n}`,
  source: {
    n,
    label: n === 7 ? HOSTILE : `row ${n}`,
    colour: ['red', 'green', 'blue'][n % 3] as string
  }
}));

let servers: ListeningServer[] = [];
let lab: RunningLab;
let browser: Browser;
let page: Page;
let root = '';
/** While set, every page of a search waits a second before the engine reads it: an export slow enough to cancel. */
let slowPages = false;

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  // A window smaller than the index: the export pages past it under a point in time.
  es.loadIndex(
    'items',
    {
      properties: {
        n: { type: 'long' },
        label: { type: 'keyword' },
        colour: { type: 'keyword' }
      }
    },
    docs,
    { max_result_window: '1000' }
  );
  const handler: RequestListener = (req, res) => {
    if (slowPages && req.url?.startsWith('/_search')) {
      setTimeout(() => es.handler(req, res), 1_000);
    } else {
      es.handler(req, res);
    }
  };
  servers = [await listen(handler, { port: 0 })];
  root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-export-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'export.ipynb',
    cells: [`%connect elasticsearch ${servers[0]?.url} name=es`]
  }));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
});

const treeItem = (name: string): Locator =>
  page
    .getByRole('tree', { name: 'searchbook connections' })
    .locator(`[role="treeitem"][aria-level="2"][aria-label^="${name} · "]`);
const exportLine = (target: string, file: string) =>
  page
    .getByRole('region', { name: 'Exports' })
    .getByRole('status', { name: `Export of ${target} to ${file}` });

/** Fills the export dialog and starts the export. */
async function exportThroughDialog(choice: {
  file: string;
  format: string;
  fields?: string;
}): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog
    .getByRole('combobox', { name: 'Format' })
    .selectOption(choice.format);
  await dialog.getByRole('textbox', { name: 'File' }).fill(choice.file);
  if (choice.fields) {
    await dialog.getByRole('textbox', { name: 'Fields' }).fill(choice.fields);
  }
  await dialog.getByRole('button', { name: 'Export' }).click();
}

it('Export… on an index in the tree writes every document next to the notebook, with the final line in the panel', async () => {
  await treeItem('items').waitFor({ timeout: 30_000 });
  await treeItem('items').click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Export…' }).click();
  // The default file name follows the format.
  const dialog = page.getByRole('dialog');
  await expect(
    dialog.getByRole('textbox', { name: 'File' }).inputValue()
  ).resolves.toBe('items.jsonl');
  await dialog.getByRole('combobox', { name: 'Format' }).selectOption('csv');
  await expect(
    dialog.getByRole('textbox', { name: 'File' }).inputValue()
  ).resolves.toBe('items.csv');
  await exportThroughDialog({ file: 'items.jsonl', format: 'jsonl' });
  const line = exportLine('items', 'items.jsonl');
  await line
    .filter({ hasText: /^Exported 3,000 documents of items/ })
    .waitFor({ timeout: 60_000 });
  await expect(line.textContent()).resolves.toMatch(
    /^Exported 3,000 documents of items \([\d,]+ bytes, [\d.]+ KB\) to items\.jsonl in [\d.]+ s \([\d,]+ docs\/s\)\.$/
  );
  await expect(
    line.getByRole('button', { name: 'Cancel' }).count()
  ).resolves.toBe(0);
  const written = (await readFile(join(root, 'items.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean);
  expect(written.sort()).toEqual(
    docs
      .map(d =>
        JSON.stringify({ _index: 'items', _id: d.id, _source: d.source })
      )
      .sort()
  );
  await screenshot(page, 'export-tree');
});

it('Export… on a grid tab writes what the grid shows under its filter, in the format and fields chosen', async () => {
  await treeItem('items').dblclick();
  const grid = page.getByRole('grid', { name: 'items · es' });
  await grid.waitFor({ timeout: 30_000 });
  const tab = grid.locator(
    'xpath=ancestor::*[contains(@class,"searchbook-DocumentGrid")][1]'
  );
  const bar = tab.getByRole('search', { name: 'Filter documents' });
  await bar.getByRole('button', { name: 'Add filter' }).click();
  const row = bar.getByRole('group', { name: 'Filter row 1' });
  await row.getByRole('combobox', { name: 'Column' }).selectOption('colour');
  await row.getByRole('combobox', { name: 'Operator' }).selectOption('equals');
  await row.getByRole('textbox', { name: 'Value' }).fill('red');
  await bar.getByRole('button', { name: 'Apply' }).click();
  await page.waitForFunction(
    () =>
      document
        .querySelector('[role="grid"][aria-label="items · es"]')
        ?.getAttribute('aria-rowcount') === '1000',
    undefined,
    { timeout: 30_000 }
  );
  await grid.click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Export…' }).click();
  await expect(page.getByRole('dialog').textContent()).resolves.toContain(
    'under its current filter'
  );
  await exportThroughDialog({
    file: 'red.csv',
    format: 'csv',
    fields: 'label, n'
  });
  await exportLine('items', 'red.csv')
    .filter({ hasText: /^Exported 1,000 documents of items/ })
    .waitFor({ timeout: 60_000 });
  const [header, ...rows] = parseCsv(
    await readFile(join(root, 'red.csv'), 'utf8')
  );
  expect(header).toEqual(['_id', '_index', 'label', 'n']);
  const red = docs.filter(d => d.source.colour === 'red');
  expect(rows.map(r => r.join('|')).sort()).toEqual(
    red
      .map(d => [d.id, 'items', d.source.label, String(d.source.n)].join('|'))
      .sort()
  );
  // The hostile label is data in the file and text on the page, never markup.
  expect(
    await page.evaluate(() => (window as { __pwned?: number }).__pwned)
  ).toBeUndefined();
  await screenshot(page, 'export-grid');
});

it('Cancel, pressed on a running export, stops it and leaves the keyboard on the panel’s tree: the panel says how far it got, and only the .partial file is left', async () => {
  slowPages = true;
  try {
    await treeItem('items').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Export…' }).click();
    await exportThroughDialog({ file: 'stopped.jsonl', format: 'jsonl' });
    const line = exportLine('items', 'stopped.jsonl');
    // Cancelled once some documents are in: the line then says how many.
    await line
      .filter({
        hasText:
          /^Exporting items to stopped\.jsonl: [1-9][\d,]* of 3,000 documents/
      })
      .waitFor({ timeout: 30_000 });
    await line.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    const stopped = line.filter({
      hasText: /^The export of items was interrupted/
    });
    await stopped.waitFor({ timeout: 30_000 });
    // Cancel goes with the export it stopped: the keyboard is on the panel's tree item.
    await expect(focusedIn(page)).resolves.toMatch(/^li\[treeitem\] /);
    await expect(stopped.textContent()).resolves.toMatch(
      /^The export of items was interrupted after [1-9][\d,]* of 3,000 documents .*: stopped\.jsonl was not written; the documents read so far are in stopped\.jsonl\.searchbook-[0-9a-f]{8}\.partial\.$/
    );
    await expect(
      line.getByRole('button', { name: 'Cancel' }).count()
    ).resolves.toBe(0);
    expect(existsSync(join(root, 'stopped.jsonl'))).toBe(false);
    const named =
      /in (stopped\.jsonl\.searchbook-[0-9a-f]{8}\.partial)\.$/.exec(
        (await stopped.textContent()) ?? ''
      )?.[1] as string;
    expect(partialsOf(root, 'stopped.jsonl')).toEqual([join(root, named)]);
    const partial = (await readFile(join(root, named), 'utf8'))
      .split('\n')
      .filter(Boolean);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(DOCS);
    await screenshot(page, 'export-cancelled');
  } finally {
    slowPages = false;
  }
});
