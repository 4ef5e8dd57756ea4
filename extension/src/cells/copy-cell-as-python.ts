import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { IConsoleTracker } from '@jupyterlab/console';
import type { INotebookTracker } from '@jupyterlab/notebook';
import { addCopyCellCommand } from './copy-cell-command';
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
  addCopyCellCommand(app, notebooks, consoles, {
    id: COPY_CELL_AS_PYTHON,
    label: 'Copy as Python',
    caption:
      'Copy the cell’s requests as Python code for the engine’s official client; credentials are read from environment variables',
    rank: 21,
    copy: async (client, cell) => {
      const reply = await client.request({ type: 'python', cell }, 'python');
      return {
        text: reply.code,
        message: pythonCopiedMessage(reply.code, reply.requests)
      };
    }
  });
}
