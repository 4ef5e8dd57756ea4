import type { DataGrid } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

const EDITOR = ':scope > .lm-DataGrid-cellEditorOccluder';

/**
 * Keeps a grid's canvas the size of its node. A grid laid out by CSS (a flex item beside
 * lists that come and go, an output as wide as the notebook) changes size without a Lumino
 * resize message, and its canvas would keep the old size: painted over the list below it, or
 * leaving a blank band when the list goes. A resize message cancels an open cell editor, so
 * while one is open the new size is taken when it closes. Stops watching when the grid is
 * disposed.
 *
 * The size told is the node's border box as the observer reports it, not read from the
 * layout: told the size, Lumino reads none, where a read per grid, after another grid has just
 * set its height, recomputes the page's styles and layout once per grid.
 */
export function followNodeSize(grid: DataGrid): void {
  let last = '';
  let waiting = false;
  /** The node's border box as last observed (rounded as its offset size is). */
  let observed: { width: number; height: number } | undefined;
  const editing = () => grid.node.querySelector(EDITOR) !== null;
  const sync = () => {
    if (!grid.isVisible || !observed) {
      return;
    }
    const { width, height } = observed;
    const size = `${width}x${height}`;
    if (size === last) {
      return;
    }
    if (editing()) {
      waiting = true;
      return;
    }
    last = size;
    MessageLoop.sendMessage(grid, new Widget.ResizeMessage(width, height));
  };
  const resizes = new ResizeObserver(entries => {
    const box = entries.at(-1)?.borderBoxSize?.[0];
    observed = box
      ? { width: Math.round(box.inlineSize), height: Math.round(box.blockSize) }
      : { width: grid.node.offsetWidth, height: grid.node.offsetHeight };
    sync();
  });
  const editors = new MutationObserver(() => {
    if (waiting && !editing()) {
      waiting = false;
      sync();
    }
  });
  resizes.observe(grid.node);
  editors.observe(grid.node, { childList: true });
  grid.disposed.connect(() => {
    resizes.disconnect();
    editors.disconnect();
  });
}
