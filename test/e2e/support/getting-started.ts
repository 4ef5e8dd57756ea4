import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO } from './jupyter-lab';
import {
  addFilterRow,
  editBar,
  filterBar,
  gridOf,
  gridShows,
  headerPoint,
  openGrid,
  statusShows,
  typeInto
} from './grid-page';
import { showPanel } from './panel-lab';

/**
 * docs/getting-started.md read as a newcomer reads it: the cells it says to type and the names
 * it says to click, taken from the page so that the browser test and the pictures follow the
 * page as it is written, not a copy of it.
 */
export interface GettingStartedSteps {
  /** The kernel the Launcher card is named after, under Notebook. */
  launcherCard: string;
  /** The console cells the page says to type, in order (its ```searchbook blocks). */
  cells: string[];
  /** The index the page says to double-click in the panel. */
  index: string;
  filter: { column: string; operator: string; value: string };
  /** The header clicked twice: descending. */
  sortColumn: string;
  edit: { column: string; value: string };
}

export const GETTING_STARTED = join(REPO, 'docs', 'getting-started.md');

function find(text: string, pattern: RegExp, what: string): RegExpExecArray {
  const found = pattern.exec(text);
  if (!found) {
    throw new Error(
      `docs/getting-started.md no longer says ${what} (${pattern.source})`
    );
  }
  return found;
}

export async function readGettingStarted(): Promise<GettingStartedSteps> {
  const text = (await readFile(GETTING_STARTED, 'utf8')).replace(/\r\n/g, '\n');
  const cells = [...text.matchAll(/^```searchbook\n([\s\S]*?)^```$/gm)].map(m =>
    (m[1] ?? '').trimEnd()
  );
  // Prose is wrapped anywhere: read it as one line.
  const prose = text.replace(/\s+/g, ' ');
  const card = find(
    prose,
    /under \*\*Notebook\*\*, click \*\*([^*]+)\*\*/,
    'which Launcher card to click'
  );
  const index = find(
    prose,
    /Double-click \*\*([^*]+)\*\*/,
    'which index to open'
  );
  const filter = find(
    prose,
    /Column \*\*([^*]+)\*\*, Operator \*\*([^*]+)\*\*, Value \*\*([^*]+)\*\*/,
    'which filter to set'
  );
  const sort = find(
    prose,
    /Click the \*\*([^*]+)\*\* header twice/,
    'which header to sort by'
  );
  const edit = find(
    prose,
    /first row's \*\*([^*]+)\*\* cell, type \*\*([^*]+)\*\*/,
    'which cell to edit'
  );
  return {
    launcherCard: card[1] as string,
    cells,
    index: index[1] as string,
    filter: {
      column: filter[1] as string,
      operator: filter[2] as string,
      value: filter[3] as string
    },
    sortColumn: sort[1] as string,
    edit: { column: edit[1] as string, value: edit[2] as string }
  };
}

/** What a step of the walk leaves on screen, for the pictures. */
export type StepName =
  | 'searched'
  | 'grid-open'
  | 'filtered'
  | 'sorted'
  | 'edited'
  | 'requests'
  | 'saved';

export interface WalkResult {
  /** The connection the page's `%connect` opened, as the panel names it. */
  connection: string;
  /** The grid tab's label (`index · connection`). */
  label: string;
  /** What Show requests listed before Save. */
  requests: string;
}

/**
 * Follows the page's steps 2 to 7 in a JupyterLab just opened on its Launcher: a new
 * searchbook notebook, the cells typed and run, the index opened from the panel, filtered,
 * sorted, one cell edited and saved. `after` runs once each step is on screen.
 */
export async function walkGettingStarted(
  page: Page,
  steps: GettingStartedSteps,
  after: (step: StepName) => Promise<void> = async () => undefined
): Promise<WalkResult> {
  await page
    .locator(
      `.jp-LauncherCard[data-category="Notebook"][title="${steps.launcherCard}"]`
    )
    .click();
  await page.waitForFunction(
    () =>
      (
        window as unknown as {
          jupyterapp?: {
            shell: {
              currentWidget: null | {
                sessionContext?: {
                  session?: { kernel?: { status: string } | null } | null;
                };
              };
            };
          };
        }
      ).jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel
        ?.status === 'idle',
    undefined,
    { timeout: 60_000 }
  );
  const cells = page.locator('.jp-NotebookPanel:visible .jp-CodeCell');
  for (const [n, source] of steps.cells.entries()) {
    const editor = cells.nth(n).locator('.cm-content');
    await editor.click();
    await page.keyboard.insertText(source);
    await page.keyboard.press('Shift+Enter');
    // The cell has run once its prompt holds a number; its output is then on screen.
    await page.waitForFunction(
      index => {
        const all = document.querySelectorAll(
          '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell'
        );
        const prompt = all.item(index)?.querySelector('.jp-InputPrompt');
        return /\[\d+\]/.test(prompt?.textContent ?? '');
      },
      n,
      { timeout: 60_000 }
    );
  }
  const connected = await cells.first().locator('.jp-OutputArea').innerText();
  const connection = find(connected, /as "([^"]+)"/, 'a connection name')[1];
  if (!connection) {
    throw new Error(`the first cell did not connect: ${connected}`);
  }
  await cells
    .nth(steps.cells.length - 1)
    .getByRole('grid')
    .first()
    .waitFor({ timeout: 30_000 });
  await after('searched');

  await showPanel(page);
  const label = await openGrid(page, connection, steps.index);
  await after('grid-open');

  const bar = filterBar(page, label);
  await addFilterRow(page, label, { row: 1, ...steps.filter });
  const before = await gridOf(page, label).getAttribute('aria-rowcount');
  await bar.getByRole('button', { name: 'Apply' }).click();
  await gridShows(
    page,
    label,
    `return node.getAttribute('aria-rowcount') !== ${JSON.stringify(before)} && node.getAttribute('data-view') !== 'loading'`
  );
  await statusShows(page, label, /rows loaded/);
  await after('filtered');

  for (const direction of ['asc', 'desc']) {
    const point = await headerPoint(page, label, steps.sortColumn, {
      scroll: true
    });
    await page.mouse.click(point.x, point.y);
    await gridShows(
      page,
      label,
      `return node.dataset.sort === ${JSON.stringify(JSON.stringify([{ column: steps.sortColumn, direction }]))} && node.getAttribute('data-view') !== 'loading'`
    );
    await statusShows(page, label, /rows loaded/);
  }
  await after('sorted');

  await typeInto(page, label, 0, steps.edit.column, steps.edit.value);
  await editBar(page, label)
    .getByRole('status')
    .filter({ hasText: '1 change pending' })
    .waitFor({ timeout: 10_000 });
  await after('edited');

  await editBar(page, label)
    .getByRole('button', { name: 'Show requests' })
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const requests = (await dialog.getByLabel('Requests').textContent()) ?? '';
  await after('requests');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });

  await editBar(page, label).getByRole('button', { name: 'Save' }).click();
  await editBar(page, label)
    .getByRole('status')
    .filter({ hasText: 'No pending changes' })
    .waitFor({ timeout: 30_000 });
  await after('saved');
  return { connection, label, requests };
}
