import type { ISessionContext, IWidgetTracker } from '@jupyterlab/apputils';
import type { Kernel } from '@jupyterlab/services';
import type { IDisposable } from '@lumino/disposable';
import { type ISignal, Signal } from '@lumino/signaling';
import type { Widget } from '@lumino/widgets';
import type {
  ConnectionInfo,
  GridView
} from '@searchbook/contracts/panel-protocol';
import type { PanelClient, PanelReply } from '../panel-client';
import { confirmDone } from '../documents/confirmations';
import type { IDocumentGrid } from '../tokens';
import {
  ConnectionListing,
  type ConnectionNode,
  type ListingPart,
  type ProfilesListing
} from './connection-listing';
import { requestGrid } from './grid-opening';
import { ListingWatch } from './listing-watch';
import { PanelClients } from './panel-clients';
import { connectProfileIn } from './profile-connection';
import {
  requestTargetAction,
  type TargetActionOrder
} from './target-action-request';

export type { ProfilesListing } from './connection-listing';

/** A notebook or console panel, as the trackers hold them: a widget with a session. */
export type KernelWidget = Widget & {
  readonly sessionContext: ISessionContext;
};

export interface SidebarModelOptions {
  /** JupyterLab's notebook and console trackers: the kernels the panel can follow. */
  trackers: IWidgetTracker<KernelWidget>[];
  /** The application shell: what is current in the main area. */
  shell: {
    readonly currentWidget: Widget | null;
    readonly currentChanged?: ISignal<unknown, unknown>;
  };
  /** Widgets that keep the current kernel followed while they are current (the panel's grid tabs). */
  keepsFollowing(widget: Widget): boolean;
  /** Whether a notebook of another kernel runs searchbook's magics, whose kernel then answers through it. */
  runsMagics?(widget: Widget): boolean;
  /** The panel's own searchbook kernel, started on first need. */
  ownKernel(): Promise<Kernel.IKernelConnection>;
  /** The tab already showing this target of this connection, brought forward; undefined when there is none. */
  activateGrid(connection: string, target: string): IDocumentGrid | undefined;
  /** An index or collection was emptied or deleted from the panel: a grid showing it reads it again. */
  targetChanged?(client: PanelClient, connection: string, target: string): void;
  /** Shows an opened grid in the main area; `view` is the view it was opened with, if not the whole target. */
  showGrid(
    client: PanelClient,
    opened: PanelReply<'opened'>,
    view?: GridView
  ): IDocumentGrid;
}

/** How `openGrid` opens a target when it is not open yet. */
export interface OpenGridOptions {
  /** The filters and sort to open it with (a tab restored after a reload). */
  view?: GridView;
  /** The kernel holding the connection; without it, the kernel the panel follows. */
  kernel?: Kernel.IKernelConnection;
}

/** What of the model changed, so the view redraws only that. */
export type SidebarPart = 'heading' | 'message' | ListingPart;

/**
 * What the searchbook sidebar shows, and the kernel it comes from: the current notebook's or
 * console's searchbook kernel, found through JupyterLab's notebook and console trackers, or
 * with none current the panel's own kernel. Its parts: the listing (connection-listing.ts),
 * what makes it read again (listing-watch.ts: cells that may change it, restarts), the comm
 * clients (panel-clients.ts), and the requests of the sidebar's actions (grid-opening.ts,
 * profile-connection.ts, target-action-request.ts).
 *
 * It lists again only when the listing may have changed: on following another kernel, after
 * a kernel restart, after a cell that may change it ran, after the panel's own actions
 * (profile connected, index deleted or emptied), and on Refresh. A grid's save reads its
 * connection's counts again (`recount`).
 */
export class SidebarModel implements IDisposable {
  readonly changed = new Signal<this, SidebarPart>(this);
  heading = '';
  message = '';

