/**
 * A newcomer's first five minutes, scripted from docs/getting-started.md as it is written: from
 * the README's link to that page, a JupyterLab opened on examples/ with the sandbox as `npm start`
 * opens it, then the page's steps in Chromium (a searchbook notebook from the Launcher, the
 * page's cells typed and run, the index opened from the side panel, filtered, sorted, one cell
 * edited and saved). What the grid shows is checked against the sandbox engine itself.
 */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scratchDir } from '../support/scratch-dir';
import type { Browser, Page } from 'playwright-core';
import { request } from 'undici';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import {
  GETTING_STARTED,
  type GettingStartedSteps,
  readGettingStarted,
  walkGettingStarted,
  type WalkResult
} from './support/getting-started';
import { cellText, gridOf, statusLine } from './support/grid-page';
import { REPO, type RunningLab, startJupyterLab } from './support/jupyter-lab';
import { suiteChromium } from './support/shared-lab';
import { screenshot } from './support/notebook-page';

jest.setTimeout(300_000);

const ES_PASSWORD = 'e2e-getting-started-es-5b1f';
const TS_API_KEY = 'e2e-getting-started-ts-9c3e';

let sandbox: RunningSandbox;
let lab: RunningLab;
let browser: Browser;
let page: Page;
let steps: GettingStartedSteps;

/** Asks the sandbox's Elasticsearch directly, as the user `npm start` sets up. */
async function es(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown
): Promise<Record<string, unknown>> {
  const answer = await request(`${sandbox.esUrl}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`elastic:${ES_PASSWORD}`).toString('base64')}`,
      'content-type': 'application/json'
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  });
  return (await answer.body.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  steps = await readGettingStarted();
  // As `npm start`: the sandbox with its whole sample, its secrets and addresses in the
  // environment, JupyterLab on a copy of examples/.
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: ES_PASSWORD,
    tsApiKey: TS_API_KEY,
    security: true
  });
  const root = scratchDir('searchbook-e2e-start-');
  await cp(join(REPO, 'examples'), root, { recursive: true });
  lab = await startJupyterLab({
    root,
    env: {
      ES_PASSWORD,
      TYPESENSE_API_KEY: TS_API_KEY,
      SEARCHBOOK_ES_URL: sandbox.esUrl,
      SEARCHBOOK_TYPESENSE_URL: sandbox.tsUrl
    }
  });
  browser = await suiteChromium();
  page = await (
    await browser.newContext({ viewport: { width: 1600, height: 1000 } })
  ).newPage();
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await sandbox?.close();
});

it('the README sends a newcomer to the getting-started page, which starts with the clone command the README gives', async () => {
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  expect(readme).toContain('](docs/getting-started.md)');
  expect(readme).toMatch(/^npm start\b/m);
  const page = await readFile(GETTING_STARTED, 'utf8');
  expect(page).toMatch(/^npm start$/m);
  // Two cells to type: the connection, then a search.
  expect(steps.cells).toHaveLength(2);
  expect(steps.cells[0]).toMatch(/^%connect elasticsearch /);
});

describe('following docs/getting-started.md step by step', () => {
  let walked: WalkResult;

  beforeAll(async () => {
    await page.goto(`${lab.url}/lab?token=${lab.token}&reset`);
    await page
      .locator('.jp-LauncherCard[data-category="Notebook"]')
      .first()
      .waitFor({ timeout: 60_000 });
    try {
      walked = await walkGettingStarted(page, steps);
    } catch (err) {
      await screenshot(page, 'getting-started-failed');
      throw err;
    }
    await screenshot(page, 'getting-started-done');
  });

  const label = () => walked.label;

  it('the grid holds the documents the filter matches, counted by the engine', async () => {
    const counted = await es('POST', `/${steps.index}/_count`, {
      query: { term: { [steps.filter.column]: steps.filter.value } }
    });
    expect(Number(counted.count)).toBeGreaterThan(0);
    await expect(
      gridOf(page, label()).getAttribute('aria-rowcount')
    ).resolves.toBe(String(counted.count));
    await expect(statusLine(page, label()).textContent()).resolves.toMatch(
      new RegExp(`of ${Number(counted.count).toLocaleString('en-US')}`)
    );
    await expect(cellText(page, label(), 0, steps.filter.column)).resolves.toBe(
      steps.filter.value
    );
  });

  it('the rows are sorted by the engine, descending: the first row is the index’s largest value under the filter', async () => {
    const top = await es('POST', `/${steps.index}/_search`, {
      size: 1,
      query: { term: { [steps.filter.column]: steps.filter.value } },
      sort: [{ [steps.sortColumn]: 'desc' }]
    });
    const hit = (top.hits as { hits: { _id: string }[] }).hits[0];
    await expect(cellText(page, label(), 0, '_id')).resolves.toBe(hit?._id);
  });

  it('Show requests listed the update Save sent, and the engine stores the edited value', async () => {
    const id = await cellText(page, label(), 0, '_id');
    expect(walked.requests).toMatch(
      new RegExp(`^POST /${steps.index}/_update/${id}`)
    );
    expect(walked.requests).toContain(
      `"${steps.edit.column}": ${steps.edit.value}`
    );
    const stored = await es('GET', `/${steps.index}/_doc/${id}`);
    expect((stored._source as Record<string, unknown>)[steps.edit.column]).toBe(
      JSON.parse(steps.edit.value)
    );
    await expect(cellText(page, label(), 0, steps.edit.column)).resolves.toBe(
      steps.edit.value
    );
  });
});
