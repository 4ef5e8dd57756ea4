/**
 * A saved notebook of many answers, opened again in JupyterLab in Chromium: the grids a reader
 * scrolls to show their rows, keyboard and copy work in them, and a theme change recolours
 * every grid, on screen or not when it changed (one theme reading shared by every grid), and
 * the page holds each answer's text once, however many models and grids read it. An answer over
 * 64 KiB, saved compressed, opens with all its rows, as the same answer saved plain before does.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { type RunningSandbox, startSandbox } from '@searchbook/sandbox/sandbox';
import { HITS_MIME } from '../../contracts/mime-types';
import { heldStrings, takeHeapSnapshot } from './support/heap-snapshot';
import { type RunningLab } from './support/jupyter-lab';
import { suiteChromium, suiteJupyterLab } from './support/shared-lab';
import {
  cellOutput,
  openNotebook,
  runAllCells,
  runCommand,
  writeNotebook
} from './support/notebook-page';

jest.setTimeout(300_000);

const ANSWERS = 24;
const ROWS = 20;

let sandbox: RunningSandbox;
let lab: RunningLab;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let root: string;

/** The search of answer `n`: its own page of products, so every grid holds other rows. */
const searchCell = (n: number): string =>
  `GET /products/_search\n{"size": ${ROWS}, "from": ${n * ROWS}, "_source": ["name", "price"]}`;

const connectCell = (): string =>
  `%connect elasticsearch ${sandbox.esUrl} auth=basic user=elastic password=\${env:ES_PASSWORD} name=sandbox-es`;

beforeAll(async () => {
  sandbox = await startSandbox({
    esPort: 0,
    tsPort: 0,
    tls: false,
    esVersion: '8.15.0',
    tsVersion: '29.0',
    esPassword: 'e2e-es-secret-many',
    tsApiKey: 'e2e-ts-secret',
    security: true,
    products: ANSWERS * ROWS
  });
  root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-many-'));
  await writeNotebook(root, 'many.ipynb', [
    connectCell(),
    ...Array.from({ length: ANSWERS }, (_, n) => searchCell(n))
  ]);
  lab = await suiteJupyterLab(root, { ES_PASSWORD: 'e2e-es-secret-many' });
  browser = await suiteChromium();
  context = await browser.newContext({
    viewport: { width: 1400, height: 900 }
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: lab.url
  });
  page = await context.newPage();
  await openNotebook(page, lab.open('many.ipynb'));
  await runAllCells(page);
  await runCommand(page, 'docmanager:save');
  await page.waitForFunction(
    () => !document.querySelector('.jp-mod-dirty'),
    undefined,
    { timeout: 30_000 }
  );
  // As a reader meets it: the saved notebook opened afresh.
  await page.close();
  page = await context.newPage();
  await openNotebook(page, lab.open('many.ipynb'));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await sandbox?.close();
});

/** The output of answer `n` (cell 0 connects). */
const answer = (n: number): Locator => cellOutput(page, n + 1);
const gridOfAnswer = (n: number): Locator =>
  answer(n).locator('.searchbook-Grid');

/** Brightness of a grid's first body row, where only the row's background is painted. */
function brightness(node: HTMLElement): number {
  const canvas = node.querySelector('canvas');
  const ratio = window.devicePixelRatio;
  const rowHeight = Number(node.dataset.rowHeight);
  const edges = JSON.parse(node.dataset.columnEdges ?? '[0]') as number[];
  const x = Math.floor(((edges[0] ?? 0) + 3) * ratio);
  const y = Math.floor(rowHeight * 1.5 * ratio);
  const pixel = canvas?.getContext('2d')?.getImageData(x, y, 1, 1).data;
  return pixel && pixel[3] === 255
    ? (pixel[0]! + pixel[1]! + pixel[2]!) / 3
    : -1;
}

async function brightnessOnceSettled(grid: Locator, dark: boolean) {
  let value = await grid.evaluate(brightness);
  for (let i = 0; i < 60 && (dark ? value >= 80 : value <= 200); i++) {
    await page.waitForTimeout(250);
    value = await grid.evaluate(brightness);
  }
  return value;
}