  private client: PanelClient | null = null;
  private readonly clients = new PanelClients();
  private readonly listing = new ConnectionListing(part =>
    this.changed.emit(part)
  );
  private readonly watch = new ListingWatch(() => void this.reload());
  private own = false;
  private shown = false;
  private followed: Kernel.IKernelConnection | null = null;
  private watched: ISessionContext | undefined;
  private disposed = false;

  constructor(private readonly options: SidebarModelOptions) {
    for (const tracker of options.trackers) {
      tracker.currentChanged.connect(this.followCurrent, this);
    }
    options.shell.currentChanged?.connect(this.followCurrent, this);
  }

  /** The connections of the kernel followed, as last listed. */
  get connections(): ConnectionInfo[] {
    return this.listing.connections;
  }

  /** The tree's connections as last listed, whose counts a save reads again. */
  get nodes(): ConnectionNode[] {
    return this.listing.nodes;
  }

  /** Listed only for the panel's own kernel. */
  get profiles(): ProfilesListing | undefined {
    return this.listing.profiles;
  }

  /** The client of the kernel whose connections are listed (null before one is followed). */
  get panelClient(): PanelClient | null {
    return this.client;
  }

  /** Whether the listing is the panel's own kernel's (then saved profiles are listed too). */
  get ownKernel(): boolean {
    return this.own;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    this.watch.cancel();
    for (const tracker of this.options.trackers) {
      tracker.currentChanged.disconnect(this.followCurrent, this);
    }
    this.options.shell.currentChanged?.disconnect(this.followCurrent, this);
    this.watchContext(undefined);
    this.watch.listen(null);
    Signal.clearData(this);
  }

  /**
   * The main area's current widget decides: a tracked notebook or console is followed, a grid
   * tab keeps what is followed, anything else (a launcher, a text file) leaves the panel on its
   * own kernel.
   */
  followCurrent(): void {
    if (this.disposed) {
      return;
    }
    const widget = this.options.shell.currentWidget;
    if (widget && this.options.keepsFollowing(widget)) {
      return;
    }
    const tracked = widget
      ? this.options.trackers.find(t => t.has(widget))?.find(w => w === widget)
      : undefined;
    this.watchContext(tracked?.sessionContext);
    this.follow(
      tracked?.sessionContext.session?.kernel ?? null,
      tracked?.title.label ?? 'the current document',
      tracked !== undefined && this.options.runsMagics?.(tracked) === true
    );
  }

  /** The sidebar is shown or hidden: the panel's own kernel starts only when someone looks. */
  setShown(shown: boolean): void {
    this.shown = shown;
    if (shown && !this.watch.watched) {
      void this.useOwn();
    }
  }

  /** Lists the connections, their indices or collections, and (own kernel) the saved profiles. */
  async reload(): Promise<void> {
    this.watch.cancel();
    const kernel = this.watch.watched;
    if (!kernel) {
      return;
    }
    const client = (this.client = this.clients.of(kernel));
    this.say('');
    try {
      await this.listing.read(client, this.own);
    } catch (err) {
      this.say((err as Error).message);
    }
  }

  /** A grid saved insertions or deletions: the counts of its connection's indices or collections are read again (what a search finds now). */
  async recount(client: PanelClient, connection: string): Promise<void> {
    if (client !== this.client) {
      return;
    }
    try {
      await this.listing.recount(client, connection);
    } catch (err) {
      this.say(
        `${connection}: the document counts could not be read again: ${(err as Error).message}`
      );
    }
  }

  /**
   * Opens `target` of `connection` in a grid tab, or brings forward the tab already showing it
   * (one tab per connection and target: its pending changes are one set). Rejects with the
   * kernel's reason, which the sidebar shows too.
   */
  async openGrid(
    connection: string,
    target: string,
    options: OpenGridOptions = {}
  ): Promise<IDocumentGrid> {
    const open = this.options.activateGrid(connection, target);
    if (open) {
      this.say('');
      return open;
    }
    const client = options.kernel
      ? this.clients.of(options.kernel)
      : (this.client ?? (await this.ensureKernel()));
    this.say(`Opening ${target}…`);
    try {
      const opened = await requestGrid(
        client,
        connection,
        target,
        options.view
      );
      this.say('');
      const grid = this.options.showGrid(client, opened, options.view);
      performance.mark('searchbook:grid-shown');
      return grid;
    } catch (err) {
      this.say(`${target}: ${(err as Error).message}`);
      throw err;
    }
  }

