import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { Kernel } from '@jupyterlab/services';
import type { Widget } from '@lumino/widgets';
import { copyText } from '../datagrid/clipboard';
import { PanelClient } from '../panel-client';

export const COPY_CELL_AS_CURL = 'searchbook:copy-cell-as-curl';

interface SourceModel {
  model: { sharedModel: { getSource(): string } };
}

/** The current notebook's active cell or console's prompt, and its kernel (structural: no notebook or console package import). */
function currentCell(widget: Widget | null): { source: string; kernel: Kernel.IKernelConnection } | undefined {
  const panel = widget as (Widget & { sessionContext?: { session?: { kernel?: Kernel.IKernelConnection | null } | null }; content?: { activeCell?: SourceModel | null; promptCell?: SourceModel | null } }) | null;
  const kernel = panel?.sessionContext?.session?.kernel;
  const cell = panel?.content?.activeCell ?? panel?.content?.promptCell;
  if (!kernel || kernel.name !== 'searchbook' || !cell) return undefined;
  return { source: cell.model.sharedModel.getSource(), kernel };
}

/**
 * "Copy as curl" in the context menu of a searchbook notebook's or console's cells: the kernel
 * turns the cell's requests into curl command lines (credentials as environment variables),
 * one per line, on the clipboard.
 */
export function addCopyCellAsCurl(app: JupyterFrontEnd): void {
  app.commands.addCommand(COPY_CELL_AS_CURL, {
    label: 'Copy as curl',
    caption: 'Copy the cell’s requests as curl command lines; credentials stay environment variables',
    isVisible: () => currentCell(app.shell.currentWidget) !== undefined,
    execute: async () => {
      const cell = currentCell(app.shell.currentWidget);
      if (!cell) return;
      const client = new PanelClient(cell.kernel);
      try {
        const reply = await client.request({ type: 'curl', cell: cell.source }, 'curl');
        await copyText(reply.commands.join('\n'));
      } finally {
        client.dispose();
      }
    },
  });
  app.contextMenu.addItem({ command: COPY_CELL_AS_CURL, selector: '.jp-Notebook .jp-Cell', rank: 20 });
  app.contextMenu.addItem({ command: COPY_CELL_AS_CURL, selector: '.jp-CodeConsole .jp-Cell', rank: 20 });
}
