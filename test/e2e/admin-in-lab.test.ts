/**
 * The panel's administration sections in a real JupyterLab in Chromium, against the sandbox
 * engines: Typesense keys (list, add with the value shown once and found nowhere else: not in
 * the page after the dialog closes, the saved notebook or the server's log, which holds the
 * kernel's stderr; delete with a confirmation; a key that may not list keys), the Typesense
 * server dashboard and the Elasticsearch cluster overview, polled only while on screen.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { generateBooksSample } from '@searchbook/sandbox/sample-typesense';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { createTypesenseSandbox } from '@searchbook/sandbox/typesense';
import { openPanelLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { runCommand, screenshot } from './support/notebook-page';

jest.setTimeout(180_000);

const TS_KEY = 'e2e-admin-ts-secret';
const SEARCH_KEY = 'e2e-admin-search-only';
const REQUESTS_CHART = '[data-metric="requests"] svg';

let servers: ListeningServer[] = [];
let lab: RunningLab;
let browser: Browser;
let page: Page;
let tsUrl = '';
const received: string[] = [];

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex('products', { properties: { name: { type: 'keyword' } } }, [
    { id: '1', source: { name: 'lamp' } }
  ]);
  const ts = createTypesenseSandbox({ version: '29.0', apiKey: TS_KEY });
  generateBooksSample(ts);
  const ts26 = createTypesenseSandbox({ version: '26.0', apiKey: TS_KEY });
  servers = [
    await listen(es.handler, { port: 0 }),
    await listen(ts.handler, { port: 0 }),
    await listen(ts26.handler, { port: 0 })
  ];
  const [esServer, tsServer, ts26Server] = servers as [
    ListeningServer,
    ListeningServer,
    ListeningServer
  ];
  tsUrl = tsServer.url;
  const created = await fetch(`${tsUrl}/keys`, {
    method: 'POST',
    headers: {
      'x-typesense-api-key': TS_KEY,
      'content-type': 'application/json'
    },
    body: JSON.stringify({
      description: 'website search',
      actions: ['documents:search'],
      collections: ['*'],
      value: SEARCH_KEY
    })
  });
  expect(created.status).toBe(201);
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-admin-'));
  const cells = [
    `%connect elasticsearch ${esServer.url} name=es`,
    `%connect typesense ${tsServer.url} key=\${env:TS_KEY} name=ts`,
    `%connect typesense ${tsServer.url} key=\${env:SEARCH_KEY} name=searcher`,
    `%connect typesense ${ts26Server.url} key=\${env:TS_KEY} name=older`
  ];
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'admin.ipynb',
    cells,
    env: { TS_KEY, SEARCH_KEY },
    viewport: { width: 1400, height: 1000 },
    beforeOpen: async opened => {
      // Every kernel message the browser receives (iopub included), to check that no key value crosses in clear.
      opened.on('websocket', socket =>
        socket.on('framereceived', frame =>
          received.push(
            typeof frame.payload === 'string'
              ? frame.payload
              : frame.payload.toString('utf8')
          )
        )
      );
      // A clock that runs as the real one until a test runs its timers ahead at once, and a
      // count of the figures' requests the page sends, to see that none goes.
      await opened.clock.install();
      await opened.addInitScript(countMetricsRequests);
    }
  }));
  await connection('older').waitFor({ timeout: 30_000 });
});

/** In the page before it loads: counts the kernel messages it sends that ask for a connection's figures. */
function countMetricsRequests(): void {
  const counted = window as unknown as { __metricsRequests: number };
  counted.__metricsRequests = 0;
  const decoder = new TextDecoder();
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (
    this: WebSocket,
    data: Parameters<WebSocket['send']>[0]
  ) {
    const text =
      typeof data === 'string'
        ? data
        : data instanceof Blob
          ? ''
          : decoder.decode(data);
    if (/"type":\s*"metrics"/.test(text)) {
      counted.__metricsRequests++;
    }
    send.call(this, data);
  };
}

const metricsRequests = () =>
  page.evaluate(
    () => (window as unknown as { __metricsRequests: number }).__metricsRequests
  );

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await Promise.all(servers.map(s => s.close()));
});

function connection(name: string): Locator {
  return page
    .getByRole('tree', { name: 'searchbook connections' })
    .locator(`[role="treeitem"][aria-level="1"][aria-label^="${name} · "]`);
}

async function openSection(
  connectionName: string,
  title: string
): Promise<Locator> {
  const section = connection(connectionName).locator(
    'details.searchbook-Admin-section',
    { has: page.locator(`summary:text-is("${title}")`) }
  );
  if (!(await section.evaluate(node => (node as HTMLDetailsElement).open))) {
    await section.locator('summary').first().click();
  }
  return section;
}

