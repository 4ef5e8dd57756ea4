import type { JupyterFrontEnd } from '@jupyterlab/application';
import { Notification } from '@jupyterlab/apputils';
import type { IConsoleTracker } from '@jupyterlab/console';
import type { INotebookTracker } from '@jupyterlab/notebook';
import type { Kernel } from '@jupyterlab/services';
import { copyText } from '../datagrid/clipboard';
import { PanelClient } from '../panel-client';

export const COPY_CELL_AS_CURL = 'searchbook:copy-cell-as-curl';

/** The current notebook's active cell or console's prompt, when the main area shows it and its kernel is searchbook's. */
export function currentCell(
  app: JupyterFrontEnd,
  notebooks: INotebookTracker | null,
  consoles: IConsoleTracker | null
): { source: string; kernel: Kernel.IKernelConnection } | undefined {
  const current = app.shell.currentWidget;
  if (!current) {
    return undefined;
  }
  const notebook = notebooks?.find(w => w === current);
  const console = consoles?.find(w => w === current);
  const panel = notebook ?? console;
  const cell = notebook
    ? notebook.content.activeCell
    : console?.console.promptCell;
  const kernel = panel?.sessionContext.session?.kernel;
  if (!kernel || kernel.name !== 'searchbook' || !cell) {
    return undefined;
  }
  return { source: cell.model.sharedModel.getSource(), kernel };
}

/** What was copied, and that a comment line explains a placeholder variable when there is one. */
function copiedMessage(commands: readonly string[]): string {
  const count = commands.filter(line => line.startsWith('curl ')).length;
  const what =
    count === 1
      ? 'Copied the request as a curl command.'
      : `Copied ${count} requests as curl commands.`;
  return commands.some(line => line.startsWith('# '))
    ? `${what} A comment line above it names the variable to set.`
    : what;
}

/**
 * "Copy as curl" in the context menu of a searchbook notebook's or console's cells: the kernel
 * turns the cell's requests into curl command lines (credentials as environment variables),
 * one per line, on the clipboard.
 */
export function addCopyCellAsCurl(
  app: JupyterFrontEnd,
  notebooks: INotebookTracker | null,
  consoles: IConsoleTracker | null
): void {
  app.commands.addCommand(COPY_CELL_AS_CURL, {
    label: 'Copy as curl',
    caption:
      'Copy the cell’s requests as curl command lines; credentials stay environment variables',
    isVisible: () => currentCell(app, notebooks, consoles) !== undefined,
    execute: async () => {
      const cell = currentCell(app, notebooks, consoles);
      if (!cell) {
        return;
      }
      const client = new PanelClient(cell.kernel);
      try {
        const reply = await client.request(
          { type: 'curl', cell: cell.source },
          'curl'
        );
        await copyText(reply.commands.join('\n'));
        Notification.success(copiedMessage(reply.commands), {
          autoClose: 4000
        });
      } catch (err) {
        // A cell without a request, no connection, a refused cell: said where the user looks, never thrown into the page.
        Notification.error(
          `Copy as curl: ${err instanceof Error ? err.message : String(err)}`,
          { autoClose: 8000 }
        );
      } finally {
        client.dispose();
      }
    }
  });
  app.contextMenu.addItem({
    command: COPY_CELL_AS_CURL,
    selector: '.jp-Notebook .jp-Cell',
    rank: 20
  });
  app.contextMenu.addItem({
    command: COPY_CELL_AS_CURL,
    selector: '.jp-CodeConsole .jp-Cell',
    rank: 20
  });
}
