/**
 * "Copy as Python" in a real JupyterLab (from .venv) in Chromium, against the sandbox engine:
 * from a cell's context menu and from a document grid's toolbar, the clipboard gets code for
 * the engine's official client that reads the password from the environment variable the
 * connection named, and a notification says what was copied; a cell without a request says so.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { REPO } from '../support/kernel-client';
import { openPanelLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { toolbarAction } from './support/grid-page';

jest.setTimeout(180_000);

const run = promisify(execFile);
const PASSWORD = 'e2e-python-secret';
const PYTHON = join(REPO, '.venv', 'bin', 'python');

let server: ListeningServer;
let lab: RunningLab;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: true,
    password: PASSWORD
  });
  es.loadIndex(
    'shop',
    { properties: { n: { type: 'long' } } },
    Array.from({ length: 7 }, (_, n) => ({ id: `p${n}`, source: { n } }))
  );
  server = await listen(es.handler, { port: 0 });
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-python-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'python.ipynb',
    cells: [
      `%connect elasticsearch ${server.url} user=elastic password=\${env:SHOP_PASSWORD} name=es`,
      'GET /shop/_search\n{"query": {"range": {"n": {"gte": 3}}}}'
    ],
    env: { SHOP_PASSWORD: PASSWORD },
    beforeOpen: async (_page, context, started) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(started.open('python.ipynb')).origin
      });
    }
  }));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await server?.close();
});

/** The clipboard once it holds copied Python (at most 10 s of polling), or what it holds then. */
async function copiedPython(): Promise<string> {
  let text = '';
  for (let i = 0; i < 100 && !text.startsWith('# Needs: '); i++) {
    await page.waitForTimeout(100);
    text = await page.evaluate(() => navigator.clipboard.readText());
  }
  return text;
}

async function clearClipboard(): Promise<void> {
  await page.evaluate(() => navigator.clipboard.writeText(''));
}

const toast = (text: string) =>
  page.locator('.jp-toast-message').filter({ hasText: text }).first();

/** Runs the copied code as a user would, with only the password's variable set. */
function runsHere(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import elasticsearch'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

it('the cell context menu copies the request as elasticsearch-py code that reads the password from SHOP_PASSWORD', async () => {
  await clearClipboard();
  const input = page
    .locator('.jp-NotebookPanel .jp-Cell')
    .filter({ hasText: 'GET /shop/_search' })
    .first()
    .locator('.jp-InputArea-prompt');
  await input.click();
  await input.click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Copy as Python' }).click();
  const code = await copiedPython();
  expect(code).toContain('from elasticsearch import Elasticsearch');
  expect(code).toContain('basic_auth=("elastic", os.environ["SHOP_PASSWORD"])');
  expect(code).toContain('"/shop/_search"');
  expect(code).not.toContain(PASSWORD);
  await expect(
    toast('Copied the request as Python.').textContent({ timeout: 10_000 })
  ).resolves.toContain(
    'It needs pip install elasticsearch. It reads SHOP_PASSWORD from the environment.'
  );
  if (runsHere()) {
    const { stdout } = await run(PYTHON, ['-c', code], {
      env: { PATH: process.env.PATH ?? '', SHOP_PASSWORD: PASSWORD }
    });
    expect(
      (JSON.parse(stdout) as { hits: { total: { value: number } } }).hits.total
        .value
    ).toBe(4);
  }
});

it('a cell without a request says so, and nothing is copied', async () => {
  await clearClipboard();
  // The menu acts on the active cell: click its input first, as a user picks a cell.
  const input = page
    .locator('.jp-NotebookPanel .jp-Cell')
    .filter({ hasText: '%connect elasticsearch' })
    .first()
    .locator('.jp-InputArea-prompt');
  await input.click();
  await input.click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Copy as Python' }).click();
  await expect(
    toast('This cell holds no request to copy as Python').textContent({
      timeout: 10_000
    })
  ).resolves.toContain('Copy as Python: ');
  await expect(
    page.evaluate(() => navigator.clipboard.readText())
  ).resolves.toBe('');
});

it("a grid's toolbar copies the grid's request as Python on the grid's connection", async () => {
  await clearClipboard();
  const tree = page.getByRole('tree', { name: 'searchbook connections' });
  const item = tree.locator(
    '[role="treeitem"][aria-level="2"][aria-label^="shop · "]'
  );
  await item.waitFor({ timeout: 30_000 });
  await item.dblclick();
  const grid = page.getByRole('grid', { name: 'shop · es' });
  await grid.waitFor({ timeout: 30_000 });
  await toolbarAction(
    grid.locator(
      'xpath=ancestor::*[contains(@class,"searchbook-DocumentGrid")][1]'
    ),
    'Copy',
    'Copy as Python'
  );
  const code = await copiedPython();
  expect(code).toContain('os.environ["SHOP_PASSWORD"]');
  expect(code).toContain('"/shop/_search"');
  expect(code).toContain('"track_total_hits": True');
  expect(code).not.toContain(PASSWORD);
});
