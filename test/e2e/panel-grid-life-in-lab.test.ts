/**
 * The panel's document grid over its life, in a real JupyterLab in Chromium: its first paint,
 * Ctrl-C, the connection under it replaced by `%connect`, a kernel speaking another protocol
 * version (a page left open across an upgrade, simulated by rewriting the kernel's replies on
 * the websocket), and paging to the far end of an index on the sandbox and the real nodes.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { PANEL_PROTOCOL_VERSION } from '../../contracts/panel-protocol';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import {
  openPanelLab,
  panelTreeItem,
  showPanel as showPanelOf
} from './support/panel-lab';
import { gridOf, gridTab, statusLine } from './support/grid-page';
import type { RunningLab } from './support/jupyter-lab';
import {
  openNotebook,
  runAllCells,
  screenshot,
  writeNotebook
} from './support/notebook-page';
import { jsonFromNode } from '../support/real-elasticsearch/launch';

jest.setTimeout(180_000);

const DOCS = 3_000;
const REPLACEMENT_DOCS = 40;

let servers: ListeningServer[] = [];
let root: string;
let lab: RunningLab;
let browser: Browser;
let page: Page;
/** While true, the kernel's grid replies reach the page as a newer protocol version. */
let kernelFromTheFuture = false;

function bigIndex(docs: number) {
  return Array.from({ length: docs }, (_, n) => ({
    id: `d${n}`,
    source: { n, label: `row ${n}` }
  }));
}

/** `"data":{"v":3,` → `"data":{"v":9,`: same length, so the websocket frame's offsets stay right. */
function asNewerVersion(message: string | Buffer): string | Buffer {
  const from = `"data":{"v":${PANEL_PROTOCOL_VERSION},`;
  const to = `"data":{"v":9,`;
  if (typeof message === 'string') {
    return message.split(from).join(to);
  }
  return Buffer.from(message.toString('latin1').split(from).join(to), 'latin1');
}

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex(
    'big',
    { properties: { n: { type: 'long' }, label: { type: 'keyword' } } },
    bigIndex(DOCS)
  );
  const replacement = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  replacement.loadIndex(
    'big',
    { properties: { n: { type: 'long' }, label: { type: 'keyword' } } },
    bigIndex(REPLACEMENT_DOCS)
  );
  servers = [
    await listen(es.handler, { port: 0 }),
    await listen(replacement.handler, { port: 0 })
  ];
  root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-grid-life-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'life.ipynb',
    cells: [`%connect elasticsearch ${servers[0]?.url} name=es`],
    beforeOpen: async (opened, context, running) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: running.url
      });
      await opened.routeWebSocket(/\/api\/kernels\/[^/]+\/channels/, ws => {
        const server = ws.connectToServer();
        ws.onMessage(message => server.send(message));
        server.onMessage(message =>
          ws.send(kernelFromTheFuture ? asNewerVersion(message) : message)
        );
      });
    }
  }));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
});

const showPanel = () => showPanelOf(page);

async function statusMatches(
  label: string,
  pattern: RegExp,
  timeout = 10_000
): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = (await statusLine(page, label).textContent()) ?? '';
    if (pattern.test(text) || Date.now() > deadline) {
      return text;
    }
    await page.waitForTimeout(50);
  }
}

/** Puts the cursor on the grid's first body cell with the keyboard, then extends the selection. */
async function selectFromTopLeft(
  grid: Locator,
  down: number,
  right: number
): Promise<void> {
  const box = await grid.boundingBox();
  if (!box) {
    throw new Error('the grid is not on screen');
  }
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('ArrowUp');
  }
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('ArrowLeft');
  }
  for (let i = 0; i < down; i++) {
    await page.keyboard.press('Shift+ArrowDown');
  }
  for (let i = 0; i < right; i++) {
    await page.keyboard.press('Shift+ArrowRight');
  }
}

