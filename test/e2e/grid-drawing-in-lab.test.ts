/**
 * What a panel grid and a notebook output's grid draw on their canvas, read in a real JupyterLab
 * in Chromium against the sandbox Elasticsearch: the type line under `_id` and `_index`
 * ("keyword · read-only") keeps its type whole inside the column (never "keywor"), and a stored
 * null is drawn as a grey, italic "null" where an empty text draws nothing, so the two no longer
 * look the same (and, in an output, are said apart too).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { openPanelLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { cellOutput, runAllCells, screenshot } from './support/notebook-page';
import { gridOf, inGrid, openGrid, rowOf } from './support/grid-page';

jest.setTimeout(180_000);

const LABEL = 'films · es';

let server: ListeningServer;
let lab: RunningLab;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex(
    'films',
    { properties: { title: { type: 'keyword' }, n: { type: 'long' } } },
    [
      { id: 'f0', source: { title: 'Film 0', n: 0 } },
      { id: 'f1', source: { title: null, n: 1 } },
      { id: 'f2', source: { title: '', n: 2 } }
    ]
  );
  server = await listen(es.handler, { port: 0 });
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-drawing-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'drawing.ipynb',
    cells: [
      `%connect elasticsearch ${server.url} name=es`,
      'GET /films/_search'
    ],
    // Type lines ("keyword…"), null marks, the ids placing each row and the title column's name,
    // as the page's grids draw them, from the page's first frame.
    beforeOpen: async opened => {
      await opened.addInitScript(() => {
        const drawn: unknown[] = [];
        Object.assign(window, { typeLines: drawn });
        const proto = CanvasRenderingContext2D.prototype;
        const fillText = proto.fillText;
        proto.fillText = function (text: string, x: number, y: number) {
          if (/^(keyword|null$|f\d$|title$)/.test(String(text))) {
            drawn.push({
              text: String(text),
              x,
              y,
              font: this.font,
              color: String(this.fillStyle),
              width: this.measureText(String(text)).width
            });
          }
          fillText.call(this, text, x, y);
        };
      });
    }
  }));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await server?.close();
});

/** A text the grid drew: where (page pixels of its canvas), in which font and colour, how wide. */
interface Drawn {
  text: string;
  x: number;
  y: number;
  font: string;
  color: string;
  width: number;
}

/** A cell's box in the grid's canvas, in CSS pixels. */
interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Every text the grid draws in one full repaint: `fillText` is watched while the
 * grid paints everything again, the way it draws after any change.
 */
function drawnTexts(): Promise<Drawn[]> {
  return inGrid<Drawn[], null>(
    page,
    LABEL,
    null,
    `const g = w.dataGrid;
     // Cells are painted into the grid's buffer, then copied to the canvas on screen.
     const canvas = g._buffer;
     const proto = CanvasRenderingContext2D.prototype;
     const fillText = proto.fillText;
     const drawn = [];
     proto.fillText = function (text, x, y, ...rest) {
       if (this.canvas === canvas) {
         drawn.push({ text: String(text), x, y, font: this.font, color: String(this.fillStyle), width: this.measureText(String(text)).width });
       }
       return fillText.call(this, text, x, y, ...rest);
     };
     g.repaintContent();
     return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
       proto.fillText = fillText;
       resolve(drawn);
     })));`
  );
}

/** The box of a column's header line `row` (0: its name, 1: its type), or of a body cell. */
function boxOf(
  column: string,
  where: { header: number } | { row: number }
): Promise<Box> {
  return inGrid<Box, { column: string; where: typeof where }>(
    page,
    LABEL,
    { column, where },
    `const g = w.dataGrid;
     const c = w.model.columns.findIndex((k) => k.name === arg.column);
     if (c < 0) throw new Error('no column ' + arg.column);
     const left = g.headerWidth + g.columnOffset('body', c) - g.scrollX;
     const width = g.columnSize('body', c);
     if ('header' in arg.where) {
       return { left, width, top: g.rowOffset('column-header', arg.where.header), height: g.rowSize('column-header', arg.where.header) };
     }
     return { left, width, top: g.headerHeight + g.rowOffset('body', arg.where.row) - g.scrollY, height: g.rowSize('body', arg.where.row) };`
  );
}

const inside = (d: Drawn, box: Box): boolean =>
  d.x >= box.left &&
  d.x < box.left + box.width &&
  d.y > box.top &&
  d.y <= box.top + box.height;

/** Pixels of a grid's canvas inside a box (its borders left out) that differ from the box's background. */
function inkIn(grid: Locator, box: Box): Promise<number> {
  return grid.evaluate((node, arg) => {
    const canvas = node.querySelector('canvas');
    const context = canvas?.getContext('2d');
    if (!context) {
      throw new Error('the grid has no canvas');
    }
    const ratio = window.devicePixelRatio;
    const data = context.getImageData(
      Math.ceil((arg.left + 2) * ratio),
      Math.ceil((arg.top + 2) * ratio),
      Math.floor((arg.width - 4) * ratio),
      Math.floor((arg.height - 4) * ratio)
    ).data;
    const [r0 = 0, g0 = 0, b0 = 0] = data;
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) {
      const off =
        Math.abs((data[i] ?? 0) - r0) +
        Math.abs((data[i + 1] ?? 0) - g0) +
        Math.abs((data[i + 2] ?? 0) - b0);
      if (off > 60) {
        ink++;
      }
    }
    return ink;
  }, box);
}

