import { Token } from '@lumino/coreutils';
import type { Widget } from '@lumino/widgets';

/** A document grid tab in the main area: one index or collection of one connection. */
export interface IDocumentGrid extends Widget {
  /** The connection's name, as `%connect … name=` gave it. */
  readonly connection: string;
  /** The index, alias, pattern, data stream or collection the grid reads. */
  readonly target: string;
}

/**
 * Document grids for other extensions: what a double-click in the searchbook panel's tree
 * does, without the tree.
 */
export interface IDocumentGrids {
  /**
   * Opens `target` (an index, alias, pattern, data stream or collection) of the connection
   * named `connection` in a grid tab, or brings forward the tab already showing it. It opens
   * in the kernel the searchbook panel follows: the current searchbook notebook's or console's,
   * or with none current the panel's own kernel (started if need be). Resolves to the tab;
   * rejects with the kernel's reason (no such connection, index or collection), which the
   * panel shows too.
   */
  open(connection: string, target: string): Promise<IDocumentGrid>;
}

export const IDocumentGrids = new Token<IDocumentGrids>(
  'searchbook:IDocumentGrids',
  'Opens document grids on an index or collection of a searchbook connection.'
);
