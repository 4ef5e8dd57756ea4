import type { Kernel } from '@jupyterlab/services';
import { Widget } from '@lumino/widgets';
import type { ConnectionInfo, ProfileInfo } from '@searchbook/contracts/panel-protocol';
import { AdminSections } from '../admin/admin-sections';
import { ConnectionsTree, type ConnectionNode } from './connections-tree';
import { PanelClient } from '../panel-client';
import type { OpenedGrid } from '../documents/document-grid-widget';
import { confirmTargetAction, openTargetMenu } from './target-actions';

export interface SidebarOptions {
  /** Shows an opened grid in the main area. */
  showGrid(client: PanelClient, opened: OpenedGrid): void;
  /** Brings forward the tab already showing this target of this connection; false when there is none. */
  activateGrid?(connection: string, target: string): boolean;
  /** The panel's own searchbook kernel, started on first need. */
  ownKernel(): Promise<Kernel.IKernelConnection>;
  /** Asks for and runs an export of an index or collection. */
  exportTarget?(client: PanelClient, connection: string, target: string): void;
}

/** Rows per grid block: the engines' default page (drivers.md 8). */
const BLOCK_SIZE = 1000;

/**
 * The `searchbook` sidebar: the connections of the current notebook's or console's searchbook
 * kernel and their indices or collections; with no searchbook kernel current, a kernel of its
 * own, whose saved profiles it lists and can open.
 */
export class SearchbookSidebar extends Widget {
  private client: PanelClient | null = null;
  /** One comm per kernel, kept while grids use it: closing a comm closes its grids in the kernel. */
  private readonly clients = new Map<Kernel.IKernelConnection, PanelClient>();
  private kernel: Kernel.IKernelConnection | null = null;
  private own = false;
  private followed: Kernel.IKernelConnection | null = null;
  private readonly tree = new ConnectionsTree({
    open: (connection, target) => void this.openGrid(connection, target),
    sections: (connection) => this.sectionsOf(connection),
    targetMenu: (connection, target, at) => void this.targetMenu(connection, target, at),
  });
  /** Keys and metrics sections per connection of the followed kernel. */
  private readonly admin = new Map<string, AdminSections>();
  private readonly heading = document.createElement('div');
  private readonly message = document.createElement('div');
  private readonly connectionChoice = document.createElement('select');
  private readonly openInput = document.createElement('input');
  private readonly profiles = document.createElement('ul');
  private readonly profilesSection = document.createElement('section');
  private connections: ConnectionInfo[] = [];
  /** The tree's connections as last listed, whose counts a save reads again. */
  private nodes: ConnectionNode[] = [];
  private reloadTimer: number | undefined;
  private generation = 0;

  constructor(private readonly options: SidebarOptions) {
    super();
    this.id = 'searchbook-sidebar';
    this.addClass('searchbook-Sidebar');
    this.title.caption = 'searchbook';
    this.title.label = 'searchbook';

    this.heading.className = 'searchbook-Sidebar-heading';
    const tools = document.createElement('div');
    tools.className = 'searchbook-Sidebar-tools';
    const filter = document.createElement('input');
    filter.type = 'search';
    filter.placeholder = 'Filter names';
    filter.setAttribute('aria-label', 'Filter indices and collections');
    filter.addEventListener('input', () => this.tree.setFilter(filter.value));
    const refresh = document.createElement('button');
    refresh.className = 'searchbook-Toolbar-button jp-Button';
    refresh.textContent = 'Refresh';
    refresh.addEventListener('click', () => void this.reload());
    tools.append(filter, refresh);

    const openBox = document.createElement('form');
    openBox.className = 'searchbook-Sidebar-open';
    this.connectionChoice.setAttribute('aria-label', 'Connection to open a name on');
    this.openInput.placeholder = 'Open… alias, pattern, data stream';
    this.openInput.setAttribute('aria-label', 'Open…');
    const openButton = document.createElement('button');
    openButton.type = 'submit';
    openButton.className = 'searchbook-Toolbar-button jp-Button';
    openButton.textContent = 'Open';
    openBox.append(this.connectionChoice, this.openInput, openButton);
    openBox.addEventListener('submit', (event) => {
      event.preventDefault();
      const name = this.openInput.value.trim();
      if (!name) return this.say('Type the name of an index, alias, pattern, data stream or collection to open.');
      if (!this.connectionChoice.value) return this.say('No connection is open to open it on.');
      void this.openGrid(this.connectionChoice.value, name);
    });

    this.message.className = 'searchbook-Sidebar-message';
    this.message.setAttribute('role', 'alert');
    const profilesTitle = document.createElement('h3');
    profilesTitle.textContent = 'Saved profiles';
    this.profiles.setAttribute('aria-label', 'Saved profiles');
    this.profilesSection.className = 'searchbook-Sidebar-profiles';
    this.profilesSection.append(profilesTitle, this.profiles);
    this.profilesSection.hidden = true;
    this.node.append(this.heading, tools, openBox, this.message, this.tree.node, this.profilesSection);
  }

