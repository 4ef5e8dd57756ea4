import type { ISessionContext, IWidgetTracker } from '@jupyterlab/apputils';
import type { Kernel, KernelMessage } from '@jupyterlab/services';
import type { IDisposable } from '@lumino/disposable';
import { type ISignal, Signal } from '@lumino/signaling';
import type { Widget } from '@lumino/widgets';
import type { TargetAction } from '@searchbook/contracts/edit-protocol';
import type {
  ConnectionInfo,
  GridView,
  ProfileInfo
} from '@searchbook/contracts/panel-protocol';
import type { OpenedGrid } from '../documents/document-grid-widget';
import { PanelClient } from '../panel-client';
import { confirmDone } from '../documents/confirmations';
import type { IDocumentGrid } from '../tokens';
import type { ConnectionNode } from './connections-tree';
import { mayChangeListing } from './listing-changes';
import { searchbookSettings } from '../settings/searchbook-settings';
import { FIRST_SCREEN_ROWS } from '../documents/first-screen';

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
    opened: OpenedGrid,
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
export type SidebarPart =
  | 'heading'
  | 'message'
  | 'listing'
  | 'profiles'
  /** Listed again because the servers may have changed: what else the panel shows of them is read again too. */
  | 'reread';

/** The saved profiles the panel's own kernel can open, or why none are listed. */
export interface ProfilesListing {
  profiles: ProfileInfo[];
  problem?: string;
}

/** A run of cells (Run All) ends in one listing, not one per cell. */
const RELOAD_DELAY_MS = 200;

/**
 * What the searchbook sidebar shows, and the kernel it comes from: the current notebook's or
 * console's searchbook kernel, found through JupyterLab's notebook and console trackers, or
 * with none current the panel's own kernel. It owns the panel's comm clients (one per kernel,
 * kept while grids use it: closing a comm closes its grids in the kernel).
 *
 * It lists again only when the listing may have changed: on following another kernel, after
 * a kernel restart, after a cell that may change it ran (`mayChangeListing`: magics, requests
 * other than GET and HEAD, seen on iopub, so cells run from any page count), after the
 * panel's own actions (profile connected, index deleted or emptied), and on Refresh. A grid's
 * save reads its connection's counts again (`recount`).
 */
export class SidebarModel implements IDisposable {
  readonly changed = new Signal<this, SidebarPart>(this);
  heading = '';
  message = '';
  connections: ConnectionInfo[] = [];
  /** The tree's connections as last listed, whose counts a save reads again. */
  nodes: ConnectionNode[] = [];
  /** Listed only for the panel's own kernel. */
  profiles: ProfilesListing | undefined;

  private client: PanelClient | null = null;
  private readonly clients = new Map<Kernel.IKernelConnection, PanelClient>();
  private kernel: Kernel.IKernelConnection | null = null;
  private own = false;
  private shown = false;
  private followed: Kernel.IKernelConnection | null = null;
  private watched: ISessionContext | undefined;
  /** Executions (by request id) whose cell may change the listing, until they finish. */
  private readonly listingCells = new Set<string>();
  private restarted = false;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  private disposed = false;

  constructor(private readonly options: SidebarModelOptions) {
    for (const tracker of options.trackers) {
      tracker.currentChanged.connect(this.followCurrent, this);
    }
    options.shell.currentChanged?.connect(this.followCurrent, this);
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
    clearTimeout(this.reloadTimer);
    for (const tracker of this.options.trackers) {
      tracker.currentChanged.disconnect(this.followCurrent, this);
    }
    this.options.shell.currentChanged?.disconnect(this.followCurrent, this);
    this.watch(undefined);
    this.listen(null);
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
    this.watch(tracked?.sessionContext);
    this.follow(
      tracked?.sessionContext.session?.kernel ?? null,
      tracked?.title.label ?? 'the current document',
      tracked !== undefined && this.options.runsMagics?.(tracked) === true
    );
  }