  /** Opens a saved profile in the panel's own kernel, as `%connect <profile>` in a cell would. */
  async connectProfile(name: string): Promise<void> {
    const kernel = this.watch.watched;
    if (!kernel) {
      return;
    }
    this.say(`Connecting ${name}…`);
    const failure = await connectProfileIn(kernel, name);
    this.say(failure ? `${name}: ${failure}` : '');
    await this.reload();
  }

  /** Deletes or empties an index or collection (confirmed by its typed name), then lists again. */
  async runTargetAction(
    client: PanelClient,
    order: TargetActionOrder
  ): Promise<void> {
    try {
      const done = await requestTargetAction(client, order);
      this.options.targetChanged?.(client, order.connection, order.target);
      await this.reload();
      // Done, and the tree shows it: a confirmation that goes by itself, not a standing message.
      this.say('');
      confirmDone(done);
    } catch (err) {
      // Refused because the target changed, or failed: the tree shows what the server holds now.
      await this.reload();
      this.say(`${order.target}: ${(err as Error).message}`);
    }
  }

  say(text: string): void {
    this.message = text;
    this.changed.emit('message');
  }

  /**
   * Follows a notebook's or console's kernel: a searchbook kernel, or one running searchbook's
   * magics (it passes the panel's requests to the magics' kernel); otherwise the panel's own.
   */
  private follow(
    kernel: Kernel.IKernelConnection | null,
    label: string,
    magics = false
  ): void {
    const searchbook =
      kernel && (kernel.name === 'searchbook' || magics) ? kernel : null;
    if (searchbook && searchbook === this.followed) {
      return;
    }
    this.followed = searchbook;
    if (searchbook) {
      void this.use(
        searchbook,
        false,
        searchbook.name === 'searchbook'
          ? `Kernel of ${label}`
          : `searchbook magics of ${label}`
      );
    } else if (!this.own) {
      this.watch.listen(null);
      this.client = null;
      if (this.shown) {
        void this.useOwn();
      } else {
        this.setHeading('No searchbook notebook or console is current.');
      }
    }
  }

  private watchContext(context: ISessionContext | undefined): void {
    if (this.watched === context) {
      return;
    }
    this.watched?.kernelChanged.disconnect(this.followCurrent, this);
    this.watched = context;
    context?.kernelChanged.connect(this.followCurrent, this);
  }

  private async ensureKernel(): Promise<PanelClient> {
    if (!this.watch.watched) {
      await this.useOwn();
    }
    if (!this.client) {
      throw new Error('No searchbook kernel to open the grid in.');
    }
    return this.client;
  }

  private async useOwn(): Promise<void> {
    this.setHeading('Starting the panel’s own searchbook kernel…');
    try {
      const kernel = await this.options.ownKernel();
      // A searchbook notebook or console became current while the kernel started: it is what the panel shows.
      if (this.followed || this.disposed) {
        return;
      }
      await this.use(
        kernel,
        true,
        'The panel’s own kernel (no searchbook notebook or console is current)'
      );
    } catch (err) {
      this.say(
        `Could not start a searchbook kernel: ${(err as Error).message}`
      );
    }
  }

  private async use(
    kernel: Kernel.IKernelConnection,
    own: boolean,
    heading: string
  ): Promise<void> {
    if (this.watch.watched !== kernel) {
      this.watch.listen(kernel);
      this.client = this.clients.of(kernel);
    }
    if (this.own !== own) {
      this.own = own;
      this.listing.dropProfiles();
    }
    this.setHeading(heading);
    await this.reload();
  }

  private setHeading(text: string): void {
    this.heading = text;
    this.changed.emit('heading');
  }
}
