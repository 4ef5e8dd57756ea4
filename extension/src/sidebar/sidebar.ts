import { Widget } from '@lumino/widgets';
import type { ProfileInfo } from '@searchbook/contracts/panel-protocol';
import { AdminSections } from '../admin/admin-sections';
import { CollectionResourceTabs } from '../admin/collection-resources';
import { showCollectionSchema } from '../admin/schema-dialog';
import type { PanelClient } from '../panel-client';
import { ConnectionsTree } from './connections-tree';
import {
  focusBack,
  focusHomeOf,
  focusLost,
  returnFocus,
  returningFocus,
  setFocusHome
} from '../focus/focus-return';
import type { SidebarModel, SidebarPart } from './model';
import { confirmTargetAction, openTargetMenu } from './target-actions';

export interface SidebarOptions {
  /** Asks for and runs an export of an index or collection. */
  exportTarget?(client: PanelClient, connection: string, target: string): void;
  /** Shows a tab in the main area (a collection's synonyms and overrides). */
  showMain?(widget: Widget): void;
}

/**
 * The `searchbook` sidebar: the view of a `SidebarModel` (the connections of the current
 * notebook's or console's searchbook kernel and their indices or collections; with no
 * searchbook kernel current, the panel's own kernel, whose saved profiles it lists and can
 * open). It builds the DOM and turns clicks into the model's actions.
 */
export class SearchbookSidebar extends Widget {
  private readonly tree = new ConnectionsTree({
    open: (connection, target) => this.openGrid(connection, target),
    sections: connection => this.sectionsOf(connection),
    targetMenu: (connection, target, at) =>
      void this.targetMenu(connection, target, at)
  });
  /** Keys and metrics sections per connection of the followed kernel. */
  private readonly admin = new Map<string, AdminSections>();
  /** Tabs of collections' synonyms and overrides. */
  private readonly resourceTabs = new CollectionResourceTabs(widget =>
    this.options.showMain?.(widget)
  );
  private readonly heading = document.createElement('div');
  private readonly message = document.createElement('div');
  private readonly connectionChoice = document.createElement('select');
  private readonly openInput = document.createElement('input');
  private readonly profiles = document.createElement('ul');
  private readonly profilesSection = document.createElement('section');

  constructor(
    readonly model: SidebarModel,
    private readonly options: SidebarOptions = {}
  ) {
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
    // A control of the panel that is gone when its dialog or action ends (a deleted index's
    // item, a key's row) hands the keyboard to the tree's current item, or the filter box.
    setFocusHome(this.node, () => {
      if (!this.tree.focusCurrent()) {
        filter.focus();
      }
    });
    const refresh = document.createElement('button');
    refresh.className = 'searchbook-Toolbar-button jp-Button';
    refresh.textContent = 'Refresh';
    refresh.addEventListener(
      'click',
      () => void returningFocus(refresh, () => this.model.reload())
    );
    tools.append(filter, refresh);

    const openBox = document.createElement('form');
    openBox.className = 'searchbook-Sidebar-open';
    this.connectionChoice.setAttribute(
      'aria-label',
      'Connection to open a name on'
    );
    this.openInput.placeholder = 'Open… alias, pattern, data stream';
    this.openInput.setAttribute('aria-label', 'Open…');
    const openButton = document.createElement('button');
    openButton.type = 'submit';
    openButton.className = 'searchbook-Toolbar-button jp-Button';
    openButton.textContent = 'Open';
    openBox.append(this.connectionChoice, this.openInput, openButton);
    openBox.addEventListener('submit', event => {
      event.preventDefault();
      const name = this.openInput.value.trim();
      if (!name) {
        return this.model.say(
          'Type the name of an index, alias, pattern, data stream or collection to open.'
        );
      }
      if (!this.connectionChoice.value) {
        return this.model.say('No connection is open to open it on.');
      }
      this.openGrid(this.connectionChoice.value, name);
    });

    this.message.className = 'searchbook-Sidebar-message';
    this.message.setAttribute('role', 'alert');
    const profilesTitle = document.createElement('h3');
    profilesTitle.textContent = 'Saved profiles';
    this.profiles.setAttribute('aria-label', 'Saved profiles');
    this.profilesSection.className = 'searchbook-Sidebar-profiles';
    this.profilesSection.append(profilesTitle, this.profiles);
    this.profilesSection.hidden = true;
    this.node.append(
      this.heading,
      tools,
      openBox,
      this.message,
      this.tree.node,
      this.profilesSection
    );
    model.changed.connect(this.onModelChanged, this);
  }

