import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { IConsoleTracker } from '@jupyterlab/console';
import type { INotebookTracker } from '@jupyterlab/notebook';
import { addCopyCellCommand } from './copy-cell-command';

export const COPY_CELL_AS_CURL = 'searchbook:copy-cell-as-curl';

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
  addCopyCellCommand(app, notebooks, consoles, {
    id: COPY_CELL_AS_CURL,
    label: 'Copy as curl',
    caption:
      'Copy the cell’s requests as curl command lines; credentials stay environment variables',
    rank: 20,
    copy: async (client, cell) => {
      const reply = await client.request({ type: 'curl', cell }, 'curl');
      return {
        text: reply.commands.join('\n'),
        message: copiedMessage(reply.commands)
      };
    }
  });
}
