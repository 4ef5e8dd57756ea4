import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { ISessionContext, IWidgetTracker } from '@jupyterlab/apputils';
import type { INotebookTracker } from '@jupyterlab/notebook';
import type { Widget } from '@lumino/widgets';

/** Rewrites the text of the notebook cell holding `node` (an output's button), or of the current notebook's active cell. */
export function rewriteCell(
  app: JupyterFrontEnd,
  notebooks: INotebookTracker,
  rewrite: (source: string) => string,
  node?: Node
): boolean {
  const notebook = node
    ? notebooks.find(panel => panel.node.contains(node))
    : notebooks.find(panel => panel === app.shell.currentWidget);
  if (!notebook) {
    return false;
  }
  const cell = node
    ? notebook.content.widgets.find(c => c.node.contains(node))
    : notebook.content.activeCell;
  if (!cell) {
    return false;
  }
  const source = cell.model.sharedModel.getSource();
  const rewritten = rewrite(source);
  if (rewritten !== source) {
    cell.model.sharedModel.setSource(rewritten);
  }
  return true;
}

/** Interrupts the kernel of the notebook or console the node is in (the trackers hold both). */
export async function interruptKernelOf(
  trackers: IWidgetTracker<
    Widget & { readonly sessionContext: ISessionContext }
  >[],
  node: Node
): Promise<boolean> {
  for (const tracker of trackers) {
    const kernel = tracker.find(panel => panel.node.contains(node))
      ?.sessionContext.session?.kernel;
    if (!kernel) {
      continue;
    }
    await kernel.interrupt();
    return true;
  }
  return false;
}
