/**
 * An ES|QL answer in a real JupyterLab in Chromium: a `POST /_query` cell against an engine on
 * 127.0.0.1 that answers as Elasticsearch 8.19 does, with an answer in the shape Elastic
 * documents (no node built here serves ES|QL). The answer shows as a grid of its columns in
 * order, a type row under the names, and the partial-answer note under it.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import {
  type HostileEngine,
  startHostileEngine
} from '../support/hostile-engine';
import { type RunningLab } from './support/jupyter-lab';
import { suiteChromium, suiteJupyterLab } from './support/shared-lab';
import {
  bandUnder,
  cellOutput,
  openNotebook,
  runAllCells,
  screenshot,
  writeNotebook
} from './support/notebook-page';

jest.setTimeout(180_000);

const ANSWER =
  '{"took":3,"is_partial":true,' +
  '"columns":[{"name":"c","type":"long"},{"name":"brand","type":"keyword"},{"name":"tags","type":"keyword"}],' +
  '"values":[[3,"acme",["new","sale"]],[9007199254740993,"<img src=x onerror=\\"window.__pwned=1\\">",null]]}';

const reply = (res: ServerResponse, text: string) => {
  res.writeHead(200, {
    'x-elastic-product': 'Elasticsearch',
    'content-type': 'application/json'
  });
  res.end(text);
};

let engine: HostileEngine;
let lab: RunningLab;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  engine = await startHostileEngine({
    '/': (_req, res) =>
      reply(
        res,
        JSON.stringify({
          name: 'node-1',
          cluster_name: 'esql',
          version: { number: '8.19.0', build_flavor: 'default' },
          tagline: 'You Know, for Search'
        })
      ),
    '/_query': (req, res) => {
      req.resume();
      req.on('end', () => reply(res, ANSWER));
    }
  });
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-esql-'));
  await writeNotebook(root, 'esql.ipynb', [
    `%connect elasticsearch ${engine.url} auth=none name=es`,
    'POST /_query\n{"query": "FROM products | STATS c = COUNT(*) BY brand, tags"}'
  ]);
  lab = await suiteJupyterLab(root);
  browser = await suiteChromium();
  page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  await openNotebook(page, lab.open('esql.ipynb'));
  await runAllCells(page);
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await engine?.close();
});

it('shows the answer as a grid of its columns in order, with a type row under the names, and says it is partial', async () => {
  const output = cellOutput(page, 1);
  const grid = output.locator('.searchbook-Grid');
  await grid.waitFor({ timeout: 30_000 });
  expect(JSON.parse((await grid.getAttribute('data-columns')) ?? '[]')).toEqual(
    ['c', 'brand', 'tags']
  );
  expect(await grid.getAttribute('aria-rowcount')).toBe('2');
  // Two header rows (name, then the ES|QL type) fill the grid's height exactly.
  const { band } = await bandUnder(grid);
  expect(Math.abs(band)).toBeLessThanOrEqual(1);
  expect(
    await output.locator('.searchbook-TableNote').allTextContents()
  ).toEqual([
    'Partial answer (is_partial): some shards or clusters did not answer, so rows may be missing. Their failures are in Raw JSON (_clusters).'
  ]);
  expect(await output.locator('img').count()).toBe(0);
  expect(
    await page.evaluate(() => (window as { __pwned?: number }).__pwned)
  ).toBeUndefined();
  await screenshot(page, 'esql-typed-table');
});
