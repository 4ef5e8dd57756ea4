import type {
  ResourceChange,
  ResourceEntry,
  ResourceKindInfo,
  ResourceTarget
} from '@searchbook/contracts/resource-protocol';
import type { PanelClient } from '../panel-client';
import { askEntry, confirmRequest, type EntryDraft } from './resource-dialogs';
import { returningFocus } from '../focus/focus-return';

const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

export interface ResourceSectionOptions {
  /** The collection or set the entries belong to, for kinds scoped to one. */
  parent?: string;
  /** The heading; the kind's title by default. */
  title?: string;
  /** For sets: the kind of their items, listed inside each set. */
  itemsInfo?: ResourceKindInfo;
  /** Opens a collection's grid: an alias's entry offers it for the collection it stands for. */
  open?(collection: string): void;
  /** Shown open, its entries loaded at once. */
  startOpen?: boolean;
}

/**
 * One kind of engine resource (aliases, presets, stopword sets, synonym or curation sets and
 * their items, a collection's synonyms or overrides): the list of entries, add and edit as
 * JSON, delete; every change shows the exact request the kernel plans before it is sent. A set
 * lists the collections that use it and its items inside it. A kind the server's version lacks
 * is shown disabled with the reason the kernel gives. Entry names and values are the engine's
 * text, rendered as text.
 */
export class ResourceSection {
  readonly node = document.createElement('details');
  private readonly status = document.createElement('div');
  private readonly list = document.createElement('ul');
  private loaded = false;
  private readonly target: ResourceTarget;
  private readonly title: string;

  constructor(
    private readonly client: PanelClient,
    private readonly connection: string,
    private readonly info: ResourceKindInfo,
    private readonly options: ResourceSectionOptions = {}
  ) {
    this.node.className = 'searchbook-Admin-section searchbook-Resources';
    this.node.dataset.kind = info.kind;
    this.target = {
      kind: info.kind,
      ...(options.parent !== undefined ? { parent: options.parent } : {})
    };
    this.title = options.title ?? info.title;
    const summary = document.createElement('summary');
    summary.textContent = this.title;
    this.status.className = 'searchbook-Admin-status';
    this.status.setAttribute('role', 'status');
    if (!info.available) {
      this.node.classList.add('searchbook-mod-disabled');
      this.node.setAttribute('aria-disabled', 'true');
      this.status.textContent =
        info.unavailableReason ?? 'This server does not offer it.';
      this.node.append(summary, this.status);
      return;
    }
    const refresh = this.button('Refresh', () => void this.load());
    refresh.setAttribute('aria-label', `Refresh ${this.title}`);
    const add = this.button('Add…', () => void this.edit(undefined));
    add.setAttribute('aria-label', `Add to ${this.title}`);
    this.list.className = 'searchbook-Resources-list';
    this.list.setAttribute('aria-label', `${this.title} of ${connection}`);
    this.node.append(summary, refresh, add, this.status, this.list);
    this.node.addEventListener('toggle', () => {
      if (this.node.open && !this.loaded) {
        void this.load();
      }
    });
    if (options.startOpen) {
      this.node.open = true;
    }
  }

  private button(text: string, onClick: () => void): HTMLButtonElement {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'jp-Button searchbook-Toolbar-button';
    button.textContent = text;
    button.addEventListener(
      'click',
      () => void returningFocus(button, onClick)
    );
    return button;
  }

  async load(): Promise<void> {
    this.loaded = true;
    this.status.textContent = 'Loading…';
    this.status.classList.remove('searchbook-mod-error');
    try {
      const { entries } = await this.client.request(
        {
          type: 'resourceList',
          connection: this.connection,
          target: this.target
        },
        'resourceList'
      );
      this.list.replaceChildren(...entries.map(entry => this.item(entry)));
      this.status.textContent =
        entries.length === 0
          ? 'None yet.'
          : `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`;
    } catch (err) {
      this.list.replaceChildren();
      this.fail((err as Error).message);
    }
  }