async function copied(): Promise<string> {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.keyboard.press('Control+C');
  // The copy may first fetch blocks: wait (at most 10 s) for the clipboard to be written, or
  // for the grid to say why it was not (then that text is what the test sees).
  for (let tries = 0; tries < 100; tries++) {
    const seen = await page.evaluate(async () => {
      const text = await navigator.clipboard.readText();
      if (text !== '') {
        return text;
      }
      const said = [
        ...document.querySelectorAll(
          '.jp-toast-message, .searchbook-DocumentGrid-status'
        )
      ]
        .map(node => node.textContent ?? '')
        .find(line => /error|Nothing selected|at most/.test(line));
      return said === undefined ? '' : `(not copied: ${said})`;
    });
    if (seen !== '') {
      return seen;
    }
    await page.waitForTimeout(100);
  }
  return '(nothing copied within 10 s)';
}

describe('a panel grid on the sandbox', () => {
  it('its first paint copies each painted region to the screen once, not each cell', async () => {
    await panelTreeItem(page, 'big').waitFor({ timeout: 30_000 });
    // Counted on the grids' on-screen canvases: Lumino used to blit every cell from its buffer.
    await page.evaluate(() => {
      const w = window as unknown as { __blits: number; __drawImage?: unknown };
      const original = CanvasRenderingContext2D.prototype.drawImage;
      w.__blits = 0;
      w.__drawImage = original;
      CanvasRenderingContext2D.prototype.drawImage = function (
        this: CanvasRenderingContext2D,
        ...args: unknown[]
      ) {
        if (this.canvas.closest('.searchbook-DocumentGrid')) {
          w.__blits++;
        }
        return (original as (...a: unknown[]) => void).apply(this, args);
      } as typeof original;
    });
    await panelTreeItem(page, 'big').dblclick();
    const label = 'big · es';
    const grid = gridOf(page, label);
    await grid.waitFor({ timeout: 30_000 });
    await expect(grid.getAttribute('aria-rowcount')).resolves.toBe(
      String(DOCS)
    );
    const painted = await page.evaluate(
      () =>
        new Promise<{ blits: number; cells: number }>(resolve =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              const w = window as unknown as {
                __blits: number;
                __drawImage: typeof CanvasRenderingContext2D.prototype.drawImage;
              };
              CanvasRenderingContext2D.prototype.drawImage = w.__drawImage;
              const node = document.querySelector<HTMLElement>(
                '[role="grid"][aria-label="big · es"]'
              );
              // Body cells on screen, at the smallest row height a theme gives (20 px).
              const cells =
                Math.floor((node?.getBoundingClientRect().height ?? 0) / 20) *
                Number(node?.getAttribute('aria-colcount'));
              resolve({ blits: w.__blits, cells });
            })
          )
        )
    );
    expect(painted.cells).toBeGreaterThan(100);
    expect(painted.blits).toBeGreaterThan(0);
    expect(painted.blits).toBeLessThan(painted.cells / 4);
  });

  it('Ctrl-C copies the selected cells as TSV with a header line', async () => {
    const label = 'big · es';
    const grid = gridOf(page, label);
    await selectFromTopLeft(grid, 2, 1);
    await expect(copied()).resolves.toBe(
      '_id\t_index\nd0\tbig\nd1\tbig\nd2\tbig'
    );
    // A confirmation that goes away; the status line keeps the row count.
    await page
      .locator('.jp-toast-message')
      .filter({ hasText: 'Copied 3 rows × 2 columns as TSV.' })
      .first()
      .waitFor();
    await expect(statusLine(page, label).textContent()).resolves.toMatch(
      /rows loaded/
    );
  });

  it('%connect replacing the connection: the open grid says "connection replaced: reopen" at once; Refresh reopens it on the new one', async () => {
    const label = 'big · es';
    // As a cell in the notebook would: the same name, another address.
    const status = await page.evaluate(async code => {
      type Kernel = {
        name: string;
        requestExecute(c: { code: string }): {
          done: Promise<{ content: { status: string } }>;
        };
      };
      const app = (
        window as unknown as {
          jupyterapp: {
            shell: {
              widgets(area: string): Iterable<{
                sessionContext?: { session?: { kernel?: Kernel } };
              }>;
            };
          };
        }
      ).jupyterapp;
      const kernel = [...app.shell.widgets('main')]
        .map(w => w.sessionContext?.session?.kernel)
        .find(k => k?.name === 'searchbook');
      return (await kernel?.requestExecute({ code }).done)?.content.status;
    }, `%connect elasticsearch ${servers[1]?.url} name=es`);
    expect(status).toBe('ok');
    await expect(statusMatches(label, /connection replaced/)).resolves.toMatch(
      /error: connection replaced: reopen\. %connect opened "es" again \(now http:\/\/127\.0\.0\.1:\d+\)/
    );
    await screenshot(page, 'panel-grid-connection-replaced');
    await gridTab(page, label)
      .locator('button', { hasText: 'Refresh' })
      .click();
    await page.waitForFunction(
      rows =>
        document
          .querySelector('[role="grid"][aria-label="big · es"]')
          ?.getAttribute('aria-rowcount') === rows,
      String(REPLACEMENT_DOCS),
      { timeout: 10_000 }
    );
    await expect(
      statusMatches(label, /^40 of 40 rows loaded/)
    ).resolves.toMatch(/^40 of 40 rows loaded · last: POST \/_search 200/);
  });

  it('a kernel speaking another protocol version: panel and grid say "reload the page" at once, instead of waiting', async () => {
    const label = 'big · es';
    kernelFromTheFuture = true;
    try {
      await page
        .locator('.searchbook-Sidebar-tools button', { hasText: 'Refresh' })
        .click();
      const alert = page.locator('.searchbook-Sidebar-message');
      await page.waitForFunction(
        () =>
          /reload the page/.test(
            document.querySelector('.searchbook-Sidebar-message')
              ?.textContent ?? ''
          ),
        undefined,
        { timeout: 5_000 }
      );
      await expect(alert.textContent()).resolves.toBe(
        `The searchbook kernel speaks panel protocol 9, this page ${PANEL_PROTOCOL_VERSION}: reload the page (searchbook was upgraded since it was loaded).`
      );
      await expect(
        statusMatches(label, /reload the page/, 5_000)
      ).resolves.toMatch(
        /error: The searchbook kernel speaks panel protocol 9, this page \d+: reload the page/
      );
      await screenshot(page, 'panel-protocol-mismatch');
    } finally {
      kernelFromTheFuture = false;
    }
  });

  it('a kernel restart: the open grid says so at once', async () => {
    await page
      .getByRole('tab', { name: /big · es/ })
      .locator('.lm-TabBar-tabCloseIcon')
      .click();
    await page
      .locator('.searchbook-Sidebar-tools button', { hasText: 'Refresh' })
      .click();
    await panelTreeItem(page, 'big').waitFor({ timeout: 30_000 });
    await panelTreeItem(page, 'big').dblclick();
    const label = 'big · es';
    const grid = gridOf(page, label);
    await grid.waitFor({ timeout: 30_000 });
    await page.evaluate(async () => {
      type Kernel = { name: string; restart(): Promise<void> };
      const app = (
        window as unknown as {
          jupyterapp: {
            shell: {
              widgets(area: string): Iterable<{
                sessionContext?: { session?: { kernel?: Kernel } };
              }>;
            };
          };
        }
      ).jupyterapp;
      await [...app.shell.widgets('main')]
        .map(w => w.sessionContext?.session?.kernel)
        .find(k => k?.name === 'searchbook')
        ?.restart();
    });
    await expect(statusMatches(label, /restarted/)).resolves.toMatch(
      /error: The kernel restarted: reopen this grid from the searchbook panel\.$/
    );
  });
});

