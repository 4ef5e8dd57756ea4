import type { Locator, Page } from 'playwright-core';
import { screenshot } from './notebook-page';

/**
 * The side panel's document grid tabs as the browser suites reach them: each by its label
 * (`target · connection`, the tab's title and the grid's accessible name).
 */

export const gridOf = (page: Page, label: string): Locator =>
  page.getByRole('grid', { name: label, exact: true });

/** The grid's tab: its bars, status line and messages around the grid. */
export const gridTab = (page: Page, label: string): Locator =>
  gridOf(page, label).locator(
    'xpath=ancestor::*[contains(@class,"searchbook-DocumentGrid")][1]'
  );
export const editBar = (page: Page, label: string): Locator =>
  gridTab(page, label).getByRole('toolbar', { name: 'Editing' });
export const pendingCount = (page: Page, label: string): Locator =>
  editBar(page, label).getByRole('status');
export const editMessage = (page: Page, label: string): Locator =>
  editBar(page, label).getByRole('alert');
export const problemsOf = (page: Page, label: string): Locator =>
  gridTab(page, label).locator('.searchbook-Problems');
export const filterBar = (page: Page, label: string): Locator =>
  gridTab(page, label).getByRole('search', { name: 'Filter documents' });
export const statusLine = (page: Page, label: string): Locator =>
  gridTab(page, label).locator('.searchbook-DocumentGrid-status');

/**
 * Picks an action from one of the grid toolbar's menu buttons (Copy ▾, Document ▾), as a
 * mouse user does: the button, then the item.
 */
export async function toolbarAction(
  tab: Locator,
  menu: 'Copy' | 'Document',
  item: string
): Promise<void> {
  await tab.getByRole('button', { name: menu, exact: true }).click();
  await tab
    .page()
    .locator('.searchbook-ToolbarMenu')
    .getByRole('menuitem', { name: item })
    .click();
}

/** The grid's title in the main area's tab bars (the tab can carry a mark after the label). */
export const tabBarTab = (page: Page, label: string): Locator =>
  page.getByRole('tab', {
    name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)
  });

/** An index or collection under one connection in the panel's tree. */
export const targetInTree = (
  page: Page,
  connection: string,
  target: string
): Locator =>
  page
    .getByRole('tree', { name: 'searchbook connections' })
    .locator(
      `[role="treeitem"][aria-level="1"][data-connection="${connection}"] [role="treeitem"][aria-level="2"][aria-label^="${target} · "]`
    );

/** Double-clicks a target in the tree until its grid tab opens, then waits for its rows; returns the grid's label. */
export async function openGrid(
  page: Page,
  connection: string,
  target: string
): Promise<string> {
  const label = `${target} · ${connection}`;
  const item = targetInTree(page, connection, target);
  // The tree renders anew while it reloads (after cells ran): a double-click on a replaced item is lost, so try again.
  for (let attempt = 1; ; attempt++) {
    await item.waitFor({ timeout: 30_000 });
    await item.dblclick();
    const opened = await gridOf(page, label)
      .waitFor({ timeout: 10_000 })
      .then(
        () => true,
        () => false
      );
    if (opened) {
      break;
    }
    if (attempt === 3) {
      await screenshot(page, `open-failed-${target}-${connection}`);
      throw new Error(
        `${label} did not open (the panel says: "${await page.locator('.searchbook-Sidebar-message').textContent()}")`
      );
    }
  }
  await waitForRows(page, label);
  return label;
}

/** Waits until the grid is past loading and holds rows. */
export async function waitForRows(page: Page, label: string): Promise<void> {
  await page.waitForFunction(
    l => {
      const grid = document.querySelector(`[role="grid"][aria-label="${l}"]`);
      return (
        grid?.getAttribute('data-view') !== 'loading' &&
        Number(grid?.getAttribute('data-loaded-rows')) > 0
      );
    },
    label,
    { timeout: 30_000 }
  );
}

/** Closes the grid's tab by its close icon. */
export async function closeGrid(page: Page, label: string): Promise<void> {
  await tabBarTab(page, label)
    .locator('.lm-TabBar-tabCloseIcon')
    .first()
    .click();
  await gridOf(page, label).waitFor({ state: 'detached' });
}

/** Waits until `predicate`, the body of a function of the grid's node, returns true. */
export async function gridShows(
  page: Page,
  label: string,
  predicate: string
): Promise<void> {
  await page.waitForFunction(
    ({ label, predicate }) => {
      const node = document.querySelector(
        `[role="grid"][aria-label="${label}"]`
      ) as HTMLElement | null;
      return node !== null && new Function('node', predicate)(node) === true;
    },
    { label, predicate },
    { timeout: 30_000 }
  );
}