  /** The client of the kernel whose connections the tree lists (null before one is followed). */
  get gridClient(): PanelClient | null {
    return this.client;
  }

  /** Follows the current notebook's or console's kernel; null or another language: the panel's own. */
  follow(kernel: Kernel.IKernelConnection | null, label: string): void {
    const searchbook = kernel && kernel.name === 'searchbook' ? kernel : null;
    if (searchbook && searchbook === this.followed) return;
    this.followed = searchbook;
    if (searchbook) {
      void this.use(searchbook, false, `Kernel of ${label}`);
    } else if (!this.own) {
      this.kernel = null;
      this.client = null;
      if (this.isVisible) void this.useOwn();
      else this.heading.textContent = 'No searchbook notebook or console is current.';
    }
  }

  protected override onAfterShow(): void {
    if (!this.kernel) void this.useOwn();
  }

  private async useOwn(): Promise<void> {
    this.heading.textContent = 'Starting the panel’s own searchbook kernel…';
    try {
      await this.use(await this.options.ownKernel(), true, 'The panel’s own kernel (no searchbook notebook or console is current)');
    } catch (err) {
      this.say(`Could not start a searchbook kernel: ${(err as Error).message}`);
    }
  }

  private async use(kernel: Kernel.IKernelConnection, own: boolean, heading: string): Promise<void> {
    if (this.kernel !== kernel) {
      this.kernel?.anyMessage.disconnect(this.onKernelMessage, this);
      this.kernel = kernel;
      this.client = this.clientFor(kernel);
      kernel.anyMessage.connect(this.onKernelMessage, this);
    }
    this.own = own;
    this.heading.textContent = heading;
    this.profilesSection.hidden = !own;
    await this.reload();
  }

  /** A cell ran in the kernel (perhaps %connect): the connections may have changed. */
  private onKernelMessage(_: Kernel.IKernelConnection, args: Kernel.IAnyMessageArgs): void {
    if (args.direction !== 'recv' || args.msg.header.msg_type !== 'execute_reply') return;
    window.clearTimeout(this.reloadTimer);
    this.reloadTimer = window.setTimeout(() => void this.reload(), 200);
  }

  async reload(): Promise<void> {
    const kernel = this.kernel;
    if (!kernel) return;
    const client = (this.client = this.clientFor(kernel));
    const generation = ++this.generation;
    this.say('');
    try {
      const { connections } = await client.request({ type: 'connections' }, 'connections');
      if (generation !== this.generation) return;
      this.connections = connections;
      this.dropSections((name, sections) => sections.client !== client || !connections.some((c) => c.name === name));
      this.fillConnectionChoice();
      const nodes: ConnectionNode[] = connections.map((connection) => ({ connection, targets: [], loading: true }));
      this.nodes = nodes;
      this.tree.setNodes(nodes);
      await Promise.all(
        nodes.map(async (node) => {
          try {
            const listing = await client.request({ type: 'targets', connection: node.connection.name }, 'targets');
            node.targets = listing.targets;
            if (listing.note) node.note = listing.note;
          } catch (err) {
            node.note = (err as Error).message;
          }
          node.loading = false;
          if (generation === this.generation) this.tree.setNodes(nodes);
        }),
      );
      if (this.own) await this.listProfiles(client);
    } catch (err) {
      if (generation === this.generation) this.say((err as Error).message);
    }
  }

  /** A grid saved insertions or deletions: the counts of its connection's indices or collections are read again (what a search finds now). */
  async recount(client: PanelClient, connection: string): Promise<void> {
    const node = this.nodes.find((n) => n.connection.name === connection);
    if (client !== this.client || !node || node.loading) return;
    const nodes = this.nodes;
    try {
      const listing = await client.request({ type: 'targets', connection }, 'targets');
      if (nodes !== this.nodes) return;
      node.targets = listing.targets;
      this.tree.setNodes(nodes);
    } catch (err) {
      this.say(`${connection}: the document counts could not be read again: ${(err as Error).message}`);
    }
  }

