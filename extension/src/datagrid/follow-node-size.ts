import type { DataGrid } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

const EDITOR = ':scope > .lm-DataGrid-cellEditorOccluder';

/**
 * Keeps a grid's canvas the size of its node. A grid laid out by CSS (a flex item beside
 * lists that come and go) changes size without a Lumino resize message, and its canvas would
 * keep the old size: painted over the list below it, or leaving a blank band when the list
 * goes. A resize message cancels an open cell editor, so while one is open the new size is
 * taken when it closes. Stops watching when the grid is disposed.
 */
export function followNodeSize(grid: DataGrid): void {
  let last = '';
  let waiting = false;
  const editing = () => grid.node.querySelector(EDITOR) !== null;
  const sync = () => {
    if (!grid.isVisible) {
      return;
    }
    const size = `${grid.node.offsetWidth}x${grid.node.offsetHeight}`;
    if (size === last) {
      return;
    }
    if (editing()) {
      waiting = true;
      return;
    }
    last = size;
    MessageLoop.sendMessage(grid, Widget.ResizeMessage.UnknownSize);
  };
  const resizes = new ResizeObserver(sync);
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