/** Evaluates `fn`, the body of a function of `w` and `arg`, against the visible grid tab's widget (its model and datagrid), found by its title. */
export async function inGrid<T, A>(
  page: Page,
  label: string,
  arg: A,
  fn: string
): Promise<T> {
  return page.evaluate(
    ({ label, arg, fn }) => {
      type Shell = {
        widgets(
          area: string
        ): Iterable<{ title: { label: string }; isVisible: boolean }>;
      };
      const shell = (window as unknown as { jupyterapp: { shell: Shell } })
        .jupyterapp.shell;
      const widget = [...shell.widgets('main')].find(
        w => w.title.label === label && w.isVisible
      );
      if (!widget) {
        throw new Error(`no grid tab ${label}`);
      }
      return new Function('w', 'arg', fn)(widget, arg) as T;
    },
    { label, arg, fn }
  );
}

/** The grid row showing the document with this id, among the first 200 (new rows first, then the documents; -1: not shown). */
export const rowOf = (page: Page, label: string, id: string) =>
  inGrid<number, string>(
    page,
    label,
    id,
    `const m = w.model; const c = Math.max(0, m.columns.findIndex((k) => k.primaryKey)); const n = m.rowCount('body'); for (let r = 0; r < Math.min(n, 200); r++) if (m.data('body', r, c) === arg) return r; return -1;`
  );

/** The text a body cell shows. */
export const cellText = (
  page: Page,
  label: string,
  row: number,
  column: string
) =>
  inGrid<string, { row: number; column: string }>(
    page,
    label,
    { row, column },
    `return w.model.data('body', arg.row, w.model.columns.findIndex((c) => c.name === arg.column));`
  );

/** The text a row's header shows (its number, with the marks of a pending change). */
export const rowHeader = (page: Page, label: string, row: number) =>
  inGrid<string, number>(
    page,
    label,
    row,
    `return w.model.data('row-header', arg, 0);`
  );

/**
 * Waits until a cell shows `text` (or, with `contain`, a text holding it), in the row of a
 * document's id or at a row number: another page's save, a refresh or a block read reaches the
 * grid by a read of its rows.
 */
export async function cellShows(
  page: Page,
  label: string,
  where: { id: string } | { row: number },
  column: string,
  text: string,
  match: 'equal' | 'contain' = 'equal'
): Promise<void> {
  await page.waitForFunction(
    ({ label, where, column, text, match }) => {
      type Model = {
        columns: { name: string; primaryKey?: boolean }[];
        rowCount(region: string): number;
        data(region: string, row: number, column: number): string;
      };
      type Shell = {
        widgets(
          area: string
        ): Iterable<{ title: { label: string }; model?: Model }>;
      };
      const shell = (window as unknown as { jupyterapp: { shell: Shell } })
        .jupyterapp.shell;
      const model = [...shell.widgets('main')].find(
        w => w.title.label === label
      )?.model;
      if (!model) {
        return false;
      }
      const at = model.columns.findIndex(c => c.name === column);
      let row = 'row' in where ? where.row : -1;
      if ('id' in where) {
        const key = Math.max(
          0,
          model.columns.findIndex(c => c.primaryKey)
        );
        const rows = Math.min(model.rowCount('body'), 200);
        for (let r = 0; r < rows && row < 0; r++) {
          if (model.data('body', r, key) === where.id) {
            row = r;
          }
        }
      }
      if (row < 0) {
        return false;
      }
      const shown = model.data('body', row, at);
      return match === 'equal' ? shown === text : shown.includes(text);
    },
    { label, where, column, text, match },
    { timeout: 30_000 }
  );
}

// The datagrid applies a scroll after the script that asked for it (a posted message): positions are read two frames later.
const AFTER_SCROLL = `return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(point()))));`;

/** Page coordinates of a body cell (or of its row's header), scrolled into view first. */
export async function cellPoint(
  page: Page,
  label: string,
  row: number,
  column: string | 'row-header'
): Promise<{ x: number; y: number }> {
  return inGrid<{ x: number; y: number }, { row: number; column: string }>(
    page,
    label,
    { row, column },
    `const g = w.dataGrid; const m = w.model;
     const c = m.columns.findIndex((k) => k.name === arg.column);
     g.scrollToCell(arg.row, Math.max(c, 0));
     const point = () => {
       const box = g.node.getBoundingClientRect();
       const y = g.headerHeight + g.rowOffset('body', arg.row) - g.scrollY + g.rowSize('body', arg.row) / 2;
       const x = arg.column === 'row-header' ? g.headerWidth / 2 : g.headerWidth + g.columnOffset('body', c) - g.scrollX + Math.min(g.columnSize('body', c) / 2, 40);
       return { x: box.x + x, y: box.y + y };
     };
     ${AFTER_SCROLL}`
  );
}

