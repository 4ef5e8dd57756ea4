import { Widget } from '@lumino/widgets';
import type { GridViewState } from './grid-view-state';
import { toolbarButton } from './toolbar-button';

/**
 * The stand-in of a grid tab that was open before the page reloaded: it holds the tab's place
 * while the grid opens again, and gives it to the grid once open. When the grid cannot be
 * opened (its connection is no longer open in the kernel, or the notebook holding it is not
 * open) it stays, saying why and what to do, with the grid one click away, instead of an
 * empty grid.
 */
export class GridReopenTab extends Widget {
  private readonly box = document.createElement('div');

  constructor(
    readonly state: GridViewState,
    private readonly openAgain: () => void
  ) {
    super();
    this.id = `searchbook-grid-reopen-${Math.random().toString(36).slice(2, 10)}`;
    this.addClass('searchbook-GridReopenTab');
    this.title.label = `${state.target} · ${state.connection}`;
    this.title.caption = `Documents of ${state.target} on ${state.connection}`;
    this.title.closable = true;
    this.node.append(this.box);
    this.showOpening();
  }

  get connection(): string {
    return this.state.connection;
  }

  get target(): string {
    return this.state.target;
  }

  showOpening(): void {
    this.box.setAttribute('role', 'status');
    this.box.textContent = `Opening ${this.state.target} on ${this.state.connection} again…`;
  }

  showFailure(reason: string): void {
    const { target, connection, session } = this.state;
    const heading = document.createElement('p');
    heading.className = 'searchbook-GridReopenTab-title';
    heading.textContent = `${target} on ${connection} could not be opened again after the page reloaded.`;
    const why = document.createElement('p');
    why.textContent = reason;
    const what = document.createElement('p');
    what.textContent = `Run the %connect cell that opens ${connection}${session ? ` in ${session}` : ''}, then Open again.`;
    const again = toolbarButton(
      'Open again',
      `Open ${target} on ${connection} with its filters and sort`,
      () => {
        this.showOpening();
        this.openAgain();
      }
    );
    this.box.setAttribute('role', 'alert');
    this.box.replaceChildren(heading, why, what, again);
  }

  /** A closed tab is done with: dispose it, so the layout restorer forgets it. */
  protected override onCloseRequest(
    msg: Parameters<Widget['processMessage']>[0]
  ): void {
    super.onCloseRequest(msg);
    this.dispose();
  }
}