const metricValue = (section: Locator, label: string) =>
  section
    .locator('.searchbook-Metric', {
      has: page.locator(`.searchbook-Metric-label:text-is("${label}")`)
    })
    .locator('.searchbook-Metric-value');

describe('Typesense keys', () => {
  it('lists the keys with scope, value prefix and expiry, and says keys cannot be edited', async () => {
    const keys = await openSection('ts', 'Keys');
    const key = keys.getByRole('listitem', { name: /^website search/ });
    await key.waitFor({ timeout: 20_000 });
    await expect(key.textContent()).resolves.toContain(
      'actions documents:search · collections server-wide · value e2e-… · never expires'
    );
    await expect(
      keys.locator('.searchbook-Admin-note').textContent()
    ).resolves.toMatch(/cannot be edited/);
    await expect(
      keys.getByRole('button', { name: /edit/i }).count()
    ).resolves.toBe(0);
    await screenshot(page, 'admin-keys');
  });

  let value = '';

  it('adds a key and shows its value once, in a dialog with a copy button; closing it forgets the value', async () => {
    const keys = await openSection('ts', 'Keys');
    await keys.locator('summary:text-is("Add a key")').click();
    const form = keys.getByRole('form', { name: 'Add a key to ts' });
    await form.getByLabel('Description', { exact: true }).fill('books reader');
    await form
      .getByLabel('Actions', { exact: true })
      .selectOption({ label: 'Search only: documents:search' });
    await form
      .getByLabel('Collections (comma-separated, * for all)', { exact: true })
      .fill('books');
    await form.getByRole('button', { name: 'Add key' }).click();
    const dialog = page.locator('.jp-Dialog');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain(
      'New key: books reader'
    );
    value = (await dialog.getByLabel('New key value').textContent()) ?? '';
    expect(value.length).toBeGreaterThanOrEqual(16);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    await screenshot(page, 'admin-new-key-dialog');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await keys.getByRole('listitem', { name: /^books reader/ }).waitFor();
    await expect(
      keys.getByRole('listitem', { name: /^books reader/ }).textContent()
    ).resolves.toContain(`collections books · value ${value.slice(0, 4)}…`);
    // The value is a real key, and it is gone from the page once the dialog closed.
    expect(
      (
        await fetch(`${tsUrl}/collections/books/documents/search?q=*`, {
          headers: { 'x-typesense-api-key': value }
        })
      ).status
    ).toBe(200);
    expect(
      await page.evaluate(
        v => document.documentElement.outerHTML.includes(v),
        value
      )
    ).toBe(false);
  });

  it('writes the value into neither the saved notebook, the server log (kernel stderr) nor any kernel message', async () => {
    expect(value).not.toBe('');
    // The command settles once the server wrote the file.
    await runCommand(page, 'docmanager:save');
    const notebook = await readFile(join(lab.root, 'admin.ipynb'), 'utf8');
    expect(notebook).toContain('%connect typesense');
    expect(notebook).not.toContain(value);
    expect(lab.log()).not.toContain(value);
    // The value came sealed for this page (Web Crypto on localhost): no kernel message carried it in clear.
    expect(
      received.some(
        frame => frame.includes('"keyAdded"') && frame.includes('"sealed"')
      )
    ).toBe(true);
    expect(received.some(frame => frame.includes(value))).toBe(false);
  });

  it('deletes a key after a confirmation that names it', async () => {
    const keys = await openSection('ts', 'Keys');
    await keys.getByRole('button', { name: 'Delete key books reader' }).click();
    const dialog = page.locator('.jp-Dialog');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain(
      'Delete the key "books reader"'
    );
    await screenshot(page, 'admin-delete-key');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await keys
      .getByRole('listitem', { name: /^books reader/ })
      .waitFor({ state: 'detached' });
    expect(
      (
        await fetch(`${tsUrl}/collections/books/documents/search?q=*`, {
          headers: { 'x-typesense-api-key': value }
        })
      ).status
    ).toBe(401);
  });

  it('shows the engine’s reason to a key that may not list keys', async () => {
    const keys = await openSection('searcher', 'Keys');
    await keys
      .locator('.searchbook-Admin-status.searchbook-mod-error')
      .waitFor();
    await expect(
      keys
        .locator('.searchbook-Admin-status.searchbook-mod-error')
        .textContent()
    ).resolves.toContain(
      'Forbidden - a valid `x-typesense-api-key` header must be sent.'
    );
  });
});

