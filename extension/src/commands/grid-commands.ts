import type { JupyterFrontEnd } from '@jupyterlab/application';
import { showErrorMessage } from '@jupyterlab/apputils';
import { DocumentGridWidget } from '../documents/document-grid-widget';
import type { ExportMenu } from '../export/export-menu';
import type { SidebarModel } from '../sidebar/model';
import { targetChoices, chosenTarget } from './target-choice';
import { askTarget } from './target-dialog';

/** The searchbook commands: in the palette (category "searchbook") and bound to keys in the settings. */
export const GridCommandIds = {
  showPanel: 'searchbook:show-panel',
  openTarget: 'searchbook:open-target',
  refresh: 'searchbook:refresh-grid',
  filter: 'searchbook:filter-grid',
  copyAsCell: 'searchbook:copy-grid-as-cell',
  copyAsCurl: 'searchbook:copy-grid-as-curl',
  copyAsPython: 'searchbook:copy-grid-as-python',
  export: 'searchbook:export-grid',
  save: 'searchbook:save-grid',
  discard: 'searchbook:discard-grid'
} as const;

export interface GridCommandsHost {
  model: SidebarModel;
  exportMenu: ExportMenu;
  /** The panel's id in the left area. */
  sidebarId: string;
}

/**
 * Registers the commands. Grid commands act on the main area's current tab when it is a
 * document grid (focus may be in the panel or the palette meanwhile) and are disabled
 * otherwise; each calls what the tab's own button does.
 */
export function addGridCommands(
  app: JupyterFrontEnd,
  host: GridCommandsHost
): void {
  const current = (): DocumentGridWidget | null => {
    const widget = app.shell.currentWidget;
    return widget instanceof DocumentGridWidget && !widget.isDisposed
      ? widget
      : null;
  };
  const onGrid = (
    id: string,
    label: string,
    caption: string,
    run: (grid: DocumentGridWidget) => unknown
  ): void => {
    app.commands.addCommand(id, {
      label,
      caption,
      isEnabled: () => current() !== null,
      execute: async () => {
        const grid = current();
        if (grid) {
          await run(grid);
        }
      }
    });
  };

  app.commands.addCommand(GridCommandIds.showPanel, {
    label: 'Show the searchbook panel',
    caption: 'Show the searchbook side panel and put the keyboard in it',
    execute: () => {
      app.shell.activateById(host.sidebarId);
      // The tree's current item (the one in its Tab order), or its filter box before it lists.
      const panel = document.getElementById(host.sidebarId);
      const into =
        panel?.querySelector<HTMLElement>('[role="treeitem"][tabindex="0"]') ??
        panel?.querySelector<HTMLElement>('input');
      into?.focus();
    }
  });
  app.commands.addCommand(GridCommandIds.openTarget, {
    label: 'Open an index or collection…',
    caption:
      'Open an index, alias, pattern or collection of a connection in a document grid',
    execute: async () => {
      if (host.model.nodes.length === 0) {
        await host.model.reload();
      }
      const answer = await askTarget(targetChoices(host.model.nodes));
      if (answer === undefined) {
        return;
      }
      const chosen = chosenTarget(
        answer,
        host.model.nodes.map(n => n.connection.name)
      );
      if ('error' in chosen) {
        await showErrorMessage('Open an index or collection', chosen.error);
        return;
      }
      try {
        await host.model.openGrid(chosen.connection, chosen.target);
      } catch (err) {
        await showErrorMessage(
          'Open an index or collection',
          (err as Error).message
        );
      }
    }
  });
  onGrid(
    GridCommandIds.refresh,
    'Refresh the document grid',
    'Read the index or collection of the current grid again from the start',
    grid => grid.refresh()
  );
  onGrid(
    GridCommandIds.filter,
    'Filter the document grid',
    "Put the keyboard in the current grid's filter bar",
    grid => grid.focusFilter()
  );
  onGrid(
    GridCommandIds.copyAsCell,
    'Copy the grid’s request as a cell',
    'Copy the request the current grid sends, as a console cell',
    grid => grid.copies.asCell()
  );
  onGrid(
    GridCommandIds.copyAsCurl,
    'Copy the grid’s request as curl',
    'Copy the request the current grid sends as a curl command',
    grid => grid.copies.asCurl()
  );
  onGrid(
    GridCommandIds.copyAsPython,
    'Copy the grid’s request as Python',
    'Copy the request the current grid sends as Python code for the engine’s official client',
    grid => grid.copies.asPython()
  );
  onGrid(
    GridCommandIds.export,
    'Export the document grid…',
    'Write what the current grid shows to a file next to the notebook',
    grid => host.exportMenu.exportGrid(grid.node)
  );
  onGrid(
    GridCommandIds.save,
    'Save the grid’s pending changes',
    'Send the pending changes of the current grid to the engine',
    grid => grid.editing.saveChanges()
  );
  onGrid(
    GridCommandIds.discard,
    'Discard the grid’s pending changes',
    'Drop the pending changes of the current grid (asks first when there are several)',
    grid => grid.editing.discardChanges()
  );
  // Enabled or not follows the current tab: menus and the palette ask again when it changes.
  const shell = app.shell as JupyterFrontEnd.IShell & {
    currentChanged?: { connect(fn: () => void): void };
  };
  shell.currentChanged?.connect(() => app.commands.notifyCommandChanged());
}
