import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { REPO } from './jupyter-lab';

/** The little of JupyterLab's app object the tests use (exposed by expose_app_in_browser). */
interface LabWindow {
  jupyterapp?: {
    commands: {
      execute(id: string, args?: Record<string, unknown>): Promise<unknown>;
    };
    shell: {
      currentWidget: null | {
        sessionContext?: {
          session?: { kernel?: { status: string } | null } | null;
        };
        content?: {
          widgets: ReadonlyArray<{
            model: { type: string; executionCount?: number | null };
          }>;
        };
      };
    };
  };
}

export const SCREENSHOTS = join(REPO, 'test-results', 'screenshots');

/** A notebook file JupyterLab can open, on the searchbook kernel. */
/** The kernel a written notebook names: searchbook's unless a test asks for another (a Python notebook of magics). */
export interface NotebookKernel {
  name: string;
  display_name: string;
  language: string;
}

const SEARCHBOOK_KERNEL: NotebookKernel = {
  display_name: 'searchbook',
  language: 'searchbook',
  name: 'searchbook'
};

export async function writeNotebook(
  dir: string,
  name: string,
  cells: string[],
  kernel: NotebookKernel = SEARCHBOOK_KERNEL
): Promise<string> {
  const notebook = {
    cells: cells.map(source => ({
      cell_type: 'code',
      execution_count: null,
      metadata: {},
      outputs: [],
      source
    })),
    metadata: {
      kernelspec: kernel,
      language_info: { name: kernel.language }
    },
    nbformat: 4,
    nbformat_minor: 5
  };
  await writeFile(join(dir, name), JSON.stringify(notebook, null, 1));
  return name;
}

/** Opens a notebook and waits until its kernel is idle. */
export async function openNotebook(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('.jp-NotebookPanel .jp-Notebook', {
    timeout: 60_000
  });
  await page.waitForFunction(
    () =>
      (window as LabWindow).jupyterapp?.shell.currentWidget?.sessionContext
        ?.session?.kernel?.status === 'idle',
    undefined,
    { timeout: 60_000 }
  );
}

/** Runs every cell, as Run > Run All Cells does, and waits until each has run and the kernel rests. */
export async function runAllCells(page: Page): Promise<void> {
  await page.evaluate(() =>
    (window as LabWindow).jupyterapp?.commands.execute('notebook:run-all-cells')
  );
  await page.waitForFunction(
    () => {
      const widget = (window as LabWindow).jupyterapp?.shell.currentWidget;
      const cells = widget?.content?.widgets ?? [];
      const ran = cells.every(
        cell =>
          cell.model.type !== 'code' ||
          typeof cell.model.executionCount === 'number'
      );
      return ran && widget?.sessionContext?.session?.kernel?.status === 'idle';
    },
    undefined,
    { timeout: 90_000, polling: 200 }
  );
}

export async function runCommand(
  page: Page,
  id: string,
  args: Record<string, unknown> = {}
): Promise<void> {
  await page.evaluate(
    ([command, commandArgs]) =>
      (window as LabWindow).jupyterapp?.commands.execute(command, commandArgs),
    [id, args] as const
  );
}

/** The output area of the n-th code cell (0-based). */
export function cellOutput(page: Page, index: number): Locator {
  return page
    .locator('.jp-Notebook .jp-CodeCell')
    .nth(index)
    .locator('.jp-OutputArea');
}

/**
 * The grids of an output once a reader has scrolled to it (an output builds its grid only when
 * it comes near the part of the page shown), waiting until `count` of them are built.
 */
export async function gridsShownIn(
  output: Locator,
  count = 1
): Promise<Locator> {
  await output.scrollIntoViewIfNeeded();
  const grids = output.locator('.searchbook-Grid');
  await grids.nth(count - 1).waitFor();
  return grids;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({
    path: join(SCREENSHOTS, `${name}.png`),
    fullPage: false
  });
}

/** Grid height minus what its header and rows need, with the horizontal scroll bar's state. */
export async function bandUnder(
  grid: Locator
): Promise<{ band: number; scrollsSideways: boolean }> {
  return grid.evaluate((node: HTMLElement) => {
    const rowHeight = Number(node.dataset.rowHeight);
    const rows = Math.min(Number(node.getAttribute('aria-rowcount')), 15);
    const bar = node.querySelector<HTMLElement>(
      '.lm-ScrollBar[data-orientation="horizontal"]'
    );
    const scrollsSideways =
      bar !== null &&
      !bar.classList.contains('lm-mod-hidden') &&
      bar.offsetHeight > 0;
    // Two header rows (name, type), the body rows, and the top and bottom border.
    return {
      band:
        node.getBoundingClientRect().height -
        (2 + rows) * rowHeight -
        2 -
        (scrollsSideways ? bar.offsetHeight : 0),
      scrollsSideways
    };
  });
}

/**
 * Runs `code` in the searchbook kernel of an open notebook or console, as a cell there does
 * (its iopub reaches every client, so the panel sees it ran), whichever tab is current;
 * resolves to the execution's status.
 */
export async function runInNotebookKernel(
  page: Page,
  code: string
): Promise<string | undefined> {
  return page.evaluate(async source => {
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
    return (await kernel?.requestExecute({ code: source }).done)?.content
      .status;
  }, code);
}
