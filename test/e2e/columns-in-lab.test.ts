/**
 * The panel document grid's columns, in a real JupyterLab in Chromium against the
 * Elasticsearch sandbox: widths fitted on open, the Columns chooser hiding and showing columns
 * (one always stays), a header dragged to a new place, the identifier pinned at the left while
 * the grid scrolls sideways (and another column pinned from the chooser), a width dragged, all
 * of it back when the index is opened again; and, with a column hidden and two swapped, an
 * edit, a copy and a sort still reach the right field, checked in the engine.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { createElasticsearchSandbox } from '@searchbook/sandbox/elasticsearch';
import { listen, type ListeningServer } from '@searchbook/sandbox/serve';
import { openPanelLab } from './support/panel-lab';
import type { RunningLab } from './support/jupyter-lab';
import { screenshot } from './support/notebook-page';
import {
  cellPoint,
  closeGrid,
  filterBar,
  gridOf,
  gridShows,
  gridTab,
  headerPoint,
  inGrid,
  openGrid,
  rowOf
} from './support/grid-page';

jest.setTimeout(180_000);

const EXTRA = ['z1', 'z2', 'z3', 'z4', 'z5', 'z6', 'z7', 'z8'];
const MAPPING = {
  properties: {
    name: { type: 'keyword' },
    note: { type: 'keyword' },
    qty: { type: 'integer' },
    ...Object.fromEntries(EXTRA.map(f => [f, { type: 'keyword' }]))
  }
};
const DOCS = Array.from({ length: 6 }, (_, n) => ({
  id: `w${n}`,
  source: {
    name: `Name ${n}`,
    note: `Note ${n}`,
    qty: n,
    // Wide enough that the grid scrolls sideways in a 1600 px window.
    ...Object.fromEntries(
      EXTRA.map(f => [f, `${f} of w${n}: a value long enough to be wide`])
    )
  }
}));

const TALL = 280;

let server: ListeningServer;
let esUrl = '';
let lab: RunningLab;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const es = createElasticsearchSandbox({
    version: '8.15.0',
    security: false,
    password: 'unused'
  });
  es.loadIndex('wide', MAPPING, DOCS);
  es.loadIndex(
    'tall',
    MAPPING,
    Array.from({ length: TALL }, (_, n) => ({
      id: `t${String(n).padStart(3, '0')}`,
      source: {
        name: `Name ${n}`,
        qty: n,
        ...Object.fromEntries(
          EXTRA.map(f => [f, `${f} of t${n}: a value long enough to be wide`])
        )
      }
    }))
  );
  server = await listen(es.handler, { port: 0 });
  esUrl = server.url;
  const root = await mkdtemp(join(tmpdir(), 'searchbook-e2e-columns-'));
  ({ lab, browser, page } = await openPanelLab({
    root,
    notebook: 'columns.ipynb',
    cells: [`%connect elasticsearch ${esUrl} name=es`],
    beforeOpen: async (opened, context, running) => {
      opened.setDefaultTimeout(30_000);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: running.url
      });
    }
  }));
});

afterAll(async () => {
  await browser?.close();
  await lab?.close();
  await server?.close();
});

const LABEL = 'wide · es';
const chooser = () => page.getByRole('dialog', { name: 'Columns' });

const shownColumns = async (): Promise<string[]> =>
  JSON.parse(
    (await gridOf(page, LABEL).getAttribute('data-columns')) ?? '[]'
  ) as string[];

const columnWidth = (column: string) =>
  inGrid<number, string>(
    page,
    LABEL,
    column,
    `return w.dataGrid.columnSize('body', w.model.columns.findIndex((c) => c.name === arg));`
  );

async function dragHeader(from: string, to: string): Promise<void> {
  const a = await headerPoint(page, LABEL, from);
  const b = await headerPoint(page, LABEL, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + (b.x > a.x ? 10 : -10), a.y, { steps: 2 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

async function openChooser(): Promise<Locator> {
  if (!(await chooser().isVisible())) {
    await gridTab(page, LABEL)
      .getByRole('button', { name: 'Columns', exact: true })
      .click();
  }
  await chooser().waitFor();
  return chooser();
}

async function closeChooser(): Promise<void> {
  await page.keyboard.press('Escape');
  await chooser().waitFor({ state: 'detached' });
}

async function columnsAre(expected: string[]): Promise<void> {
  await page.waitForFunction(
    ({ label, expected }) =>
      document
        .querySelector(`[role="grid"][aria-label="${label}"]`)
        ?.getAttribute('data-columns') === JSON.stringify(expected),
    { label: LABEL, expected }
  );
}

async function engineDoc(id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${esUrl}/wide/_doc/${id}`);
  return ((await response.json()) as { _source: Record<string, unknown> })
    ._source;
}

/**
 * What the pinned copy and the grid beneath draw in one full repaint of both, read from
 * `fillText`: at each height where the copy draws an identifier (`t123`) or a row number, the
 * grid draws the same row (its `z… of t123: …` cell, its own row number). Rows that disagree
 * are listed.
 */