async function scrollTo(n: number): Promise<Locator> {
  await answer(n).scrollIntoViewIfNeeded();
  const grid = gridOfAnswer(n);
  await grid.waitFor({ timeout: 30_000 });
  await grid.scrollIntoViewIfNeeded();
  return grid;
}

async function copiedIds(n: number): Promise<string[]> {
  await answer(n).getByRole('button', { name: 'Copy TSV' }).click();
  const tsv = await page.evaluate(() => navigator.clipboard.readText());
  const [header, ...lines] = tsv.split('\n');
  const idColumn = (header ?? '').split('\t').indexOf('_id');
  return lines.map(line => line.split('\t')[idColumn] ?? '');
}

describe('a notebook of many answers', () => {
  it('opens with the first grids drawn, each with its saved answer’s row count', async () => {
    await gridOfAnswer(0).waitFor({ timeout: 60_000 });
    expect(await gridOfAnswer(0).getAttribute('aria-rowcount')).toBe(
      String(ROWS)
    );
  });

  it('holds the text of each saved answer once, its grid built or not', async () => {
    await gridOfAnswer(0).waitFor({ timeout: 60_000 });
    const cdp = await context.newCDPSession(page);
    // Answers are kept with their quotes swapped: every one starts so.
    const copies = heldStrings(await takeHeapSnapshot(cdp), "{'took'");
    await cdp.detach();
    expect(copies).toHaveLength(ANSWERS);
  });

  it('saves the outputs it was opened with, unchanged', async () => {
    const outputs = async () =>
      (
        JSON.parse(await readFile(join(root, 'many.ipynb'), 'utf8')) as {
          cells: { outputs?: unknown[] }[];
        }
      ).cells.map(cell => cell.outputs);
    const opened = await outputs();
    expect(await page.locator('.jp-mod-dirty').count()).toBe(0);
    // Written by the server from the notebook's model: what it keeps after being read.
    const written = page.waitForResponse(
      response =>
        response.url().includes('/api/contents/') &&
        response.request().method() === 'PUT',
      { timeout: 30_000 }
    );
    await runCommand(page, 'docmanager:save');
    expect((await written).ok()).toBe(true);
    expect(await outputs()).toEqual(opened);
  });

  it('tells the rows of an answer far down before its grid is built, and builds it when scrolled to', async () => {
    const last = ANSWERS - 1;
    const status = answer(last).locator('.searchbook-Status');
    await status.waitFor({ state: 'attached', timeout: 30_000 });
    expect(await status.textContent()).toMatch(new RegExp(` · ${ROWS} shown$`));
    // Far below the screen: its place is held, its grid not built yet.
    expect(await gridOfAnswer(last).count()).toBe(0);
    expect(await page.locator('.searchbook-Grid').count()).toBeLessThan(
      ANSWERS
    );
    const grid = await scrollTo(last);
    expect(await grid.getAttribute('aria-rowcount')).toBe(String(ROWS));
  });

  it('builds no grid for the answers a fast scroll passes, and builds the grids where it stops', async () => {
    const reader = await context.newPage();
    try {
      await openNotebook(reader, lab.open('many.ipynb'));
      // As a loaded machine draws it: a frame every 60-200 ms, so the same fling is fewer, longer
      // frames (the grids it passed were built there when the pace was judged by frames).
      const devtools = await context.newCDPSession(reader);
      await devtools.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const cells = reader.locator('.jp-Notebook .jp-CodeCell');
      await cells
        .nth(1)
        .locator('.searchbook-Grid')
        .waitFor({ timeout: 60_000 });
      // Every cell in the page (JupyterLab adds those below the screen in idle time).
      await reader.waitForFunction(
        count =>
          document.querySelectorAll('.jp-Notebook .jp-CodeCell').length ===
          count,
        ANSWERS + 1,
        { timeout: 30_000 }
      );
      // Half a screen a frame, as a flung wheel or a dragged scroll bar: each answer it passes is
      // on screen for two or three frames.
      const scrolled = await reader.evaluate(async () => {
        const scroller = document.querySelector<HTMLElement>(
          '.jp-NotebookPanel .jp-WindowedPanel-outer'
        );
        const cells = [
          ...document.querySelectorAll('.jp-Notebook .jp-CodeCell')
        ];
        const built = () =>
          cells.map(cell => cell.querySelector('.searchbook-Grid') !== null);
        if (!scroller) {
          return { before: [], after: [], seen: [], slowFrames: 0 };
        }
        // Where each cell lies in the scrolled content: places keep their heights unbuilt.
        const origin =
          scroller.getBoundingClientRect().top - scroller.scrollTop;
        const spans = cells.map(cell => {
          const box = cell.getBoundingClientRect();
          return { top: box.top - origin, bottom: box.bottom - origin };
        });
        const before = built();
        const seen = new Set<number>();
        // Half a screen in more than a third of a second is a reading pace by searchbook's
        // judgement (1.5 screens a second): a loaded machine's frame that slow may build a grid.
        let slowFrames = 0;
        let lastFrame = performance.now();
        await new Promise<void>(done => {
          const step = (): void => {
            const now = performance.now();
            if (now - lastFrame > 300) {
              slowFrames++;
            }
            lastFrame = now;
            const top = scroller.scrollTop;
            const bottom = top + scroller.clientHeight;
            spans.forEach((span, i) => {
              if (span.bottom > top && span.top < bottom) {
                seen.add(i);
              }
            });
            const end = scroller.scrollHeight - scroller.clientHeight;
            if (top >= end - 1) {
              done();
              return;
            }
            scroller.scrollTop = Math.min(end, top + scroller.clientHeight / 2);
            requestAnimationFrame(step);
          };
          requestAnimationFrame(step);
        });
        return { before, after: built(), seen: [...seen], slowFrames };
      });
      const passed = scrolled.seen.filter(
        i => !scrolled.before[i] && i < ANSWERS - 2
      );
      expect(passed.length).toBeGreaterThan(10);
      // Built while the scroll passed them: none at a fling's pace; a frame slowed past a
      // reading pace (by the throttle on a loaded machine) may let one be built, and two more
      // are allowed for the frames around it.
      expect(passed.filter(i => scrolled.after[i]).length).toBeLessThanOrEqual(
        2 + scrolled.slowFrames
      );
      // Where it stops, the grids are built and read from their answers.
      const last = cells.nth(ANSWERS).locator('.searchbook-Grid');
      await last.waitFor({ timeout: 30_000 });
      expect(await last.getAttribute('aria-rowcount')).toBe(String(ROWS));
    } finally {
      await reader.close();
    }
  });

  it('shows the rows of a grid far down once it is scrolled to, read from its saved answer', async () => {
    const last = ANSWERS - 1;
    const grid = await scrollTo(last);
    expect(await grid.getAttribute('aria-rowcount')).toBe(String(ROWS));
    expect(await brightnessOnceSettled(grid, false)).toBeGreaterThan(200);
    const ids = await copiedIds(last);
    expect(ids).toHaveLength(ROWS);
    // Its own page of products, not another answer's.
    const first = await copiedIds(0);
    expect(ids.filter(id => first.includes(id))).toEqual([]);
  });

  it('moves and speaks with the keyboard in a grid far down', async () => {
    const n = ANSWERS - 2;
    const grid = await scrollTo(n);
    await grid.click({ position: { x: 60, y: 40 } });
    await page.keyboard.press('ArrowDown');
    const announcer = grid.locator('xpath=..').locator('[data-grid-announcer]');
    await page.waitForFunction(
      node => /row \d+ of 20 rows/.test(node?.textContent ?? ''),
      await announcer.elementHandle(),
      { timeout: 10_000 }
    );
    expect(await grid.getAttribute('data-active-cell')).toMatch(/^\d+,\d+$/);
  });

  it('recolours every grid on a theme change, those on screen and those scrolled to after it', async () => {
    const before = await scrollTo(ANSWERS - 1);
    await runCommand(page, 'apputils:change-theme', {
      theme: 'JupyterLab Dark'
    });
    await page.waitForFunction(
      () => document.body.dataset.jpThemeLight === 'false',
      undefined,
      { timeout: 30_000 }
    );
    const darkBefore = await brightnessOnceSettled(before, true);
    expect(darkBefore).toBeLessThan(80);
    expect(darkBefore).toBeGreaterThanOrEqual(0);
    // A grid in the middle, off screen when the theme changed.
    const middle = Math.floor(ANSWERS / 2);
    const after = await scrollTo(middle);
    const darkAfter = await brightnessOnceSettled(after, true);
    expect(darkAfter).toBeLessThan(80);
    expect(darkAfter).toBeGreaterThanOrEqual(0);
    await runCommand(page, 'apputils:change-theme', {
      theme: 'JupyterLab Light'
    });
    await page.waitForFunction(
      () => document.body.dataset.jpThemeLight === 'true',
      undefined,
      { timeout: 30_000 }
    );
    expect(await brightnessOnceSettled(after, false)).toBeGreaterThan(200);
  });
});

