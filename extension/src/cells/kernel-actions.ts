import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { Widget } from '@lumino/widgets';

/** The part of a notebook or console panel these actions use (JupyterLab's ISessionContext). */
interface KernelOwner {
  sessionContext: { session?: { kernel?: { interrupt(): Promise<void> } | null } | null };
}

/** The part of a cell these actions use: its node and its text (JupyterLab's ICellModel). */
interface CellLike extends Widget {
  model: { sharedModel: { getSource(): string; setSource(source: string): void } };
}

/** A notebook panel's cells (JupyterLab's Notebook widget), by duck typing: the extension does not bundle @jupyterlab/notebook. */
function cellsOf(widget: Widget): { cells: CellLike[]; active: CellLike | undefined } {
  const content = (widget as { content?: { widgets?: unknown; activeCell?: unknown } }).content;
  const isCell = (c: unknown): c is CellLike => typeof (c as Partial<CellLike> | null)?.model?.sharedModel?.setSource === 'function';
  const cells = Array.isArray(content?.widgets) ? content.widgets.filter(isCell) : [];
  return { cells, active: isCell(content?.activeCell) ? content.activeCell : undefined };
}

/** Rewrites the text of the cell holding `node` (an output's button), or of the current notebook's active cell. */
export function rewriteCell(app: JupyterFrontEnd, rewrite: (source: string) => string, node?: Node): boolean {
  const owner = node ? ownerOf(app, node) : app.shell.currentWidget;
  if (!owner) return false;
  const { cells, active } = cellsOf(owner);
  const cell = node ? cells.find((c) => c.node.contains(node)) : active;
  if (!cell) return false;
  const source = cell.model.sharedModel.getSource();
  const rewritten = rewrite(source);
  if (rewritten !== source) cell.model.sharedModel.setSource(rewritten);
  return true;
}

function ownsKernel(widget: Widget): widget is Widget & KernelOwner {
  const context = (widget as Partial<KernelOwner>).sessionContext;
  return typeof context === 'object' && context !== null;
}

/** The notebook or console in the main area holding `node`. */
export function ownerOf(app: JupyterFrontEnd, node: Node): (Widget & KernelOwner) | undefined {
  for (const widget of app.shell.widgets('main')) {
    if (widget.node.contains(node) && ownsKernel(widget)) return widget;
  }
  return undefined;
}

/** Interrupts the kernel of the notebook or console the node is in. */
export async function interruptKernelOf(app: JupyterFrontEnd, node: Node): Promise<boolean> {
  const kernel = ownerOf(app, node)?.sessionContext.session?.kernel;
  if (!kernel) return false;
  await kernel.interrupt();
  return true;
}