function pinnedBeside(
  label: string
): Promise<{ rows: number; wrong: string[] }> {
  return inGrid<{ rows: number; wrong: string[] }, null>(
    page,
    label,
    null,
    `const g = w.dataGrid;
     const overlay = w.columnLayout.pinned.overlay;
     if (overlay.node.hidden) throw new Error('the pinned columns are not shown');
     const proto = CanvasRenderingContext2D.prototype;
     const fillText = proto.fillText;
     const pinned = new Map();
     const beneath = new Map();
     const at = (y) => Math.round(y);
     proto.fillText = function (text, x, y, ...rest) {
       const t = String(text);
       const id = /^t(\\d{3})$/.exec(t)?.[1] ?? /of t(\\d+):/.exec(t)?.[1];
       const kind = x < g.headerWidth && /^\\d+$/.test(t) ? 'row ' + t : id ? 'id ' + Number(id) : undefined;
       if (kind && this.canvas === overlay._buffer) {
         pinned.set(at(y) + (kind.startsWith('row') ? 'r' : 'i'), kind);
       } else if (kind && this.canvas === g._buffer && (kind.startsWith('row') || x >= overlay.node.offsetWidth)) {
         beneath.set(at(y) + (kind.startsWith('row') ? 'r' : 'i'), kind);
       }
       return fillText.call(this, text, x, y, ...rest);
     };
     g.repaintContent();
     overlay.repaintContent();
     return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
       proto.fillText = fillText;
       const wrong = [];
       let rows = 0;
       for (const [y, kind] of pinned) {
         if (!y.endsWith('i')) continue;
         rows++;
         if (beneath.get(y) !== kind) wrong.push('at y ' + y + ': pinned ' + kind + ', beside it ' + beneath.get(y));
       }
       for (const [y, kind] of pinned) {
         if (y.endsWith('r') && beneath.get(y) !== kind) wrong.push('at y ' + y + ': pinned ' + kind + ', beneath ' + beneath.get(y));
       }
       resolve({ rows, wrong });
     })));`
  );
}

const ALL = ['_id', '_index', 'name', 'note', 'qty', ...EXTRA];

