import type { JupyterFrontEnd } from '@jupyterlab/application';
import { Notification } from '@jupyterlab/apputils';
import type { IConsoleTracker } from '@jupyterlab/console';
import type { INotebookTracker } from '@jupyterlab/notebook';
import { copyText } from '../datagrid/clipboard';
import { PanelClient } from '../panel-client';
import { currentCell } from './copy-cell-as-curl';
import { pythonCopiedMessage } from './python-copied';

export const COPY_CELL_AS_PYTHON = 'searchbook:copy-cell-as-python';

/**
 * "Copy as Python" beside "Copy as curl" in the context menu of a searchbook notebook's or
 * console's cells: the kernel turns the cell's requests into code for the engine's official
 * Python client, which reads the credentials from the environment, and it goes on the clipboard.
 */
export function addCopyCellAsPython(
  app: JupyterFrontEnd,
  notebooks: INotebookTracker | null,
  consoles: IConsoleTracker | null
): void {
  app.commands.addCommand(COPY_CELL_AS_PYTHON, {
    label: 'Copy as Python',
    caption:
      'Copy the cell’s requests as Python code for the engine’s official client; credentials are read from environment variables',
    isVisible: () => currentCell(app, notebooks, consoles) !== undefined,
    execute: async () => {
      const cell = currentCell(app, notebooks, consoles);
      if (!cell) {
        return;
      }
      const client = new PanelClient(cell.kernel);
      try {
        const reply = await client.request(
          { type: 'python', cell: cell.source },
          'python'
        );
        await copyText(reply.code);
        Notification.success(pythonCopiedMessage(reply.code, reply.requests), {
          autoClose: 4000
        });
      } catch (err) {
        // A cell without a request, no connection, a refused cell: said where the user looks.
        Notification.error(
          `Copy as Python: ${err instanceof Error ? err.message : String(err)}`,
          { autoClose: 8000 }
        );
      } finally {
        client.dispose();
      }
    }
  });
  for (const selector of [
    '.jp-Notebook .jp-Cell',
    '.jp-CodeConsole .jp-Cell'
  ]) {
    app.contextMenu.addItem({
      command: COPY_CELL_AS_PYTHON,
      selector,
      rank: 21
    });
  }
}