describeEachTarget(
  elasticsearchTargets(),
  'the panel grid pages to the far end of an index',
  target => {
    const index = `panel-far-${randomUUID().slice(0, 8)}`;
    // Three blocks past the first, so Ctrl-End always walks, whether or not the first block is read in full yet.
    const FAR_DOCS = 3_050;
    let engine: RunningEsTarget;

    beforeAll(async () => {
      engine = await target.start({ security: false });
      // A small result window, so the far end is past from/size: the point in time and search_after take over.
      await jsonFromNode(
        engine,
        'PUT',
        `/${index}`,
        JSON.stringify({
          settings: {
            number_of_shards: 1,
            number_of_replicas: 0,
            max_result_window: 100
          },
          mappings: {
            properties: { n: { type: 'long' }, label: { type: 'keyword' } }
          }
        })
      );
      const lines = bigIndex(FAR_DOCS).map(
        d =>
          `${JSON.stringify({ index: { _id: d.id } })}\n${JSON.stringify(d.source)}\n`
      );
      await jsonFromNode(
        engine,
        'POST',
        `/${index}/_bulk?refresh=true`,
        lines.join('')
      );
      const name = `far-${target.engine}-${target.version}.ipynb`;
      await writeNotebook(root, name, [
        `%connect elasticsearch ${engine.url} name=far`
      ]);
      await openNotebook(page, lab.open(name));
      await runAllCells(page);
      await showPanel();
    }, REAL_START_TIMEOUT_MS);

    afterAll(async () => {
      if (engine) {
        await jsonFromNode(engine, 'DELETE', `/${index}`).catch(
          () => undefined
        );
      }
      await engine?.close();
    });

    it('opens with the engine’s exact count as aria-rowcount; Ctrl-End shows the index’s last rows after at most 3 requests', async () => {
      await panelTreeItem(page, index).waitFor({ timeout: 30_000 });
      await panelTreeItem(page, index).dblclick();
      const label = `${index} · far`;
      const grid = gridOf(page, label);
      await grid.waitFor({ timeout: 30_000 });
      const { count } = (await jsonFromNode(
        engine,
        'GET',
        `/${index}/_count`
      )) as {
        count?: number;
      };
      expect(count).toBe(FAR_DOCS);
      await expect(grid.getAttribute('aria-rowcount')).resolves.toBe(
        String(count)
      );
      // The index's last documents in the grid's order (one shard: its documents' order), asked of the engine.
      const { hits } = (await jsonFromNode(
        engine,
        'POST',
        `/${index}/_search`,
        JSON.stringify({ size: 3, sort: [{ _doc: 'desc' }], _source: false })
      )) as { hits: { hits: { _id: string }[] } };
      const lastIds = hits.hits.map(h => h._id).reverse();
      expect(lastIds).toHaveLength(3);
      // Let the first block finish loading, so the status that follows is Ctrl-End's.
      await page.waitForFunction(
        (name: string) =>
          document
            .querySelector(`[role="grid"][aria-label="${name}"]`)
            ?.getAttribute('aria-busy') === 'false',
        label,
        { timeout: 30_000 }
      );
      const box = await grid.boundingBox();
      await page.mouse.click((box?.x ?? 0) + 150, (box?.y ?? 0) + 120);
      await page.keyboard.press('Control+End');
      // The last block is in when more than the first block's rows are loaded and nothing is loading.
      await page.waitForFunction(
        (name: string) => {
          const shown = document.querySelector<HTMLElement>(
            `[role="grid"][aria-label="${name}"]`
          );
          return (
            Number(shown?.dataset.loadedRows) > 1000 &&
            shown?.getAttribute('aria-busy') === 'false'
          );
        },
        label,
        { timeout: 30_000 }
      );
      const status = (await statusLine(page, label).textContent()) ?? '';
      expect(status).toMatch(
        /rows loaded · last: POST \/_search 200 · \d+ ms( \([23] requests\))?$/
      );
      // The last three rows, copied: the index's last three documents, in its order.
      await page.mouse.click(
        (box?.x ?? 0) + 80,
        (box?.y ?? 0) + (box?.height ?? 0) - 30
      );
      // Down to the last row (the cursor stops there), then two rows up.
      for (let i = 0; i < 3; i++) {
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Shift+ArrowUp');
      await page.keyboard.press('Shift+ArrowUp');
      const tsv = await copied();
      expect(tsv.split('\n').map(line => line.split('\t')[0])).toEqual([
        '_id',
        ...lastIds
      ]);
      await screenshot(page, `panel-far-${target.engine}`);
    });
  }
);