describe('the document grid’s columns', () => {
  it('opens with the identifier and index as narrow as their text, no _score, and the identifier pinned', async () => {
    await openGrid(page, 'es', 'wide');
    expect(await shownColumns()).toEqual(ALL);
    // A browsing grid has no score to show.
    expect(await shownColumns()).not.toContain('_score');
    const idWidth = await columnWidth('_id');
    const indexWidth = await columnWidth('_index');
    expect(idWidth).toBeLessThan(120);
    expect(indexWidth).toBeLessThan(120);
    // The long values get room for their text (up to the cap), more than the short ones.
    expect(await columnWidth('z1')).toBeGreaterThan(idWidth * 2);
    const list = await openChooser();
    await expect(
      list.getByRole('checkbox', { name: 'Pin _id', exact: true }).isChecked()
    ).resolves.toBe(true);
    await closeChooser();
  });

  it('keeps the pinned identifier at the left while the grid scrolls sideways; a double-click there opens its value', async () => {
    const start = await cellPoint(page, LABEL, 0, 'name');
    await page.mouse.move(start.x, start.y);
    await page.mouse.wheel(5_000, 0);
    await page.waitForFunction(
      label =>
        document
          .querySelector(`[role="grid"][aria-label="${label}"]`)
          ?.getAttribute('data-pinned-shown') === '1',
      LABEL
    );
    const scrolled = await inGrid<number, null>(
      page,
      LABEL,
      null,
      'return w.dataGrid.scrollX;'
    );
    expect(scrolled).toBeGreaterThan(0);
    await screenshot(page, 'columns-pinned-scrolled');
    // Where the _id column stands when not scrolled: under the pointer now is the pinned copy.
    const point = await inGrid<{ x: number; y: number }, null>(
      page,
      LABEL,
      null,
      `const g = w.dataGrid; const box = g.node.getBoundingClientRect();
       return { x: box.x + g.headerWidth + 8, y: box.y + g.headerHeight + g.rowSize('body', 0) / 2 };`
    );
    await page.mouse.dblclick(point.x, point.y);
    const title = gridTab(page, LABEL).locator('.searchbook-ValueView-title');
    await expect(title.textContent()).resolves.toBe('_id · row 1');
    await expect(
      gridTab(page, LABEL).locator('.searchbook-ValueView-body').textContent()
    ).resolves.toBe(
      await inGrid<string, null>(
        page,
        LABEL,
        null,
        `return w.model.data('body', 0, w.model.columns.findIndex((c) => c.name === '_id'));`
      )
    );
    await gridTab(page, LABEL).locator('.searchbook-ValueView-close').click();
    await inGrid<void, null>(page, LABEL, null, 'w.dataGrid.scrollTo(0, 0);');
    await page.waitForFunction(
      label =>
        !document
          .querySelector(`[role="grid"][aria-label="${label}"]`)
          ?.hasAttribute('data-pinned-shown'),
      LABEL
    );
  });

  it('Ctrl-End from a cell brings the pinned identifier and row numbers down to the last rows with the others, in the same frame', async () => {
    const label = await openGrid(page, 'es', 'tall');
    const first = await cellPoint(page, label, 0, 'name');
    await page.mouse.click(first.x, first.y);
    await page.keyboard.press('Control+End');
    await page.waitForFunction(l => {
      const node = document.querySelector(`[role="grid"][aria-label="${l}"]`);
      return node?.getAttribute('data-pinned-shown') === '1';
    }, label);
    // Two frames: what Lumino paints after the scroll it was asked for.
    await page.evaluate(
      () =>
        new Promise(done =>
          requestAnimationFrame(() => requestAnimationFrame(done))
        )
    );
    // The pinned copy is a canvas of its own: its scroll position is what it paints.
    const scrolled = await inGrid<{ grid: number; pinned: number }, null>(
      page,
      label,
      null,
      `const g = w.dataGrid;
       const overlay = [...g.node.querySelectorAll('.searchbook-PinnedColumns')][0];
       const pinned = w.columnLayout.pinned.overlay;
       if (pinned.node !== overlay) throw new Error('no pinned overlay');
       return { grid: g.scrollY, pinned: pinned.scrollY };`
    );
    expect(scrolled.grid).toBeGreaterThan(0);
    expect(scrolled.pinned).toBe(scrolled.grid);
    await screenshot(page, 'columns-pinned-ctrl-end');
    await closeGrid(page, label);
  });

  it('after a jump, a sort, a filter cleared and a sideways scroll, the pinned identifier and row numbers draw the rows beside them', async () => {
    const label = await openGrid(page, 'es', 'tall');
    const sideways = async (): Promise<void> => {
      const start = await cellPoint(page, label, 0, 'name');
      await page.mouse.move(start.x, start.y);
      await page.mouse.wheel(5_000, 0);
      await gridShows(page, label, `return node.dataset.pinnedShown === '1';`);
    };
    const settled = async (): Promise<void> => {
      // The rows in view are loaded (a jump or a new view fetches them first).
      await page.waitForFunction(l => {
        type Shell = {
          widgets(area: string): Iterable<{
            title: { label: string };
            isVisible: boolean;
            dataGrid: {
              node: HTMLElement;
              scrollY: number;
              pageHeight: number;
              rowAt(region: 'body', offset: number): number;
              rowCount(region: 'body'): number;
            };
            model: { isLoaded(row: number): boolean };
          }>;
        };
        const w = [
          ...(
            window as unknown as { jupyterapp: { shell: Shell } }
          ).jupyterapp.shell.widgets('main')
        ].find(x => x.title.label === l && x.isVisible);
        const g = w?.dataGrid;
        if (!w || !g || g.node.dataset.view === 'loading') {
          return false;
        }
        const first = Math.max(0, g.rowAt('body', g.scrollY));
        const found = g.rowAt('body', g.scrollY + g.pageHeight - 1);
        const last = found < 0 ? g.rowCount('body') - 1 : found;
        for (let row = first; row <= last; row++) {
          if (!w.model.isLoaded(row)) {
            return false;
          }
        }
        return true;
      }, label);
      await page.evaluate(
        () =>
          new Promise(done =>
            requestAnimationFrame(() => requestAnimationFrame(done))
          )
      );
    };
    const expectInStep = async (when: string): Promise<void> => {
      await settled();
      const drawn = await pinnedBeside(label);
      // Every row the pinned copy draws, beside the grid's own row at the same height.
      expect({ when, rows: drawn.rows >= 10, wrong: drawn.wrong }).toEqual({
        when,
        rows: true,
        wrong: []
      });
    };

    await sideways();
    await expectInStep('scrolled sideways');
    await inGrid<void, null>(
      page,
      label,
      null,
      `const g = w.dataGrid; g.scrollTo(g.scrollX, g.maxScrollY / 2);`
    );
    await expectInStep('jumped to the middle');
    await page.mouse.wheel(0, 600);
    await expectInStep('wheeled down');
    // A click on the pinned identifier's header sorts the grid beneath: twice, the last rows first.
    const header = await inGrid<{ x: number; y: number }, null>(
      page,
      label,
      null,
      `const g = w.dataGrid; const box = g.node.getBoundingClientRect();
       return { x: box.x + g.headerWidth + 8, y: box.y + g.headerHeight / 2 };`
    );
    await page.mouse.click(header.x, header.y);
    await gridShows(
      page,
      label,
      `return node.dataset.sort?.includes('"asc"') === true;`
    );
    await settled();
    await page.mouse.click(header.x, header.y);
    await gridShows(
      page,
      label,
      `return node.dataset.sort?.includes('"desc"') === true;`
    );
    await sideways();
    await expectInStep('sorted, the last rows first');
    const raw = filterBar(page, label).getByRole('textbox', {
      name: 'Raw filter'
    });
    await raw.fill('qty:[100 TO 200]');
    await raw.press('Enter');
    await gridShows(
      page,
      label,
      `return node.getAttribute('aria-rowcount') === '101';`
    );
    await sideways();
    await inGrid<void, null>(
      page,
      label,
      null,
      `const g = w.dataGrid; g.scrollTo(g.scrollX, g.maxScrollY);`
    );
    await expectInStep('filtered, at the end');
    await filterBar(page, label).getByRole('button', { name: 'Clear' }).click();
    await gridShows(
      page,
      label,
      `return node.getAttribute('aria-rowcount') === '${TALL}';`
    );
    await sideways();
    await expectInStep('filter cleared');
    await page.keyboard.press('Control+End');
    await expectInStep('Ctrl-End');
    await closeGrid(page, label);
  });

  it('hides and shows columns from the chooser, one always stays shown', async () => {
    const list = await openChooser();
    await list.getByRole('checkbox', { name: 'qty', exact: true }).uncheck();
    await columnsAre(ALL.filter(c => c !== 'qty'));
    await list.getByRole('checkbox', { name: 'qty', exact: true }).check();
    await columnsAre(ALL);
    // Hide all but z8: its checkbox can no longer be unchecked.
    for (const name of ALL.filter(c => c !== 'z8')) {
      await list.getByRole('checkbox', { name, exact: true }).uncheck();
    }
    await columnsAre(['z8']);
    await expect(
      list.getByRole('checkbox', { name: 'z8', exact: true }).isDisabled()
    ).resolves.toBe(true);
    for (const name of ALL.filter(c => c !== 'z8')) {
      await list.getByRole('checkbox', { name, exact: true }).check();
    }
    await columnsAre(ALL);
    await closeChooser();
  });

  it('moves a column by dragging its header; a header click still sorts', async () => {
    await dragHeader('note', 'name');
    await columnsAre(['_id', '_index', 'note', 'name', 'qty', ...EXTRA]);
    // A click (no drag) on the moved header sorts by that column.
    const note = await headerPoint(page, LABEL, 'note');
    await page.mouse.click(note.x, note.y);
    await page.waitForFunction(
      label =>
        document
          .querySelector(`[role="grid"][aria-label="${label}"]`)
          ?.getAttribute('data-sort') ===
        '[{"column":"note","direction":"asc"}]',
      LABEL
    );
    await page.mouse.click(note.x, note.y);
    await page.mouse.click(note.x, note.y);
    await page.waitForFunction(
      label =>
        document
          .querySelector(`[role="grid"][aria-label="${label}"]`)
          ?.getAttribute('data-sort') === '[]',
      LABEL
    );
  });

  it('with a column hidden and two swapped, a typed cell is saved into its own field, and a copy names the columns shown', async () => {
    const list = await openChooser();
    await list.getByRole('checkbox', { name: 'qty', exact: true }).uncheck();
    await closeChooser();
    await columnsAre(['_id', '_index', 'note', 'name', ...EXTRA]);
    await page.waitForFunction(
      label =>
        Number(
          document
            .querySelector(`[role="grid"][aria-label="${label}"]`)
            ?.getAttribute('data-loaded-rows')
        ) > 0,
      LABEL
    );
    const row = await rowOf(page, LABEL, 'w2');
    expect(row).toBeGreaterThanOrEqual(0);
    const editor = gridOf(page, LABEL).locator('.lm-DataGrid-cellEditorWidget');
    const cell = await cellPoint(page, LABEL, row, 'name');
    await page.mouse.dblclick(cell.x, cell.y);
    await editor.waitFor();
    await editor.fill('Renamed 2');
    await editor.press('Enter');
    await editor.waitFor({ state: 'detached' });
    const editBar = gridTab(page, LABEL).getByRole('toolbar', {
      name: 'Editing'
    });
    await expect(editBar.getByRole('status').textContent()).resolves.toBe(
      '1 change pending'
    );
    await editBar.getByRole('button', { name: 'Save' }).click();
    await page.waitForFunction(
      label =>
        document
          .querySelector(`[role="grid"][aria-label="${label}"]`)
          ?.closest('.searchbook-DocumentGrid')
          ?.querySelector('.searchbook-EditBar [role="status"]')
          ?.textContent === 'No pending changes',
      LABEL
    );
    const stored = await engineDoc('w2');
    expect(stored).toMatchObject({ name: 'Renamed 2', note: 'Note 2', qty: 2 });

    // A copy of note..name on one row: the header line and the values in the order shown.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    const from = await cellPoint(page, LABEL, row, 'note');
    await page.mouse.click(from.x, from.y);
    const to = await cellPoint(page, LABEL, row, 'name');
    await page.keyboard.down('Shift');
    await page.mouse.click(to.x, to.y);
    await page.keyboard.up('Shift');
    await page.keyboard.press('Control+c');
    const copied = await page.waitForFunction(
      async () => {
        const text = await navigator.clipboard.readText();
        return text === '' ? false : text;
      },
      undefined,
      { polling: 100, timeout: 10_000 }
    );
    expect(await copied.jsonValue()).toBe('note\tname\nNote 2\tRenamed 2');
  });

  it('pins a column from the chooser, keeps a dragged width, and lays the columns out again when the index is opened anew', async () => {
    const list = await openChooser();
    await list.getByRole('checkbox', { name: 'Pin name', exact: true }).check();
    await closeChooser();
    await columnsAre(['_id', 'name', '_index', 'note', ...EXTRA]);
    const before = await columnWidth('note');
    const border = await headerPoint(page, LABEL, 'note', { at: 'right' });
    await page.mouse.move(border.x, border.y);
    await page.mouse.down();
    await page.mouse.move(border.x + 30, border.y, { steps: 3 });
    await page.mouse.move(border.x + 60, border.y, { steps: 3 });
    await page.mouse.up();
    const widened = await columnWidth('note');
    expect(widened).toBeGreaterThan(before + 40);

    // Scrolled sideways, both pinned columns stay at the left.
    const start = await cellPoint(page, LABEL, 0, 'note');
    await page.mouse.move(start.x, start.y);
    await page.mouse.wheel(5_000, 0);
    await page.waitForFunction(
      label =>
        document
          .querySelector(`[role="grid"][aria-label="${label}"]`)
          ?.getAttribute('data-pinned-shown') === '2',
      LABEL
    );

    await closeGrid(page, LABEL);
    await openGrid(page, 'es', 'wide');
    await columnsAre(['_id', 'name', '_index', 'note', ...EXTRA]);
    expect(await columnWidth('note')).toBe(widened);
    const reopened = await openChooser();
    await expect(
      reopened.getByRole('checkbox', { name: 'qty', exact: true }).isChecked()
    ).resolves.toBe(false);
    await expect(
      reopened
        .getByRole('checkbox', { name: 'Pin name', exact: true })
        .isChecked()
    ).resolves.toBe(true);
    // Reset columns: every column back, in the engine's order, the identifier pinned.
    await reopened.getByRole('button', { name: 'Reset columns' }).click();
    await columnsAre(ALL);
    await closeChooser();
    expect(await columnWidth('note')).toBeLessThan(widened);
  });
});