const typeLine = (column: string) =>
  inGrid<string, string>(
    page,
    LABEL,
    column,
    `return w.model.data('column-header', 1, w.model.columns.findIndex((k) => k.name === arg));`
  );

/** What the page's grids drew so far (see the init script), and where an output grid's columns and rows lie. */
async function outputDrawing(grid: Locator): Promise<{
  drawn: Drawn[];
  columns: string[];
  column: (name: string) => [number, number];
  rowHeight: number;
}> {
  const drawn = await page.evaluate(
    () => (window as unknown as { typeLines: Drawn[] }).typeLines
  );
  const columns = JSON.parse(
    (await grid.getAttribute('data-columns')) ?? '[]'
  ) as string[];
  const edges = JSON.parse(
    (await grid.getAttribute('data-column-edges')) ?? '[]'
  ) as number[];
  const rowHeight = Number(await grid.getAttribute('data-row-height'));
  return {
    drawn,
    columns,
    rowHeight,
    column: name => {
      const c = columns.indexOf(name);
      const [left = 0, right = 0] = edges.slice(c, c + 2);
      return [left, right];
    }
  };
}

it('in a notebook output, the type lines of _id and _index end in "…" inside their columns, "keyword" whole', async () => {
  const grid = cellOutput(page, 1).locator('.searchbook-Grid');
  await grid.waitFor({ timeout: 30_000 });
  // The cell run again: its new grid's drawing, watched from the first frame.
  await page.evaluate(() => {
    (window as unknown as { typeLines: Drawn[] }).typeLines.length = 0;
  });
  await runAllCells(page);
  await page.waitForFunction(
    () => (window as unknown as { typeLines: Drawn[] }).typeLines.length >= 2,
    undefined,
    { timeout: 20_000 }
  );
  await page.waitForTimeout(500);
  const { drawn, column: edgesOf } = await outputDrawing(grid);
  for (const column of ['_id', '_index']) {
    const [left, right] = edgesOf(column);
    const lines = drawn.filter(
      d => d.x >= left && d.x < right && /^keyword/.test(d.text)
    );
    // What stays on screen: the last drawing (the first frames may come before the widths fit).
    const line = lines[lines.length - 1];
    expect({ column, text: line?.text }).toEqual({
      column,
      text: expect.stringMatching(/^keyword(?![a-z]).*…$/)
    });
    expect((line?.x ?? 0) + (line?.width ?? Infinity)).toBeLessThanOrEqual(
      right
    );
  }
  await screenshot(page, 'grid-drawing-output-type-lines');
});

it('in a notebook output, a stored null is drawn as a grey italic "null" and said "null"; an empty text draws nothing and is said "empty"', async () => {
  const grid = cellOutput(page, 1).locator('.searchbook-Grid');
  // What the first test's run drew, the last drawing of each row being what stays on screen.
  const { drawn, columns, column, rowHeight } = await outputDrawing(grid);
  const [idLeft, idRight] = column('_id');
  const [left, right] = column('title');
  const idOf = (id: string): Drawn | undefined =>
    drawn.filter(d => d.text === id && d.x >= idLeft && d.x < idRight).pop();
  // Header and body rows are all rowHeight high: the row holding a text starts at the multiple below it.
  const titleOf = (id: string): { cell: Box; texts: Drawn[] } => {
    const top = Math.floor((idOf(id)?.y ?? -1) / rowHeight) * rowHeight;
    return {
      cell: { left, width: right - left, top, height: rowHeight },
      texts: drawn.filter(
        d => d.x >= left && d.x < right && d.y >= top && d.y < top + rowHeight
      )
    };
  };
  const held = titleOf('f1');
  const empty = titleOf('f2');
  expect(held.texts.map(d => d.text)).toContain('null');
  expect(empty.texts).toEqual([]);
  const mark = held.texts.find(d => d.text === 'null');
  expect(mark?.font).toMatch(/^italic /);
  // Muted: another colour than a value's text (the row's id).
  expect(mark?.color).not.toBe(idOf('f1')?.color);
  expect(idOf('f1')?.font).not.toMatch(/italic/);
  // And on the screen: ink in the null cell, none in the empty one.
  await expect(inkIn(grid, held.cell)).resolves.toBeGreaterThan(10);
  await expect(inkIn(grid, empty.cell)).resolves.toBe(0);

  // Said apart too: the live region names what a blank cell holds.
  const announcer = grid.locator('xpath=..').locator('[data-grid-announcer]');
  await grid.focus();
  await page.keyboard.press('Control+Home');
  for (let c = 0; c < columns.indexOf('title'); c++) {
    await page.keyboard.press('ArrowRight');
  }
  const said: string[] = [];
  for (let row = 1; row <= 3; row++) {
    await page.waitForFunction(
      ([node, r]) =>
        new RegExp(`^title, row ${String(r)} of`).test(
          (node as Element).textContent ?? ''
        ),
      [await announcer.elementHandle(), row] as const
    );
    said.push(((await announcer.textContent()) ?? '').replace(/^.*: /, ''));
    await page.keyboard.press('ArrowDown');
  }
  expect(said).toEqual(['Film 0', 'null', 'empty']);
});