  /** The sidebar is shown or hidden: the panel's own kernel starts only when someone looks. */
  setShown(shown: boolean): void {
    this.shown = shown;
    if (shown && !this.kernel) {
      void this.useOwn();
    }
  }

  /** Lists the connections, their indices or collections, and (own kernel) the saved profiles. */
  async reload(): Promise<void> {
    clearTimeout(this.reloadTimer);
    const kernel = this.kernel;
    if (!kernel) {
      return;
    }
    const client = (this.client = this.clientFor(kernel));
    const generation = ++this.generation;
    this.say('');
    try {
      const { connections } = await client.request(
        { type: 'connections' },
        'connections'
      );
      if (generation !== this.generation) {
        return;
      }
      this.connections = connections;
      const nodes: ConnectionNode[] = connections.map(connection => ({
        connection,
        targets: [],
        loading: true
      }));
      this.nodes = nodes;
      this.changed.emit('listing');
      this.changed.emit('reread');
      await Promise.all(
        nodes.map(async node => {
          try {
            const listing = await client.request(
              { type: 'targets', connection: node.connection.name },
              'targets'
            );
            node.targets = listing.targets;
            if (listing.note) {
              node.note = listing.note;
            }
          } catch (err) {
            node.note = (err as Error).message;
          }
          node.loading = false;
          if (generation === this.generation) {
            this.changed.emit('listing');
          }
        })
      );
      if (this.own && generation === this.generation) {
        await this.listProfiles(client, generation);
      }
    } catch (err) {
      if (generation === this.generation) {
        this.say((err as Error).message);
      }
    }
  }

