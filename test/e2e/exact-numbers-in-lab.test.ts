/**
 * Whole numbers past 2^53 in a real JupyterLab (from .venv) in Debian's Chromium, against the
 * Elasticsearch sandbox: the panel's grid, the value view (Alt-Enter), the document view, Edit
 * as JSON and Duplicate row show and store 9007199254740993 exactly (a double would hold
 * 9007199254740992), typing 9007199254740995 into a cell shows …995 after Save, and the
 * notebook's output of GET /<index>/_doc/<id> shows every digit. Every write is checked in the
 * engine's own answer text.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { openPanelLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import {
  cellPoint,
  cellText,
  editBar,
  gridOf,
  gridTab,
  openGrid,
  rowHeader,
  rowOf,
  saveEdits,
  typeInto
} from './support/grid-page';

jest.setTimeout(240_000);

const BIG = '9007199254740993';
const ROUNDED = '9007199254740992';
const TYPED = '9007199254740995';
const MAPPING = {
  properties: {
    name: { type: 'keyword' },
    n: { type: 'long' },
    list: { type: 'long' }
  }
};

let server: ListeningServer;
let esUrl = '';
let lab: RunningLab;
let browser: Browser;
let page: Page;

/** The engine's answer for a document, as the text it sent (JSON.parse would round it). */
async function storedText(id: string): Promise<string> {
  const response = await fetch(`${esUrl}/big/_doc/${id}`);
  return response.text();
}

async function put(path: string, body: string): Promise<void> {
  const response = await fetch(`${esUrl}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body
  });
  expect(response.status).toBeLessThan(300);
}

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  server = await listen(es.handler, { port: 0 });
  esUrl = server.url;
  await put('/big', JSON.stringify({ mappings: MAPPING }));
  await put(
    '/big/_doc/b1?refresh=true',
    `{"name": "one", "n": ${BIG}, "list": [${BIG}, 1]}`
  );
  await put(
    '/big/_doc/b2?refresh=true',
    `{"name": "two", "n": 2, "list": [2]}`
  );
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-exact-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'exact.ipynb',
    cells: [`%connect elasticsearch ${esUrl} name=es`, 'GET /big/_doc/b1'],
    beforeOpen: opened => opened.setDefaultTimeout(30_000)
  }));
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await server?.close();
});

const dialog = () => page.getByRole('dialog');

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

it('the console output of GET /big/_doc/b1 shows every digit', async () => {
  const output = page.locator('.searchbook-JsonOutput').first();
  await output.waitFor();
  const text = (await output.textContent()) ?? '';
  expect(text).toContain(`"n": ${BIG}`);
  expect(text).not.toContain(ROUNDED);
});

describe('the panel grid of an index holding a long past 2^53', () => {
  let label = '';

  it('the grid and the value view show 9007199254740993', async () => {
    label = await openGrid(page, 'es', 'big');
    const row = await rowOf(page, label, 'b1');
    await expect(cellText(page, label, row, 'n')).resolves.toBe(BIG);
    await expect(cellText(page, label, row, 'list')).resolves.toBe(
      `[${BIG},1]`
    );
    const point = await cellPoint(page, label, row, 'n');
    await page.mouse.click(point.x, point.y);
    await page.keyboard.press('Alt+Enter');
    const view = gridTab(page, label).locator('.searchbook-ValueView');
    await view.waitFor();
    await expect(
      view.locator('.searchbook-ValueView-body').textContent()
    ).resolves.toBe(BIG);
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'hidden' });
  });

  it('View document shows it, and Edit as JSON keeps it when another field is saved', async () => {
    await cellMenu(
      label,
      await rowOf(page, label, 'b1'),
      'name',
      'View document'
    );
    await dialog().waitFor();
    const json = dialog().getByRole('document', { name: 'Document (JSON)' });
    await expect(json.textContent()).resolves.toContain(`"n": ${BIG}`);
    await expect(json.textContent()).resolves.not.toContain(ROUNDED);
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });

    await cellMenu(
      label,
      await rowOf(page, label, 'b1'),
      'name',
      'Edit document as JSON…'
    );
    const area = dialog().getByRole('textbox', { name: 'Document (JSON)' });
    await area.waitFor();
    const text = await area.inputValue();
    expect(text).toContain(`"n": ${BIG}`);
    expect(text).not.toContain(ROUNDED);
    await area.fill(text.replace('"one"', '"uno"'));
    await area.press('Control+Enter');
    await dialog().waitFor({ state: 'detached' });
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    const stored = await storedText('b1');
    expect(stored).toContain('"uno"');
    expect(stored).toContain(`"n":${BIG}`);
    expect(stored).toContain(`[${BIG},1]`);
  });

  it('Duplicate row stores the copy with every digit', async () => {
    await cellMenu(
      label,
      await rowOf(page, label, 'b1'),
      'name',
      'Duplicate row'
    );
    for (
      let i = 0;
      i < 100 && (await rowHeader(page, label, 0)) !== 'new';
      i++
    ) {
      await new Promise(r => setTimeout(r, 100));
    }
    await expect(cellText(page, label, 0, 'n')).resolves.toBe(BIG);
    const point = await cellPoint(page, label, 0, '_id');
    await page.mouse.dblclick(point.x, point.y);
    const input = gridOf(page, label).locator('.lm-DataGrid-cellEditorWidget');
    await input.waitFor();
    await input.fill('b1-copy');
    await input.press('Enter');
    await input.waitFor({ state: 'detached' });
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    const stored = await storedText('b1-copy');
    expect(stored).toContain(`"n":${BIG}`);
    expect(stored).toContain(`[${BIG},1]`);
    expect(stored).not.toContain(ROUNDED);
  });

  it('typing 9007199254740995 into a cell stores it and shows …995 after Save', async () => {
    await typeInto(page, label, { id: 'b2' }, 'n', TYPED);
    await expect(saveEdits(page, label)).resolves.toBe('Saved 1 change.');
    await expect(storedText('b2')).resolves.toContain(`"n":${TYPED}`);
    await expect(
      cellText(page, label, await rowOf(page, label, 'b2'), 'n')
    ).resolves.toBe(TYPED);
    await gridTab(page, label).getByRole('button', { name: 'Refresh' }).click();
    for (
      let i = 0;
      i < 100 &&
      (await cellText(page, label, await rowOf(page, label, 'b2'), 'n').catch(
        () => ''
      )) !== TYPED;
      i++
    ) {
      await new Promise(r => setTimeout(r, 100));
    }
    await expect(
      cellText(page, label, await rowOf(page, label, 'b2'), 'n')
    ).resolves.toBe(TYPED);
    // The editing bar is there for the next edit: nothing pending.
    await expect(
      editBar(page, label).getByRole('button', { name: 'Save' }).isDisabled()
    ).resolves.toBe(true);
  });
});
