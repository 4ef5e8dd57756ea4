import type { DataGrid } from '@lumino/datagrid';
import { MessageLoop } from '@lumino/messaging';
import { Widget } from '@lumino/widgets';

/**
 * Keeps a grid's canvas the size of its node. A grid laid out by CSS (a flex item beside
 * lists that come and go) changes size without a Lumino resize message, and its canvas would
 * keep the old size: painted over the list below it, or leaving a blank band when the list
 * goes. Stops watching when the grid is disposed.
 */
export function followNodeSize(grid: DataGrid): void {
  let last = '';
  const observer = new ResizeObserver(() => {
    if (!grid.isVisible) {
      return;
    }
    const size = `${grid.node.offsetWidth}x${grid.node.offsetHeight}`;
    if (size === last) {
      return;
    }
    last = size;
    MessageLoop.sendMessage(grid, Widget.ResizeMessage.UnknownSize);
  });
  observer.observe(grid.node);
  grid.disposed.connect(() => observer.disconnect());
}