/**
 * Page coordinates of a column's name in the header: its middle, or (`at: 'right'`) just inside
 * its right border, where a drag resizes it. `scroll` brings the column into view first; a
 * drag between two headers measures both without scrolling, so that the first stays put.
 */
export async function headerPoint(
  page: Page,
  label: string,
  column: string,
  options: { at?: 'middle' | 'right'; scroll?: boolean } = {}
): Promise<{ x: number; y: number }> {
  return inGrid<
    { x: number; y: number },
    { column: string; at: string; scroll: boolean }
  >(
    page,
    label,
    {
      column,
      at: options.at ?? 'middle',
      scroll: options.scroll ?? false
    },
    `const g = w.dataGrid; const c = w.model.columns.findIndex((k) => k.name === arg.column);
     if (c < 0) throw new Error('no column ' + arg.column);
     const point = () => {
       const box = g.node.getBoundingClientRect();
       const left = g.headerWidth + g.columnOffset('body', c) - g.scrollX;
       const x = arg.at === 'right' ? left + g.columnSize('body', c) - 2 : left + Math.min(g.columnSize('body', c) / 2, 40);
       return { x: box.x + x, y: box.y + g.rowSize('column-header', 0) / 2 };
     };
     if (!arg.scroll) return point();
     g.scrollToColumn(c);
     ${AFTER_SCROLL}`
  );
}

/** Types into a cell (at a row, or in the row of a document's id) as a user does: double-click, replace the text, Enter (Ctrl-Enter in a JSON cell). */
export async function typeInto(
  page: Page,
  label: string,
  where: number | { id: string },
  column: string,
  text: string
): Promise<void> {
  const editor = gridOf(page, label).locator('.lm-DataGrid-cellEditorWidget');
  for (let attempt = 1; !(await editor.isVisible()); attempt++) {
    const row =
      typeof where === 'number' ? where : await rowOf(page, label, where.id);
    const point = await cellPoint(page, label, row, column);
    await page.waitForTimeout(50);
    await page.mouse.dblclick(point.x, point.y);
    const shown = await editor.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false
    );
    if (shown) {
      break;
    }
    if (attempt === 3) {
      await screenshot(page, 'grid-no-editor');
      throw new Error(
        `no editor on ${column} of ${typeof where === 'number' ? `row ${where}` : where.id} (the editing bar says: "${await editMessage(page, label).textContent()}")`
      );
    }
  }
  await editor.fill(text);
  await editor.press(
    (await editor.evaluate(n => n.tagName)) === 'TEXTAREA'
      ? 'Control+Enter'
      : 'Enter'
  );
  await editor.waitFor({ state: 'detached' });
}

/** Save on the editing bar; returns the bar's message once it no longer says Saving. */
export async function saveEdits(page: Page, label: string): Promise<string> {
  await editBar(page, label).getByRole('button', { name: 'Save' }).click();
  await page.waitForFunction(
    l =>
      !/^Saving/.test(
        document
          .querySelector(`[role="grid"][aria-label="${l}"]`)
          ?.closest('.searchbook-DocumentGrid')
          ?.querySelector('.searchbook-EditBar-message')?.textContent ??
          'Saving'
      ),
    label,
    { timeout: 30_000 }
  );
  return (await editMessage(page, label).textContent()) ?? '';
}

/** Adds a row to the filter bar and fills it (Apply is left to the caller); returns the row. */
export async function addFilterRow(
  page: Page,
  label: string,
  filter: { row: number; column: string; operator: string; value: string }
): Promise<Locator> {
  const bar = filterBar(page, label);
  await bar.getByRole('button', { name: 'Add filter' }).click();
  const row = bar.getByRole('group', { name: `Filter row ${filter.row}` });
  await row
    .getByRole('combobox', { name: 'Column' })
    .selectOption(filter.column);
  await row
    .getByRole('combobox', { name: 'Operator' })
    .selectOption(filter.operator);
  await row.getByRole('textbox', { name: 'Value' }).fill(filter.value);
  return row;
}

/** Waits until the grid tab's status line matches `pattern`. */
export async function statusShows(
  page: Page,
  label: string,
  pattern: RegExp,
  timeout = 30_000
): Promise<void> {
  await page.waitForFunction(
    ({ label, source, flags }) =>
      new RegExp(source, flags).test(
        document
          .querySelector(`[role="grid"][aria-label="${label}"]`)
          ?.closest('.searchbook-DocumentGrid')
          ?.querySelector('.searchbook-DocumentGrid-status')?.textContent ?? ''
      ),
    { label, source: pattern.source, flags: pattern.flags },
    { timeout }
  );
}
