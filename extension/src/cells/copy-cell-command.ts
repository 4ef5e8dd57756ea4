import type { JupyterFrontEnd } from '@jupyterlab/application';
import { Notification } from '@jupyterlab/apputils';
import type { IConsoleTracker } from '@jupyterlab/console';
import type { INotebookTracker } from '@jupyterlab/notebook';
import type { Kernel } from '@jupyterlab/services';
import { copyText } from '../datagrid/clipboard';
import { PanelClient } from '../panel-client';
import { isMagicCell } from './magic-cells';

/**
 * The current notebook's active cell or console's prompt, when the main area shows it and its
 * kernel is searchbook's, or it is a cell of searchbook's magics (a Python notebook's).
 */
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
  if (!kernel || !cell) {
    return undefined;
  }
  const source = cell.model.sharedModel.getSource();
  // Another kernel's cell is copied when it runs searchbook's magics: that kernel passes the request on.
  if (kernel.name !== 'searchbook' && !isMagicCell(source)) {
    return undefined;
  }
  return { source, kernel };
}

/** One "Copy as …" of the cells' context menu. */
export interface CopyCellCommand {
  id: string;
  /** The menu item's label, also the start of an error's notification. */
  label: string;
  caption: string;
  rank: number;
  /** Asks the kernel for the cell's copy: the text for the clipboard and what the notification says. */
  copy(
    client: PanelClient,
    source: string
  ): Promise<{ text: string; message: string }>;
}

/**
 * Adds a "Copy as …" to the context menu of a searchbook notebook's or console's cells: the
 * kernel turns the cell's requests into the copy, which goes on the clipboard.
 */
export function addCopyCellCommand(
  app: JupyterFrontEnd,
  notebooks: INotebookTracker | null,
  consoles: IConsoleTracker | null,
  command: CopyCellCommand
): void {
  app.commands.addCommand(command.id, {
    label: command.label,
    caption: command.caption,
    isVisible: () => currentCell(app, notebooks, consoles) !== undefined,
    execute: async () => {
      const cell = currentCell(app, notebooks, consoles);
      if (!cell) {
        return;
      }
      const client = new PanelClient(cell.kernel);
      try {
        const { text, message } = await command.copy(client, cell.source);
        await copyText(text);
        Notification.success(message, { autoClose: 4000 });
      } catch (err) {
        // A cell without a request, no connection, a refused cell: said where the user looks, never thrown into the page.
        Notification.error(
          `${command.label}: ${err instanceof Error ? err.message : String(err)}`,
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
      command: command.id,
      selector,
      rank: command.rank
    });
  }
}
