import type { ILayoutRestorer, JupyterFrontEnd } from '@jupyterlab/application';
import type { ReadonlyJSONObject } from '@lumino/coreutils';
import type { IDocumentGrid } from '../tokens';
import { GridReopenTab } from './grid-reopen-tab';
import type { GridTabs } from './grid-tabs';
import {
  type GridViewState,
  GridViewStateSchema,
  gridTabName
} from './grid-view-state';

/** Reopens a grid tab from its saved state: what the layout restorer runs after a page reload. */
export const REOPEN_GRID_COMMAND = 'searchbook:reopen-grid';

export interface GridRestorerOptions {
  app: JupyterFrontEnd;
  restorer: ILayoutRestorer | null;
  tabs: GridTabs;
  /** What a tab keeps across a reload: its target, kernel and view. */
  stateOf(tab: IDocumentGrid): GridViewState;
  /** Opens the target in a grid tab (which takes its stand-in's place), with the saved view, in the saved session's kernel. */
  open(state: GridViewState): Promise<IDocumentGrid>;
}

/**
 * Brings the grid tabs back after a page reload, each with its filters and sort, through
 * JupyterLab's layout restorer. Each comes back first as a stand-in tab, which the grid
 * replaces once open; a tab whose target cannot be opened again (its connection is gone with
 * a kernel restart) stays a tab saying so.
 */
export function restoreGridTabs(options: GridRestorerOptions): void {
  const { app, restorer, tabs } = options;
  /** Opens the grid, which takes the stand-in's place; or the stand-in says why it could not. */
  const reopen = async (standIn: GridReopenTab): Promise<void> => {
    try {
      await options.open(standIn.state);
    } catch (err) {
      standIn.showFailure((err as Error).message);
    }
  };
  app.commands.addCommand(REOPEN_GRID_COMMAND, {
    label: 'searchbook: Reopen a document grid',
    describedBy: {
      args: {
        type: 'object',
        properties: {
          connection: { type: 'string' },
          target: { type: 'string' },
          session: { type: 'string' },
          view: { type: 'object' }
        },
        required: ['connection', 'target']
      }
    },
    execute: async args => {
      const parsed = GridViewStateSchema.safeParse(args);
      if (!parsed.success) {
        throw new Error(
          `A grid is reopened from { connection, target, session?, view? }: ${parsed.error.message}`
        );
      }
      // The stand-in holds the tab's place at once, so the layout comes back without waiting for kernels.
      const standIn: GridReopenTab = new GridReopenTab(
        parsed.data,
        () => void reopen(standIn)
      );
      tabs.place(standIn, false);
      void reopen(standIn);
      return standIn;
    }
  });
  if (!restorer) {
    return;
  }
  void restorer.restore(tabs.tracker, {
    command: REOPEN_GRID_COMMAND,
    args: tab => options.stateOf(tab) as unknown as ReadonlyJSONObject,
    name: tab => gridTabName(tab)
  });
}