describe('Typesense server dashboard', () => {
  it('shows every figure with a small chart, refreshed every 2 s, and says what the engine does not offer', async () => {
    const dashboard = await openSection('ts', 'Server dashboard');
    await metricValue(dashboard, 'Process memory').waitFor({ timeout: 20_000 });
    await expect(
      metricValue(dashboard, 'Process memory').textContent()
    ).resolves.toMatch(/^[\d.,]+ (KiB|MiB|GiB)$/);
    await expect(
      metricValue(dashboard, 'System memory').textContent()
    ).resolves.toMatch(/ of [\d.,]+ GiB \(\d+%\)$/);
    await expect(
      metricValue(dashboard, 'Disk use').textContent()
    ).resolves.toBe('10 GiB of 100 GiB (10%)');
    for (const label of [
      'Memory fragmentation',
      'Requests per second',
      'Search latency',
      'Write latency',
      'Pending write batches',
      'Cache hit ratio'
    ]) {
      await expect(
        metricValue(dashboard, label).textContent()
      ).resolves.toMatch(/^[\d.,]+( ms|\/s)?$/);
    }
    await expect(dashboard.textContent()).resolves.toContain(
      'Sessions: Typesense does not offer a session list'
    );
    await expect(dashboard.textContent()).resolves.toContain(
      'Slow queries: Typesense does not offer a slow-query log'
    );
    await expect(
      dashboard
        .getByRole('img', { name: 'Requests per second, recent values' })
        .count()
    ).resolves.toBe(1);
    // Each reading adds a point to every chart: three readings within about 4 s.
    await page.waitForFunction(
      selector =>
        Number(document.querySelector(selector)?.getAttribute('data-points')) >=
        3,
      REQUESTS_CHART,
      { timeout: 15_000 }
    );
    await screenshot(page, 'admin-server-dashboard');
  });

  it('stops reading while the sidebar is hidden', async () => {
    const dashboard = await openSection('ts', 'Server dashboard');
    const points = () =>
      page.evaluate(
        selector =>
          Number(document.querySelector(selector)?.getAttribute('data-points')),
        REQUESTS_CHART
      );
    const sidebarTab = page.locator(
      '.jp-SideBar.jp-mod-left [data-id="searchbook-sidebar"]'
    );
    // Read while shown: the count sees the dashboard's requests.
    expect(await metricsRequests()).toBeGreaterThan(0);
    await sidebarTab.click();
    try {
      expect(await points()).toBeGreaterThan(0);
      const asked = await metricsRequests();
      // Five seconds of the page's timers, run at once: two readings' worth.
      await page.clock.runFor(5_000);
      expect(await metricsRequests()).toBe(asked);
    } finally {
      await sidebarTab.click();
    }
    // Shown again, it reads again.
    const shown = await points();
    await page.waitForFunction(
      ([selector, last]) =>
        Number(
          document
            .querySelector(selector as string)
            ?.getAttribute('data-points')
        ) > (last as number),
      [REQUESTS_CHART, shown],
      { timeout: 10_000 }
    );
    await dashboard.locator('summary').first().click();
  });
});

describe('a Typesense server before 29', () => {
  it('reads "not reported" for the cache hit ratio it does not send, never 0', async () => {
    const dashboard = await openSection('older', 'Server dashboard');
    await metricValue(dashboard, 'Cache hit ratio').waitFor({
      timeout: 20_000
    });
    await expect(
      metricValue(dashboard, 'Cache hit ratio').textContent()
    ).resolves.toBe('not reported');
    await expect(
      metricValue(dashboard, 'Requests per second').textContent()
    ).resolves.toMatch(/^[\d.,]+\/s$/);
    await screenshot(page, 'admin-dashboard-not-reported');
    await dashboard.locator('summary').first().click();
  });
});

describe('Elasticsearch cluster overview', () => {
  it('shows health, shards, and per node heap, disk and search and indexing rates', async () => {
    const overview = await openSection('es', 'Cluster overview');
    await metricValue(overview, 'Status').waitFor({ timeout: 20_000 });
    await expect(metricValue(overview, 'Status').textContent()).resolves.toBe(
      'yellow'
    );
    await expect(metricValue(overview, 'Nodes').textContent()).resolves.toBe(
      '1'
    );
    await expect(
      metricValue(overview, 'Active shards').textContent()
    ).resolves.toBe('1');
    await expect(
      metricValue(overview, 'Unassigned shards').textContent()
    ).resolves.toBe('1');
    await expect(
      overview.getByRole('region', { name: 'Node sandbox-es-node' }).count()
    ).resolves.toBe(1);
    await expect(metricValue(overview, 'Heap').textContent()).resolves.toMatch(
      / of [\d.,]+ (MiB|GiB) \(\d+%\)$/
    );
    await page.waitForFunction(
      () =>
        /^[\d.,]+\/s$/.test(
          document.querySelector(
            '[data-metric$=":search-rate"] .searchbook-Metric-value'
          )?.textContent ?? ''
        ),
      null,
      { timeout: 15_000 }
    );
    await expect(
      metricValue(overview, 'Documents indexed per second').textContent()
    ).resolves.toMatch(/^[\d.,]+\/s$/);
    await screenshot(page, 'admin-cluster-overview');
  });
});
