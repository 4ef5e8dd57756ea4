import { InputDialog } from '@jupyterlab/apputils';
import {
  type ResourceChange,
  ResourceChangeSchema,
  type ResourceEntry,
  type ResourceKindInfo,
  type ResourceTarget
} from '@searchbook/contracts/resource-protocol';
import type { PanelClient } from '../panel-client';
import { askEntry, confirmRequest, type EntryDraft } from './resource-dialogs';
import { returningFocus, setFocusHome } from '../focus/focus-return';
import { redrawKeepingFocus } from '../focus/redraw-keeping-focus';

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
  /** The sections of each set's items, by set name: kept open across a new listing. */
  private children = new Map<string, ResourceSection>();
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
    const refresh = this.button('Refresh', () => this.load());
    refresh.setAttribute('aria-label', `Refresh ${this.title}`);
    const add = this.button('Add…', () => this.edit(undefined));
    add.setAttribute('aria-label', `Add to ${this.title}`);
    this.list.className = 'searchbook-Resources-list';
    this.list.setAttribute('aria-label', `${this.title} of ${connection}`);
    this.node.append(summary, refresh, add, this.status, this.list);
    // The last entry deleted, its buttons gone with it: the keyboard stays in this section (in
    // a collection's tab too, where no panel tree is there to take it).
    setFocusHome(this.node, () => add.focus());
    this.node.addEventListener('toggle', () => {
      if (this.node.open && !this.loaded) {
        void this.load();
      }
    });
    if (options.startOpen) {
      this.node.open = true;
    }
  }

  private button(
    text: string,
    /** What the button does; a promise while it is not done (the keyboard comes back after). */
    onClick: () => unknown
  ): HTMLButtonElement {
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

  /**
   * Lists the entries as the server holds them now; returns them, or undefined when they
   * could not be read (the status says why).
   */
  async load(): Promise<ResourceEntry[] | undefined> {
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
      const before = this.children;
      this.children = new Map();
      redrawKeepingFocus(
        this.list,
        entries.map(entry => this.item(entry, before.get(entry.name)))
      );
      this.status.textContent =
        entries.length === 0
          ? 'None yet.'
          : `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`;
      return entries;
    } catch (err) {
      this.list.replaceChildren();
      this.fail((err as Error).message);
      return undefined;
    }
  }

  /**
   * The server may have changed (a cell that writes ran, the panel listed again): a section
   * already listed lists again, and so do the item sections open inside it.
   */
  async refresh(): Promise<void> {
    if (this.loaded && this.info.available) {
      await this.load();
    }
  }

  /** The entry as the server holds it now (the list read again), or undefined when it is gone. */
  private async current(name: string): Promise<ResourceEntry | undefined> {
    const entries = await this.load();
    return entries?.find(e => e.name === name);
  }

  private fail(message: string): void {
    this.status.textContent = message;
    this.status.classList.add('searchbook-mod-error');
  }

  private item(
    entry: ResourceEntry,
    before: ResourceSection | undefined
  ): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'searchbook-Resource';
    item.dataset.key = entry.name;
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
    const edit = this.button('Edit…', () => this.edit(entry));
    edit.setAttribute('aria-label', `Edit ${entry.name}`);
    const remove = this.button('Delete…', () => this.remove(entry));
    remove.setAttribute('aria-label', `Delete ${entry.name}`);
    item.append(edit, remove);
    if (itemsInfo) {
      const link = this.button('Use in…', () => this.link(entry));
      link.setAttribute('aria-label', `Use ${entry.name} in a collection`);
      link.title = `Add ${entry.name} to the sets a collection uses`;
      item.append(link);
    }
    if (itemsInfo) {
      const items = new ResourceSection(
        this.client,
        this.connection,
        itemsInfo,
        {
          parent: entry.name,
          title: `${itemsInfo.title} in ${entry.name}`,
          startOpen: before?.node.open === true
        }
      );
      this.children.set(entry.name, items);
      item.append(items.node);
    }
    return item;
  }

  /**
   * Add, or Edit an entry: an edit starts from what the server holds now (read when the form
   * opens, not what the list showed), and its Send carries that as the basis, so the kernel
   * sends nothing when the entry changed meanwhile; the form then says so, showing what the
   * server holds, with the typed text kept.
   */
  private async edit(shown: ResourceEntry | undefined): Promise<void> {
    let basis: { value: unknown } | null = null;
    let json = this.info.template;
    if (shown) {
      const entry = await this.current(shown.name);
      if (!entry) {
        this.fail(
          `"${shown.name}" is no longer on the server: it was deleted since the list was read.`
        );
        return;
      }
      basis = { value: entry.value };
      json = pretty(entry.value);
    }
    let draft: EntryDraft = { name: shown?.name ?? '', json, error: '' };
    const title = shown ? `Edit ${shown.name}` : `Add to ${this.title}`;
    for (;;) {
      const typed = await askEntry(title, draft, shown !== undefined);
      if (!typed) {
        return;
      }
      // Checked here, in the words the form needs, before the kernel would refuse the message.
      const named = ResourceChangeSchema.shape.name.safeParse(typed.name);
      if (!named.success) {
        draft = {
          ...typed,
          error: `${named.error.issues[0]?.message ?? 'Give the entry a name.'} Nothing was sent.`
        };
        continue;
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
      const outcome = await this.change(
        { target: this.target, op: 'put', name: typed.name, body, basis },
        title
      );
      if (outcome === undefined) {
        return;
      }
      if (typeof outcome === 'string') {
        draft = { ...typed, error: outcome };
        continue;
      }
      // Sending now would knowingly replace what the server holds: the basis moves to it.
      basis = outcome.current ? { value: outcome.current.value } : null;
      draft = {
        ...typed,
        error: conflictText(typed.name, outcome.current, shown === undefined)
      };
    }
  }

  /**
   * Use in…: a set added to the sets a collection uses, shown as the PATCH of the collection's
   * list as the server holds it (read again when sent, so nothing another change added is lost).
   */
  private async link(entry: ResourceEntry): Promise<void> {
    const asked = await InputDialog.getText({
      title: `Use ${entry.name} in a collection`,
      label: 'Collection',
      okLabel: 'Review'
    });
    const collection = asked.value?.trim() ?? '';
    if (!asked.button.accept || collection === '') {
      return;
    }
    const outcome = await this.change(
      {
        target: this.target,
        op: 'link',
        name: entry.name,
        body: { collection }
      },
      `Use ${entry.name} in ${collection}`
    );
    if (typeof outcome === 'string') {
      this.fail(`Could not add "${entry.name}" to ${collection}: ${outcome}`);
    }
  }

  /**
   * Delete: the list is read again first, so the request shown names what the server holds
   * now and a set's "used by" is the server's, warned about before Send.
   */
  private async remove(shown: ResourceEntry): Promise<void> {
    const entry = await this.current(shown.name);
    if (!entry) {
      this.fail(
        `"${shown.name}" is no longer on the server: nothing to delete.`
      );
      return;
    }
    const users = this.options.itemsInfo ? (entry.usedBy ?? []) : [];
    const warning =
      users.length > 0
        ? `${users.join(', ')} ${users.length === 1 ? 'names' : 'name'} ${entry.name}: deleting it leaves ${users.length === 1 ? 'that collection' : 'those collections'} naming a set that no longer exists. Remove ${entry.name} from ${users.length === 1 ? 'it' : 'them'} first, or send anyway.`
        : undefined;
    const outcome = await this.change(
      {
        target: this.target,
        op: 'delete',
        name: entry.name,
        basis: { value: entry.value }
      },
      `Delete ${entry.name}`,
      warning
    );
    if (typeof outcome === 'string') {
      this.fail(`Could not delete "${entry.name}": ${outcome}`);
    } else if (outcome !== undefined) {
      this.fail(
        `Nothing was deleted: ${conflictText(entry.name, outcome.current, false)}`
      );
    }
  }

  /**
   * Plans the change, shows its request, sends it once confirmed and reloads the list.
   * Returns undefined when done or cancelled, the reason when it could not be planned or sent
   * (the form keeps what was typed), or the conflict when the entry changed on the server
   * since the form read it (nothing was sent).
   */
  private async change(
    change: ResourceChange,
    title: string,
    warning?: string
  ): Promise<string | Conflict | undefined> {
    try {
      const { request } = await this.client.request(
        { type: 'resourcePlan', connection: this.connection, change },
        'resourcePlan'
      );
      if (!(await confirmRequest(title, request, warning))) {
        return undefined;
      }
      const reply = await this.client.request(
        { type: 'resourceApply', connection: this.connection, change },
        ['resourceApplied', 'resourceConflict']
      );
      await this.load();
      return reply.type === 'resourceConflict'
        ? { current: reply.current }
        : undefined;
    } catch (err) {
      return (err as Error).message;
    }
  }
}

/** What the server held when a change found its entry changed meanwhile (null: gone). */
interface Conflict {
  current: ResourceEntry | null;
}

/** The conflict as the form shows it: what happened, what the server holds, what to do. */
function conflictText(
  name: string,
  current: ResourceEntry | null,
  adding: boolean
): string {
  const what = adding
    ? `"${name}" was added on the server since this form opened`
    : `"${name}" changed on the server since this form read it`;
  const now =
    current === null
      ? `"${name}" is no longer on the server.`
      : `The server now holds:\n${pretty(current.value)}`;
  return `Conflict: ${what} (another tab or a cell changed it). Nothing was sent. ${now}\nYour text is kept: Review again to send it over what the server holds, or Cancel.`;
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
