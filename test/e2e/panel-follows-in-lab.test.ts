/**
 * What the searchbook panel follows, in a real JupyterLab in Chromium against the
 * Elasticsearch sandbox: the current notebook's or console's kernel (JupyterLab's notebook and
 * console trackers), the listing read again after cells that may change it, and the
 * `IDocumentGrids` service other extensions use to open a grid, resolved the way JupyterLab
 * resolves a plugin's requirement.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { openPanelLab, panelTreeItem } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { screenshot } from './support/notebook-page';

jest.setTimeout(180_000);

const NOTEBOOK = 'follows.ipynb';

let servers: ListeningServer[] = [];
let lab: RunningLab;
let browser: Browser;
let page: Page;

/** What the page reaches of JupyterLab: the application, and the extensions as it loads them. */
interface LabWindow {
  jupyterapp: {
    resolveRequiredService(token: unknown): Promise<unknown>;
    commands: { execute(id: string, args?: unknown): Promise<unknown> };
    shell: {
      currentWidget: {
        id: string;
        title: { label: string };
        sessionContext?: {
          session?: {
            kernel?: {
              requestExecute(content: { code: string }): {
                done: Promise<unknown>;
              };
            } | null;
          } | null;
        };
      } | null;
      activateById(id: string): void;
    };
  };
  _JUPYTERLAB: Record<
    string,
    { get(module: string): Promise<() => Record<string, unknown>> }
  >;
}

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex(
    'big',
    { properties: { n: { type: 'long' } } },
    Array.from({ length: 30 }, (_, n) => ({ id: `d${n}`, source: { n } }))
  );
  servers = [await listen(es.handler, { port: 0 })];
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-follows-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: NOTEBOOK,
    cells: [`%connect elasticsearch ${servers[0]?.url} name=es`]
  }));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
});

const heading = () => page.locator('.searchbook-Sidebar-heading');

/** Runs code in the kernel of the current notebook or console, as a cell does (its iopub reaches every client). */
async function runInCurrent(code: string): Promise<void> {
  await page.evaluate(async source => {
    const kernel = (window as unknown as LabWindow).jupyterapp.shell
      .currentWidget?.sessionContext?.session?.kernel;
    if (!kernel) {
      throw new Error('no kernel is current');
    }
    await kernel.requestExecute({ code: source }).done;
  }, code);
}

describe('the panel follows the current notebook or console', () => {
  it('lists an index a cell created, without Refresh', async () => {
    await panelTreeItem(page, 'big').waitFor({ timeout: 30_000 });
    await expect(heading().textContent()).resolves.toBe(
      `Kernel of ${NOTEBOOK}`
    );
    await runInCurrent('PUT /fresh-index');
    await panelTreeItem(page, 'fresh-index').waitFor({ timeout: 30_000 });
  });

  it('follows a searchbook console’s kernel, lists what it connects, and the notebook’s again when it is current', async () => {
    const notebookId = await page.evaluate(
      () =>
        (window as unknown as LabWindow).jupyterapp.shell.currentWidget?.id ??
        ''
    );
    await page.evaluate(() =>
      (window as unknown as LabWindow).jupyterapp.commands.execute(
        'console:create',
        { kernelPreference: { name: 'searchbook' } }
      )
    );
    await page.waitForFunction(
      () =>
        /^Kernel of Console/.test(
          document.querySelector('.searchbook-Sidebar-heading')?.textContent ??
            ''
        ),
      undefined,
      { timeout: 60_000 }
    );
    await panelTreeItem(page, 'es', 1).waitFor({
      state: 'detached',
      timeout: 30_000
    });
    await runInCurrent(
      `%connect elasticsearch ${servers[0]?.url} name=from-console`
    );
    await panelTreeItem(page, 'from-console', 1).waitFor({ timeout: 30_000 });
    await screenshot(page, 'panel-follows-console');
    await page.evaluate(
      id => (window as unknown as LabWindow).jupyterapp.shell.activateById(id),
      notebookId
    );
    await page.waitForFunction(
      label =>
        document.querySelector('.searchbook-Sidebar-heading')?.textContent ===
        label,
      `Kernel of ${NOTEBOOK}`,
      { timeout: 30_000 }
    );
    await panelTreeItem(page, 'es', 1).waitFor({ timeout: 30_000 });
    await expect(panelTreeItem(page, 'from-console', 1).count()).resolves.toBe(
      0
    );
  });
});

describe('IDocumentGrids, for other extensions', () => {
  it('opens a grid on a connection’s index, brings the same tab forward when asked again, and rejects with the kernel’s reason', async () => {
    const result = await page.evaluate(async () => {
      const lab = window as unknown as LabWindow;
      // As JupyterLab loads the extension: the module whose token the plugin provides.
      const searchbook = (await lab._JUPYTERLAB.searchbook?.get('./index'))?.();
      const grids = (await lab.jupyterapp.resolveRequiredService(
        searchbook?.IDocumentGrids
      )) as {
        open(
          connection: string,
          target: string
        ): Promise<{
          id: string;
          connection: string;
          target: string;
          isAttached: boolean;
        }>;
      };
      const grid = await grids.open('es', 'big');
      const again = await grids.open('es', 'big');
      let refused = '';
      await grids
        .open('nowhere', 'big')
        .catch((err: Error) => (refused = err.message));
      return {
        connection: grid.connection,
        target: grid.target,
        attached: grid.isAttached,
        same: again === grid,
        current: lab.jupyterapp.shell.currentWidget?.id === grid.id,
        refused
      };
    });
    expect(result).toMatchObject({
      connection: 'es',
      target: 'big',
      attached: true,
      same: true
    });
    expect(result.refused).toMatch(/nowhere/);
    const grid = page.getByRole('grid', { name: 'big · es' });
    await grid.waitFor({ timeout: 30_000 });
    await expect(grid.getAttribute('aria-rowcount')).resolves.toBe('30');
    // The panel says why too, as for a name typed into its Open… box.
    await expect(
      page.locator('.searchbook-Sidebar-message').textContent()
    ).resolves.toMatch(/^big: .*nowhere/);
  });
});
