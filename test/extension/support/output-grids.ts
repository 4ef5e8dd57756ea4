import type { Panel } from '@lumino/widgets';
import { GridView } from '../../../extension/src/datagrid/grid-view';
import { GridWhenNear } from '../../../extension/src/mime/grid-when-near';

/** The grids of an output, in order, each in its place (built: jsdom cannot tell what is shown). */
export function outputGrids(output: Panel): GridView[] {
  return output.widgets.flatMap(widget =>
    widget instanceof GridView
      ? [widget]
      : widget instanceof GridWhenNear
        ? [widget.ensureBuilt()]
        : []
  );
}
