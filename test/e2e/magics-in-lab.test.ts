/**
 * searchbook's magics in a Python notebook of a real JupyterLab (from .venv) in Chromium,
 * against the sandbox engine: the side panel lists the connections the magics opened (not the
 * panel's own kernel's), and a magic cell's context menu has Copy as curl and Copy as Python,
 * which read the cell's searchbook text and keep the password an environment variable.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { REPO } from '../support/kernel-client';
import { openPanelLab, panelTreeItem } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';

jest.setTimeout(180_000);

const PASSWORD = 'e2e-magics-secret';

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
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-magics-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'magics.ipynb',
    kernel: { name: 'python3', display_name: 'Python 3', language: 'python' },
    cells: [
      '%load_ext searchbook',
      `%%searchbook -q\n%connect elasticsearch ${server.url} user=elastic password=\${env:SHOP_PASSWORD} name=es`,
      '%%searchbook\nGET /shop/_search\n{"query": {"range": {"n": {"gte": 3}}}}'
    ],
    // The Python kernel imports this checkout's package.
    env: { SHOP_PASSWORD: PASSWORD, PYTHONPATH: join(REPO, 'python') },
    beforeOpen: async (_page, context, started) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(started.open('magics.ipynb')).origin
      });
    }
  }));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await server?.close();
});

/**
 * The clipboard once it starts with `start`, or what it holds after 15 s: the copy goes from
 * JupyterLab through the Python kernel (on a subshell of its own, beside the notebook's cells)
 * to the magics' kernel and back, which takes well under a second.
 */
async function copied(start: string): Promise<string> {
  let text = '';
  for (let i = 0; i < 150 && !text.startsWith(start); i++) {
    await page.waitForTimeout(100);
    text = await page.evaluate(() => navigator.clipboard.readText());
  }
  return text;
}

async function copyFromMenu(item: string): Promise<void> {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  const input = page
    .locator('.jp-NotebookPanel .jp-Cell')
    .filter({ hasText: 'GET /shop/_search' })
    .first()
    .locator('.jp-InputArea-prompt');
  await input.click();
  await input.click({ button: 'right' });
  await page.getByRole('menuitem', { name: item }).click();
}

it("lists the magics' connection and its indices, under the notebook's name", async () => {
  await expect(
    page
      .locator('.searchbook-Sidebar')
      .getByText('searchbook magics of magics.ipynb')
      .first()
      .textContent({ timeout: 30_000 })
  ).resolves.toContain('magics.ipynb');
  await panelTreeItem(page, 'shop').waitFor({ timeout: 30_000 });
  await expect(
    page.locator('.searchbook-Sidebar').textContent()
  ).resolves.not.toContain('panel’s own kernel');
});

it("copies a magic cell's request as curl, the password an environment variable", async () => {
  await copyFromMenu('Copy as curl');
  const text = await copied('curl ');
  expect(text).toMatch(/^curl .*\/shop\/_search/);
  expect(text).toContain('SHOP_PASSWORD');
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain('%%searchbook');
});

it("copies a magic cell's request as Python for the official client", async () => {
  await copyFromMenu('Copy as Python');
  const code = await copied('# Needs: ');
  expect(code).toContain('from elasticsearch import Elasticsearch');
  expect(code).toContain('"/shop/_search"');
  expect(code).toContain('os.environ["SHOP_PASSWORD"]');
  expect(code).not.toContain(PASSWORD);
});