it('in a notebook output, a column name, a type line and a value are each drawn centred in their row as Lumino measures their font', async () => {
  const grid = cellOutput(page, 1).locator('.searchbook-Grid');
  const { drawn, rowHeight } = await outputDrawing(grid);
  const texts = [
    drawn.filter(d => d.text === 'title').pop(),
    drawn.filter(d => /^keyword/.test(d.text)).pop(),
    drawn.filter(d => d.text === 'f0').pop()
  ];
  expect(texts.map(d => d?.text)).toEqual([
    'title',
    expect.stringMatching(/^keyword/),
    'f0'
  ]);
  // Lumino's own measure of a font's height: a node holding "M" in the font as a canvas writes
  // it, added to the page.
  const heights = await page.evaluate(
    fonts =>
      fonts.map(font => {
        const canvas = document.createElement('canvas').getContext('2d');
        const node = document.createElement('div');
        node.style.position = 'absolute';
        node.style.top = '-99999px';
        node.style.left = '-99999px';
        node.style.visibility = 'hidden';
        node.textContent = 'M';
        if (canvas) {
          canvas.font = font;
          node.style.font = canvas.font;
        }
        document.body.append(node);
        const height = node.offsetHeight;
        node.remove();
        return height;
      }),
    texts.map(d => d?.font ?? '')
  );
  // Every header and body row is rowHeight high, so a row's middle lies half a row past a
  // multiple of it; Lumino draws on the text's bottom line, half the font's height below that.
  const offRowMiddle = texts.map((d, i) => {
    const middle = (d?.y ?? Number.NaN) - (heights[i] ?? 0) / 2;
    return (((middle - rowHeight / 2) % rowHeight) + rowHeight) % rowHeight;
  });
  expect(offRowMiddle).toEqual([0, 0, 0]);
  // The column name is bold, the others are not: two fonts measured.
  expect(texts[0]?.font).toMatch(/bold/);
  expect(texts[2]?.font).not.toMatch(/bold/);
});

it('the type lines of _id and _index keep "keyword" whole inside their columns', async () => {
  await openGrid(page, 'es', 'films');
  await screenshot(page, 'grid-drawing-type-lines');
  const drawn = await drawnTexts();
  for (const column of ['_id', '_index']) {
    const type = await typeLine(column);
    expect(type.split(' · ')[0]).toBe('keyword');
    const box = await boxOf(column, { header: 1 });
    const line = drawn.filter(d => inside(d, box));
    expect(line.map(d => d.text)).toHaveLength(1);
    const [shown] = line as [Drawn];
    // The type itself is drawn whole ("keyword", then "…" where the rest is cut) ...
    expect({ column, text: shown.text }).toEqual({
      column,
      text: expect.stringMatching(/^keyword(?![a-z])/)
    });
    // ... and it ends inside the column: nothing of it is cut off by the next one.
    expect(shown.x + shown.width).toBeLessThanOrEqual(box.left + box.width);
  }
});

it('a stored null is drawn as a grey italic "null"; an empty text draws nothing', async () => {
  const nullRow = await rowOf(page, LABEL, 'f1');
  const emptyRow = await rowOf(page, LABEL, 'f2');
  const textRow = await rowOf(page, LABEL, 'f0');
  expect([nullRow, emptyRow, textRow].every(r => r >= 0)).toBe(true);
  const drawn = await drawnTexts();
  const nullBox = await boxOf('title', { row: nullRow });
  const emptyBox = await boxOf('title', { row: emptyRow });
  const textBox = await boxOf('title', { row: textRow });
  const inNull = drawn.filter(d => inside(d, nullBox));
  const inText = drawn.filter(d => inside(d, textBox));
  expect(inNull.map(d => d.text)).toEqual(['null']);
  expect(inText.map(d => d.text)).toEqual(['Film 0']);
  const [mark] = inNull as [Drawn];
  const [text] = inText as [Drawn];
  expect(mark.font).toMatch(/^italic /);
  expect(text.font).not.toMatch(/italic/);
  // Muted: another colour than a value's text.
  expect(mark.color).not.toBe(text.color);
  expect(drawn.filter(d => inside(d, emptyBox))).toEqual([]);
  // And on the screen: ink in the null cell, none in the empty one.
  await expect(inkIn(gridOf(page, LABEL), nullBox)).resolves.toBeGreaterThan(
    10
  );
  await expect(inkIn(gridOf(page, LABEL), emptyBox)).resolves.toBe(0);
  await screenshot(page, 'grid-drawing-null-and-empty');
});