  private fail(message: string): void {
    this.status.textContent = message;
    this.status.classList.add('searchbook-mod-error');
  }

  private item(entry: ResourceEntry): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'searchbook-Resource';
    item.setAttribute('aria-label', entry.name);
    const title = document.createElement('div');
    title.className = 'searchbook-Resource-title';
    const itemsInfo = this.options.itemsInfo;
    title.textContent = itemsInfo
      ? `${entry.name} · used by ${entry.usedBy && entry.usedBy.length > 0 ? entry.usedBy.join(', ') : 'no collection'}`
      : entry.usedBy && entry.usedBy.length > 0
        ? `${entry.name} → ${entry.usedBy.join(', ')}`
        : entry.name;
    item.append(title);
    const shown = itemsInfo ? withoutItems(entry.value) : entry.value;
    if (shown !== undefined) {
      const value = document.createElement('pre');
      value.className = 'searchbook-Resource-value';
      value.textContent = JSON.stringify(shown);
      item.append(value);
    }
    const collection = entry.usedBy?.[0];
    const open = this.options.open;
    if (open && this.info.kind === 'aliases' && collection !== undefined) {
      const button = this.button('Open', () => open(collection));
      button.setAttribute('aria-label', `Open ${entry.name}`);
      button.title = `Open ${collection}, the collection ${entry.name} stands for`;
      title.addEventListener('dblclick', () => open(collection));
      item.append(button);
    }
    const edit = this.button('Edit…', () => void this.edit(entry));
    edit.setAttribute('aria-label', `Edit ${entry.name}`);
    const remove = this.button('Delete…', () => void this.remove(entry));
    remove.setAttribute('aria-label', `Delete ${entry.name}`);
    item.append(edit, remove);
    if (itemsInfo) {
      item.append(
        new ResourceSection(this.client, this.connection, itemsInfo, {
          parent: entry.name,
          title: `${itemsInfo.title} in ${entry.name}`
        }).node
      );
    }
    return item;
  }

  private async edit(entry: ResourceEntry | undefined): Promise<void> {
    let draft: EntryDraft = {
      name: entry?.name ?? '',
      json: entry ? pretty(entry.value) : this.info.template,
      error: ''
    };
    const title = entry ? `Edit ${entry.name}` : `Add to ${this.title}`;
    for (;;) {
      const typed = await askEntry(title, draft, entry !== undefined);
      if (!typed) {
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(typed.json);
      } catch (err) {
        draft = {
          ...typed,
          error: `Not JSON (${(err as Error).message}): write the entry as a JSON object, as in ${this.info.template}.`
        };
        continue;
      }
      const error = await this.change(
        { target: this.target, op: 'put', name: typed.name, body },
        title
      );
      if (error === undefined) {
        return;
      }
      draft = { ...typed, error };
    }
  }

  private async remove(entry: ResourceEntry): Promise<void> {
    const error = await this.change(
      { target: this.target, op: 'delete', name: entry.name },
      `Delete ${entry.name}`
    );
    if (error !== undefined) {
      this.fail(`Could not delete "${entry.name}": ${error}`);
    }
  }

  /**
   * Plans the change, shows its request, sends it once confirmed and reloads the list.
   * Returns the reason when it could not be planned or sent (the form keeps what was typed).
   */
  private async change(
    change: ResourceChange,
    title: string
  ): Promise<string | undefined> {
    try {
      const { request } = await this.client.request(
        { type: 'resourcePlan', connection: this.connection, change },
        'resourcePlan'
      );
      if (!(await confirmRequest(title, request))) {
        return undefined;
      }
      await this.client.request(
        { type: 'resourceApply', connection: this.connection, change },
        'resourceApplied'
      );
      await this.load();
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  }
}

/** A set's own settings besides its items (listed inside it); undefined when it has none. */
function withoutItems(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return value;
  }
  const rest = Object.fromEntries(
    Object.entries(value).filter(([key]) => key !== 'items')
  );
  return Object.keys(rest).length > 0 ? rest : undefined;
}
