import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { Widget } from '@lumino/widgets';
import type { OpenedGrid } from '../documents/document-grid-widget';
import { askExport } from './export-dialog';
import { ExportsArea, type ExportSubject } from './exports-area';
import type { PanelClient } from '../panel-client';

const COMMAND = 'searchbook:export';
const TREE_TARGET = 'searchbook-Tree-target';
const GRID = 'searchbook-DocumentGrid';

/** An open grid tab, as the export needs it: its id changes when its filter does, so it is read when the export starts. */
interface GridExportSource {
  client: PanelClient;
  connection: string;
  target: string;
  gridId(): string;
}

/**
 * "Export…" in the context menu of an index or collection in the panel's tree, and of a grid
 * tab (what the grid shows under its filter); the exports' progress goes into the panel.
 */
export class ExportMenu {
  readonly area = new ExportsArea();
  private readonly grids = new WeakMap<HTMLElement, GridExportSource>();

  constructor(
    private readonly app: JupyterFrontEnd,
    /** The panel's client for the kernel its tree lists. */
    private readonly treeClient: () => PanelClient | null
  ) {
    app.commands.addCommand(COMMAND, {
      label: 'Export…',
      caption:
        'Write the documents to a file next to the notebook (JSONL, CSV or JSON)',
      execute: () => this.exportAtMenu()
    });
    // The tree's items have their own menu (target-actions.ts), which offers exportTarget.
    app.contextMenu.addItem({
      command: COMMAND,
      selector: `.${GRID}`,
      rank: 10
    });
  }

  /** Makes a grid tab exportable from its context menu. */
  addGrid(
    grid: Widget & { readonly gridId: string },
    client: PanelClient,
    opened: OpenedGrid
  ): void {
    this.grids.set(grid.node, {
      client,
      connection: opened.connection,
      target: opened.target,
      gridId: () => grid.gridId
    });
  }

  /** "Export…" on an index or collection of the tree. */
  async exportTarget(
    client: PanelClient,
    connection: string,
    target: string
  ): Promise<void> {
    await this.ask({ client, connection, target });
  }

  /** "Export…" of a grid tab made exportable by addGrid, from a command. */
  async exportGrid(node: HTMLElement): Promise<void> {
    const subject = this.subjectOf(node);
    if (subject) {
      await this.ask(subject);
    }
  }

  private async exportAtMenu(): Promise<void> {
    const node = this.app.contextMenuHitTest(
      n => n.classList.contains(TREE_TARGET) || n.classList.contains(GRID)
    );
    const subject = node ? this.subjectOf(node) : undefined;
    if (subject) {
      await this.ask(subject);
    }
  }

  private async ask(subject: ExportSubject): Promise<void> {
    const what = subject.gridId
      ? `Exports what the grid shows: ${subject.target} under its current filter (the grid's sort is not kept: documents come in index order).`
      : `Exports every document of ${subject.target}.`;
    const choice = await askExport(subject.target, what);
    if (choice) {
      await this.area.run(subject, choice);
    }
  }

  private subjectOf(node: HTMLElement): ExportSubject | undefined {
    const grid = this.grids.get(node);
    if (grid) {
      return {
        client: grid.client,
        connection: grid.connection,
        target: grid.target,
        gridId: grid.gridId()
      };
    }
    const { connection, target } = node.dataset;
    const client = this.treeClient();
    return client && connection && target !== undefined
      ? { client, connection, target }
      : undefined;
  }
}