  /** A grid saved insertions or deletions: the counts of its connection's indices or collections are read again (what a search finds now). */
  async recount(client: PanelClient, connection: string): Promise<void> {
    const node = this.nodes.find(n => n.connection.name === connection);
    if (client !== this.client || !node || node.loading) {
      return;
    }
    const nodes = this.nodes;
    try {
      const listing = await client.request(
        { type: 'targets', connection },
        'targets'
      );
      if (nodes !== this.nodes) {
        return;
      }
      node.targets = listing.targets;
      this.changed.emit('listing');
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
      ? this.clientFor(options.kernel)
      : (this.client ?? (await this.ensureKernel()));
    this.say(`Opening ${target}…`);
    // User timing marks, for the panel benchmark's breakdown of the time to first rows.
    performance.mark('searchbook:grid-open-sent');
    try {
      const opened = await client.request(
        {
          type: 'open',
          connection,
          target,
          blockSize: searchbookSettings.current.rowsPerBlock,
          firstRows: FIRST_SCREEN_ROWS,
          ...(options.view ? { view: options.view } : {})
        },
        'opened'
      );
      performance.mark('searchbook:grid-opened');
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
    const kernel = this.kernel;
    if (!kernel) {
      return;
    }
    this.say(`Connecting ${name}…`);
    let failure = '';
    const future = kernel.requestExecute({
      code: `%connect ${name}`,
      silent: false,
      store_history: false,
      allow_stdin: false
    });
    future.onIOPub = msg => {
      if (msg.header.msg_type === 'error') {
        failure = String(
          (msg.content as { evalue?: unknown }).evalue ?? 'failed'
        );
      }
    };
    await future.done;
    this.say(failure ? `${name}: ${failure}` : '');
    await this.reload();
  }

  /** Deletes or empties an index or collection (confirmed by its typed name), then lists again. */
  async runTargetAction(
    client: PanelClient,
    connection: string,
    target: string,
    action: TargetAction['action'],
    confirmName: string,
    /** The documents the confirmation showed: the kernel sends nothing if the server holds another count now. */
    documents?: number | null
  ): Promise<void> {
    try {
      const done = await client.request(
        {
          type: 'targetAction',
          connection,
          target,
          action,
          confirmName,
          ...(documents !== undefined ? { basis: { documents } } : {})
        },
        'targetActionDone'
      );
      this.options.targetChanged?.(client, connection, target);
      await this.reload();
      // Done, and the tree shows it: a confirmation that goes by itself, not a standing message.
      this.say('');
      confirmDone(done.message);
    } catch (err) {
      // Refused because the target changed, or failed: the tree shows what the server holds now.
      await this.reload();
      this.say(`${target}: ${(err as Error).message}`);
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
      this.listen(null);
      this.client = null;
      if (this.shown) {
        void this.useOwn();
      } else {
        this.setHeading('No searchbook notebook or console is current.');
      }
    }
  }

  private watch(context: ISessionContext | undefined): void {
    if (this.watched === context) {
      return;
    }
    this.watched?.kernelChanged.disconnect(this.followCurrent, this);
    this.watched = context;
    context?.kernelChanged.connect(this.followCurrent, this);
  }

  private async ensureKernel(): Promise<PanelClient> {
    if (!this.kernel) {
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
    if (this.kernel !== kernel) {
      this.listen(kernel);
      this.client = this.clientFor(kernel);
    }
    if (this.own !== own) {
      this.own = own;
      this.profiles = undefined;
      this.changed.emit('profiles');
    }
    this.setHeading(heading);
    await this.reload();
  }

  private listen(kernel: Kernel.IKernelConnection | null): void {
    if (this.kernel === kernel) {
      return;
    }
    this.kernel?.iopubMessage.disconnect(this.onIopub, this);
    this.kernel?.statusChanged.disconnect(this.onStatus, this);
    this.listingCells.clear();
    this.restarted = false;
    this.kernel = kernel;
    kernel?.iopubMessage.connect(this.onIopub, this);
    kernel?.statusChanged.connect(this.onStatus, this);
  }

  /** A cell that may change the listing started; when its kernel is idle again, the listing is read again. */
  private onIopub(
    _: Kernel.IKernelConnection,
    msg: KernelMessage.IIOPubMessage
  ): void {
    const parent = (msg.parent_header as Partial<KernelMessage.IHeader>).msg_id;
    if (parent === undefined) {
      return;
    }
    if (msg.header.msg_type === 'execute_input') {
      if (
        mayChangeListing(String((msg.content as { code?: unknown }).code ?? ''))
      ) {
        this.listingCells.add(parent);
      }
    } else if (
      msg.header.msg_type === 'status' &&
      (msg.content as { execution_state?: unknown }).execution_state ===
        'idle' &&
      this.listingCells.delete(parent)
    ) {
      this.scheduleReload();
    }
  }

  /** A restart forgets the kernel's connections: listed again once it is idle. */
  private onStatus(_: Kernel.IKernelConnection, status: Kernel.Status): void {
    if (status === 'restarting' || status === 'autorestarting') {
      this.restarted = true;
      this.listingCells.clear();
    } else if (status === 'idle' && this.restarted) {
      this.restarted = false;
      this.scheduleReload();
    }
  }

  private scheduleReload(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.reload(), RELOAD_DELAY_MS);
  }

  private clientFor(kernel: Kernel.IKernelConnection): PanelClient {
    let client = this.clients.get(kernel);
    if (!client || client.isClosed) {
      client = new PanelClient(kernel);
      this.clients.set(kernel, client);
      kernel.disposed.connect(() => this.clients.delete(kernel));
    }
    return client;
  }

  private async listProfiles(
    client: PanelClient,
    generation: number
  ): Promise<void> {
    const reply = await client.request({ type: 'profiles' }, 'profiles');
    if (generation !== this.generation) {
      return;
    }
    this.profiles = {
      profiles: reply.profiles,
      ...(reply.problem !== undefined ? { problem: reply.problem } : {})
    };
    this.changed.emit('profiles');
  }

  private setHeading(text: string): void {
    this.heading = text;
    this.changed.emit('heading');
  }
}