  private sectionsOf(connection: string): HTMLElement | undefined {
    const client = this.client;
    if (!client) return undefined;
    let sections = this.admin.get(connection);
    if (!sections || sections.client !== client) {
      sections?.dispose();
      sections = new AdminSections(client, connection);
      this.admin.set(connection, sections);
    }
    return sections.node;
  }

  private dropSections(drop: (name: string, sections: AdminSections) => boolean): void {
    for (const [name, sections] of this.admin) {
      if (!drop(name, sections)) continue;
      sections.dispose();
      this.admin.delete(name);
    }
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

  private fillConnectionChoice(): void {
    const previous = this.connectionChoice.value;
    this.connectionChoice.replaceChildren(
      ...this.connections.map((c) => {
        const option = document.createElement('option');
        option.value = c.name;
        option.textContent = c.name;
        return option;
      }),
    );
    const keep = this.connections.find((c) => c.name === previous) ?? this.connections.find((c) => c.active);
    if (keep) this.connectionChoice.value = keep.name;
  }

  private async listProfiles(client: PanelClient): Promise<void> {
    const reply = await client.request({ type: 'profiles' }, 'profiles');
    this.profiles.replaceChildren(...reply.profiles.map((p) => this.profileItem(p)));
    if (reply.profiles.length === 0) {
      const none = document.createElement('li');
      none.className = 'searchbook-Tree-note';
      none.textContent = reply.problem ?? 'No saved profiles. Save one from a notebook with %connect … --save <name>.';
      this.profiles.append(none);
    }
  }

  private profileItem(profile: ProfileInfo): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'searchbook-Sidebar-profile';
    const open = this.connections.some((c) => c.name === profile.name);
    const button = document.createElement('button');
    button.className = 'searchbook-Toolbar-button jp-Button';
    button.textContent = open ? 'Connected' : 'Connect';
    button.disabled = open;
    button.setAttribute('aria-label', `Connect ${profile.name}`);
    button.addEventListener('click', () => void this.connectProfile(profile.name));
    const label = document.createElement('span');
    label.textContent = `${profile.name} · ${profile.engine} · ${profile.address}`;
    item.append(label, button);
    return item;
  }

  /** Opens a saved profile in the panel's own kernel, as `%connect <profile>` in a cell would. */
  private async connectProfile(name: string): Promise<void> {
    const kernel = this.kernel;
    if (!kernel) return;
    this.say(`Connecting ${name}…`);
    let failure = '';
    const future = kernel.requestExecute({ code: `%connect ${name}`, silent: false, store_history: false, allow_stdin: false });
    future.onIOPub = (msg) => {
      if (msg.header.msg_type === 'error') failure = String((msg.content as { evalue?: unknown }).evalue ?? 'failed');
    };
    await future.done;
    this.say(failure ? `${name}: ${failure}` : '');
    await this.reload();
  }

  private async openGrid(connection: string, target: string): Promise<void> {
    const client = this.client;
    if (!client) return;
    // One tab per connection and target: its pending changes are one set.
    if (this.options.activateGrid?.(connection, target)) return this.say('');
    this.say(`Opening ${target}…`);
    // User timing marks, for the panel benchmark's breakdown of the time to first rows.
    performance.mark('searchbook:grid-open-sent');
    try {
      const opened = await client.request({ type: 'open', connection, target, blockSize: BLOCK_SIZE }, 'opened');
      performance.mark('searchbook:grid-opened');
      this.say('');
      this.options.showGrid(client, opened);
      performance.mark('searchbook:grid-shown');
    } catch (err) {
      this.say(`${target}: ${(err as Error).message}`);
    }
  }

  /** Delete or empty an index or collection: the menu, the typed-name confirmation, the request, then the tree read again. */
  private async targetMenu(connection: string, target: string, at: { x: number; y: number }): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      await openTargetMenu(client, connection, target, at, (action) => {
        void (async () => {
          const confirmName = await confirmTargetAction(action, target);
          if (confirmName === null) return;
          try {
            const done = await client.request({ type: 'targetAction', connection, target, action: action.action, confirmName }, 'targetActionDone');
            await this.reload();
            this.say(done.message);
          } catch (err) {
            this.say(`${target}: ${(err as Error).message}`);
          }
        })();
      }, this.options.exportTarget ? () => this.options.exportTarget?.(client, connection, target) : undefined);
    } catch (err) {
      this.say(`${target}: ${(err as Error).message}`);
    }
  }

  private say(text: string): void {
    this.message.textContent = text;
    this.message.hidden = text === '';
  }
}