  override dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.model.changed.disconnect(this.onModelChanged, this);
    this.dropSections(() => true);
    super.dispose();
  }

  protected override onAfterShow(): void {
    this.model.setShown(true);
  }

  protected override onAfterHide(): void {
    this.model.setShown(false);
  }

  private onModelChanged(model: SidebarModel, part: SidebarPart): void {
    switch (part) {
      case 'heading':
        this.heading.textContent = model.heading;
        break;
      case 'message':
        this.say(model.message);
        break;
      case 'listing': {
        const client = model.panelClient;
        const names = new Set(model.connections.map(c => c.name));
        this.dropSections(
          (name, sections) => sections.client !== client || !names.has(name)
        );
        this.fillConnectionChoice();
        this.tree.setNodes(model.nodes);
        break;
      }
      case 'profiles':
        this.showProfiles();
        break;
      case 'reread':
        for (const sections of this.admin.values()) {
          sections.refresh();
        }
        this.resourceTabs.refresh();
        break;
    }
  }

  private sectionsOf(connection: string): HTMLElement | undefined {
    const client = this.model.panelClient;
    if (!client) {
      return undefined;
    }
    let sections = this.admin.get(connection);
    if (!sections || sections.client !== client) {
      sections?.dispose();
      sections = new AdminSections(client, connection, target =>
        this.openGrid(connection, target)
      );
      this.admin.set(connection, sections);
    }
    return sections.node;
  }

  private dropSections(
    drop: (name: string, sections: AdminSections) => boolean
  ): void {
    for (const [name, sections] of this.admin) {
      if (!drop(name, sections)) {
        continue;
      }
      sections.dispose();
      this.admin.delete(name);
    }
  }

  private fillConnectionChoice(): void {
    const connections = this.model.connections;
    const previous = this.connectionChoice.value;
    this.connectionChoice.replaceChildren(
      ...connections.map(c => {
        const option = document.createElement('option');
        option.value = c.name;
        option.textContent = c.name;
        return option;
      })
    );
    const keep =
      connections.find(c => c.name === previous) ??
      connections.find(c => c.active);
    if (keep) {
      this.connectionChoice.value = keep.name;
    }
  }

  private showProfiles(): void {
    this.profilesSection.hidden = !this.model.ownKernel;
    const listing = this.model.profiles;
    if (!listing) {
      this.profiles.replaceChildren();
      return;
    }
    // The keyboard on a profile's button stays with that profile through the redraw, or goes to
    // the panel's tree once its button says Connected (a redraw after Connect's own answer).
    const active = document.activeElement;
    const focused = this.profiles.contains(active)
      ? active?.getAttribute('aria-label')
      : undefined;
    this.profiles.replaceChildren(
      ...listing.profiles.map(p => this.profileItem(p))
    );
    if (focused && focusLost()) {
      const again = [
        ...this.profiles.querySelectorAll<HTMLButtonElement>('button')
      ].find(b => b.getAttribute('aria-label') === focused);
      focusBack(again ?? null, focusHomeOf(this.profiles));
    }
    if (listing.profiles.length === 0) {
      const none = document.createElement('li');
      none.className = 'searchbook-Tree-note';
      none.textContent =
        listing.problem ??
        'No saved profiles. Save one from a notebook with %connect … --save <name>.';
      this.profiles.append(none);
    }
  }

  private profileItem(profile: ProfileInfo): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'searchbook-Sidebar-profile';
    const open = this.model.connections.some(c => c.name === profile.name);
    const button = document.createElement('button');
    button.className = 'searchbook-Toolbar-button jp-Button';
    button.textContent = open ? 'Connected' : 'Connect';
    button.disabled = open;
    button.setAttribute('aria-label', `Connect ${profile.name}`);
    button.addEventListener(
      'click',
      () =>
        void returningFocus(button, () =>
          this.model.connectProfile(profile.name)
        )
    );
    const label = document.createElement('span');
    label.textContent = `${profile.name} · ${profile.engine} · ${profile.address}`;
    item.append(label, button);
    return item;
  }

  private openGrid(connection: string, target: string): void {
    // The model says why a grid did not open; nothing more to do here.
    this.model.openGrid(connection, target).catch(() => undefined);
  }

  /** Delete or empty an index or collection: the menu, the typed-name confirmation, then the model's request. */
  private async targetMenu(
    connection: string,
    target: string,
    at: { x: number; y: number; keyboard?: boolean }
  ): Promise<void> {
    const client = this.model.panelClient;
    if (!client) {
      return;
    }
    const exportTarget = this.options.exportTarget;
    try {
      await openTargetMenu(
        client,
        connection,
        target,
        at,
        (action, documents) => {
          // The item goes with a deleted index: the keyboard then goes to the one in its place.
          const origin = document.activeElement;
          const back = this.tree.wayBackFrom(origin);
          void (async () => {
            try {
              const confirmName = await confirmTargetAction(
                action,
                target,
                documents
              );
              if (confirmName !== null) {
                await this.model.runTargetAction(client, {
                  connection,
                  target,
                  action: action.action,
                  confirmName,
                  documents
                });
              }
            } finally {
              returnFocus(origin, back);
            }
          })();
        },
        exportTarget
          ? () => exportTarget(client, connection, target)
          : undefined,
        this.admin.get(connection)?.hasResources
          ? () =>
              void showCollectionSchema(client, connection, target).catch(
                (err: Error) => this.model.say(`${target}: ${err.message}`)
              )
          : undefined,
        this.options.showMain
          ? this.resourceTabs.menuItem(
              client,
              connection,
              target,
              this.admin.get(connection)?.collectionKinds ?? []
            )
          : undefined
      );
    } catch (err) {
      this.model.say(`${target}: ${(err as Error).message}`);
    }
  }

  private say(text: string): void {
    this.message.textContent = text;
    this.message.hidden = text === '';
  }
}
