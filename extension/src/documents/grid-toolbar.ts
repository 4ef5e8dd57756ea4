import { Widget } from '@lumino/widgets';
import type { GridRequestCopies } from './grid-request-copies';
import { toolbarButton, toolbarRole } from './toolbar-button';
import { toolbarMenu } from './toolbar-menu';

/** What the grid tab's toolbar runs. */
export interface GridToolbarActions {
  refresh(): unknown;
  copies: GridRequestCopies;
}

/**
 * The grid tab's toolbar: Refresh, the Copy menu (the request as a console cell, curl or
 * Python, or inserted into the notebook), the column chooser, then the status line.
 */
export function gridToolbar(
  actions: GridToolbarActions,
  chooser: HTMLElement,
  status: HTMLElement
): Widget {
  const bar = new Widget();
  bar.addClass('searchbook-DocumentGrid-bar');
  const refresh = toolbarButton(
    'Refresh',
    'Read the index or collection again from the start',
    () => actions.refresh()
  );
  const copy = toolbarMenu(
    'Copy',
    'Copy the request this grid sends: as a console cell, curl or Python, or insert it into the notebook',
    [
      {
        label: 'Copy as cell',
        caption: 'Copy the request this grid sends, as a console cell',
        run: () => actions.copies.asCell()
      },
      {
        label: 'Copy as curl',
        caption:
          'Copy the request as a curl command; the credential stays an environment variable',
        run: () => actions.copies.asCurl()
      },
      {
        label: 'Copy as Python',
        caption:
          'Copy the request as Python code for the engine’s official client; the credential is read from an environment variable',
        run: () => actions.copies.asPython()
      },
      {
        label: 'Insert into notebook',
        caption:
          'Add the request this grid sends as a cell below the active cell of the notebook',
        run: () => actions.copies.insert()
      }
    ]
  );
  toolbarRole(bar.node, 'Grid');
  bar.node.append(refresh, copy, chooser, status);
  return bar;
}
