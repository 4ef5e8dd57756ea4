import {
  ILayoutRestorer,
  type JupyterFrontEnd,
  type JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { IConsoleTracker } from '@jupyterlab/console';
import { INotebookTracker } from '@jupyterlab/notebook';
import type { IWidgetTracker } from '@jupyterlab/apputils';
import type { Kernel, Session } from '@jupyterlab/services';
import { LabIcon } from '@jupyterlab/ui-components';
import type { ISignal } from '@lumino/signaling';
import { CollectionResources } from './admin/collection-resources';
import { addCopyCellAsCurl } from './cells/copy-cell-as-curl';
import { addCopyCellAsPython } from './cells/copy-cell-as-python';
import { loadsMagics } from './cells/magic-cells';
import { addGridCommands } from './commands/grid-commands';
import {
  DocumentGridWidget,
  type GridHost
} from './documents/document-grid-widget';
import { GridReopenTab } from './documents/grid-reopen-tab';
import { restoreGridTabs } from './documents/grid-restorer';
import { GridTabs } from './documents/grid-tabs';
import type { PanelClient } from './panel-client';
import { ExportMenu } from './export/export-menu';
import { type KernelWidget, SidebarModel } from './sidebar/model';
import { SearchbookSidebar } from './sidebar/sidebar';
import { IDocumentGrids } from './tokens';

const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g class="jp-icon3" fill="#616161"><path d="M4 4h12v2H4zm0 4h12v2H4zm0 4h7v2H4zm0 4h5v2H4z"/><path d="M16.5 11a4.5 4.5 0 0 1 3.6 7.2l2.6 2.6-1.4 1.4-2.6-2.6A4.5 4.5 0 1 1 16.5 11zm0 2a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5z"/></g></svg>';
const searchbookIcon = new LabIcon({
  name: 'searchbook:panel',
  svgstr: ICON_SVG
});

/** JupyterLab's Settings Editor tabs (the form and the JSON editor), by their widget ids. */
const SETTINGS_EDITORS = new Set(['setting-editor', 'json-setting-editor']);

/** Where the panel's own kernel lives when no searchbook notebook or console is current. */
const OWN_SESSION_PATH = 'searchbook-panel';

/** The notebook and console trackers a frontend provides (Notebook 7's file browser page has neither). */
export function trackersOf(
  notebooks: INotebookTracker | null,
  consoles: IConsoleTracker | null
): IWidgetTracker<KernelWidget>[] {
  return [notebooks, consoles].filter(
    (t): t is INotebookTracker | IConsoleTracker => t !== null
  );
}

/**
 * The `searchbook` left sidebar, following the current notebook's or console's kernel the way
 * the debugger's sidebar does, and the document grid tabs it opens; other extensions open
 * grids through `IDocumentGrids`.
 */
export const panelPlugin: JupyterFrontEndPlugin<IDocumentGrids> = {
  id: 'searchbook:panel',
  description:
    'The searchbook side panel: connections, indices and collections, and document grids',
  autoStart: true,
  optional: [INotebookTracker, IConsoleTracker, ILayoutRestorer],
  provides: IDocumentGrids,
  activate: (
    app: JupyterFrontEnd,
    notebooks: INotebookTracker | null,
    consoles: IConsoleTracker | null,
    restorer: ILayoutRestorer | null
  ): IDocumentGrids => {
    const trackers = trackersOf(notebooks, consoles);
    let ownSession: Promise<Session.ISessionConnection> | undefined;
    const ownKernel = async (): Promise<Kernel.IKernelConnection> => {
      ownSession ??= (async () => {
        const sessions = app.serviceManager.sessions;
        const existing = await sessions.findByPath(OWN_SESSION_PATH);
        if (existing?.kernel?.name === 'searchbook') {
          return sessions.connectTo({ model: existing });
        }
        return sessions.startNew({
          path: OWN_SESSION_PATH,
          type: 'searchbook',
          name: 'searchbook panel',
          kernel: { name: 'searchbook' }
        });
      })();
      const session = await ownSession;
      if (!session.kernel) {
        throw new Error('the session has no kernel');
      }
      return session.kernel;
    };

    // "Insert into notebook" adds to the notebook the user worked in last: the tracker's current one.
    const host: GridHost = {
      exportGrid: node => exportMenu.exportGrid(node),
      insertCell: async text => {
        const notebook = notebooks?.currentWidget;
        if (!notebook || notebook.isDisposed) {
          throw new Error(
            'No notebook to insert into: open or click into a notebook, then use "Insert into notebook" again.'
          );
        }
        app.shell.activateById(notebook.id);
        await app.commands.execute('notebook:insert-cell-below');
        const cell = notebook.content.activeCell;
        if (!cell) {
          throw new Error('The notebook has no active cell to insert below.');
        }
        cell.model.sharedModel.setSource(text);
      }
    };

    const grids = new Set<DocumentGridWidget>();
    /** Tabs of one target name on two connections put the connection first in their titles. */
    const labelApart = (): void => {
      const open = [...grids].filter(g => !g.isDisposed);
      for (const grid of open) {
        grid.connectionFirst(
          open.some(
            g => g.target === grid.target && g.connection !== grid.connection
          )
        );
      }
    };
    /** The kernel each grid reads through: two kernels may have connections of one name. */
    const clientOfGrid = new WeakMap<DocumentGridWidget, PanelClient>();
    const tabs = new GridTabs(app.shell, widget =>
      trackers.some(t => t.has(widget))
    );
    /** The session path of the notebook, console or panel session whose kernel each grid reads through. */
    const sessionOfGrid = new WeakMap<DocumentGridWidget, string>();
    const sessionOf = (kernel: Kernel.IKernelConnection): string =>
      trackers.flatMap(t =>
        t.filter(w => w.sessionContext.session?.kernel === kernel)
      )[0]?.sessionContext.path ?? OWN_SESSION_PATH;
    /** The kernel of a session a restored grid read through: its notebook's or console's, once restored, or the panel's own. */
    const kernelOf = async (
      session: string | undefined
    ): Promise<Kernel.IKernelConnection> => {
      if (session === undefined || session === OWN_SESSION_PATH) {
        return ownKernel();
      }
      await Promise.all(trackers.map(t => t.restored));
      const widget = trackers.flatMap(t =>
        t.filter(w => w.sessionContext.path === session)
      )[0];
      if (!widget) {
        throw new Error(
          `${session} is not open, so its kernel's connections are not at hand.`
        );
      }
      await widget.sessionContext.ready;
      const kernel = widget.sessionContext.session?.kernel;
      if (!kernel) {
        throw new Error(`${session} has no kernel running.`);
      }
      return kernel;
    };
    const shell = app.shell as JupyterFrontEnd.IShell & {
      currentChanged?: ISignal<unknown, unknown>;
    };
    const model: SidebarModel = new SidebarModel({
      trackers,
      shell,
      // JupyterLab's Settings Editor has no kernel: looking at settings keeps the listing.
      keepsFollowing: widget =>
        widget instanceof DocumentGridWidget ||
        widget instanceof CollectionResources ||
        SETTINGS_EDITORS.has(widget.id),
      runsMagics: widget => {
        const notebook = notebooks?.find(panel => panel === widget);
        const cells = notebook?.content.model?.sharedModel.cells ?? [];
        return loadsMagics(cells.map(cell => cell.getSource()));
      },
      ownKernel,
      activateGrid: (connection, target) => {
        const open = [...grids].find(
          g =>
            !g.isDisposed && g.connection === connection && g.target === target
        );
        if (!open) {
          return undefined;
        }
        // A tab whose kernel or connection is gone cannot read: a fresh one replaces it (the pending set is stored).
        if (open.isGone) {
          open.dispose();
          return undefined;
        }
        app.shell.activateById(open.id);
        return open;
      },
      targetChanged: (client, connection, target) => {
        for (const grid of grids) {
          if (
            !grid.isDisposed &&
            !grid.isGone &&
            clientOfGrid.get(grid) === client &&
            grid.connection === connection &&
            grid.target === target
          ) {
            void grid.refresh();
          }
        }
      },
      showGrid: (client, opened, view) => {
        // Opened twice at once (a tab restored after a reload, and a double-click in the tree): one tab stays.
        const twin = [...grids].find(
          g =>
            !g.isDisposed &&
            !g.isGone &&
            g.connection === opened.connection &&
            g.target === opened.target
        );
        if (twin) {
          void client
            .request({ type: 'close', gridId: opened.gridId }, 'closed')
            .catch(() => undefined);
          app.shell.activateById(twin.id);
          return twin;
        }
        const grid = new DocumentGridWidget(client, opened, host);
        if (view) {
          grid.adoptView(view);
        }
        sessionOfGrid.set(grid, sessionOf(client.kernel));
        clientOfGrid.set(grid, client);
        grid.viewChanged.connect(() => void tabs.tracker.save(grid));
        grids.add(grid);
        grid.disposed.connect(() => {
          grids.delete(grid);
          labelApart();
        });
        labelApart();
        grid.documentsChanged.connect(
          (_, { connection }) => void model.recount(client, connection)
        );
        exportMenu.addGrid(grid, client, opened);
        tabs.place(grid);
        return grid;
      }
    });
    shell.currentChanged?.connect(() => {
      const current = app.shell.currentWidget;
      if (current && SETTINGS_EDITORS.has(current.id)) {
        tabs.moveOutOfGridArea(current);
      }
    });
    const sidebar = new SearchbookSidebar(model, {
      exportTarget: (client, connection, target) =>
        void exportMenu.exportTarget(client, connection, target),
      showMain: widget => {
        if (!widget.isAttached) {
          app.shell.add(widget, 'main');
        }
        app.shell.activateById(widget.id);
      }
    });
    const exportMenu = new ExportMenu(app, () => model.panelClient);
    sidebar.node.append(exportMenu.area.node);
    addGridCommands(app, { model, exportMenu, sidebarId: sidebar.id });
    addCopyCellAsCurl(app, notebooks, consoles);
    addCopyCellAsPython(app, notebooks, consoles);
    sidebar.title.icon = searchbookIcon;
    app.shell.add(sidebar, 'left', { rank: 700 });
    // Open (or closed) after a reload as it was before, as JupyterLab's own side panels.
    restorer?.add(sidebar, sidebar.id);
    void app.restored.then(() => model.followCurrent());
    restoreGridTabs({
      app,
      restorer,
      tabs,
      stateOf: tab =>
        tab instanceof GridReopenTab
          ? tab.state
          : {
              connection: tab.connection,
              target: tab.target,
              session:
                tab instanceof DocumentGridWidget
                  ? sessionOfGrid.get(tab)
                  : undefined,
              view: tab instanceof DocumentGridWidget ? tab.view : undefined
            },
      open: async state =>
        model.openGrid(state.connection, state.target, {
          kernel: await kernelOf(state.session),
          ...(state.view ? { view: state.view } : {})
        })
    });

    return { open: (connection, target) => model.openGrid(connection, target) };
  }
};