describe('a saved answer over 64 KiB, kept compressed', () => {
  const ALL = ANSWERS * ROWS;
  interface Saved {
    cells: { outputs?: { data?: Record<string, Record<string, unknown>> }[] }[];
  }
  const hitsOf = (notebook: Saved) =>
    notebook.cells[1]?.outputs?.[0]?.data?.[HITS_MIME] ?? {};
  /** The engine's ids in the saved answer, read from the file as a script would. */
  let savedIds: string[];

  beforeAll(async () => {
    await writeNotebook(root, 'large.ipynb', [
      connectCell(),
      `GET /products/_search\n{"size": ${ALL}}`
    ]);
    const writer = await context.newPage();
    await openNotebook(writer, lab.open('large.ipynb'));
    await runAllCells(writer);
    await runCommand(writer, 'docmanager:save');
    await writer.waitForFunction(
      () => !document.querySelector('.jp-mod-dirty'),
      undefined,
      { timeout: 30_000 }
    );
    await writer.close();
    const saved = JSON.parse(
      await readFile(join(root, 'large.ipynb'), 'utf8')
    ) as Saved;
    const hits = hitsOf(saved);
    expect(hits.answerFormat).toBe('json, quotes swapped, gzip, base64');
    const swapped = gunzipSync(
      Buffer.from(String(hits.answer), 'base64')
    ).toString('utf8');
    const text = swapped.replace(/["']/g, q => (q === '"' ? "'" : '"'));
    savedIds = (
      JSON.parse(text) as { hits: { hits: { _id: string }[] } }
    ).hits.hits.map(h => h._id);
    expect(savedIds).toHaveLength(ALL);
    // The same notebook as searchbook saved it before answers were compressed.
    hits.answer = swapped;
    hits.answerFormat = 'json, quotes swapped';
    await writeFile(
      join(root, 'large-before.ipynb'),
      JSON.stringify(saved, null, 1)
    );
  });

  for (const [name, saved] of [
    ['large.ipynb', 'compressed'],
    ['large-before.ipynb', 'plain, as notebooks saved before keep it']
  ] as const) {
    it(`opens and shows every row and the Raw JSON of an answer saved ${saved}`, async () => {
      const reader = await context.newPage();
      try {
        await openNotebook(reader, lab.open(name));
        const output = cellOutput(reader, 1);
        const grid = output.locator('.searchbook-Grid');
        await grid.waitFor({ timeout: 60_000 });
        expect(await grid.getAttribute('aria-rowcount')).toBe(String(ALL));
        await output.getByRole('button', { name: 'Copy TSV' }).click();
        const tsv = await reader.evaluate(() => navigator.clipboard.readText());
        const [header, ...lines] = tsv.split('\n');
        const idColumn = (header ?? '').split('\t').indexOf('_id');
        expect(lines.map(line => line.split('\t')[idColumn])).toEqual(savedIds);
        await output.getByRole('button', { name: 'Raw JSON' }).click();
        const raw = output.locator('.searchbook-RawJson');
        await raw.waitFor({ state: 'visible' });
        const body = JSON.parse((await raw.textContent()) ?? '{}') as {
          hits: { hits: { _id: string }[] };
        };
        expect(body.hits.hits.map(h => h._id)).toEqual(savedIds);
      } finally {
        await reader.close();
      }
    });
  }
});
