import type {
  ResourceChange,
  ResourceEntry,
  ResourceKindInfo
} from '@searchbook/contracts/resource-protocol';
import type { PanelClient } from '../panel-client';
import { askEntry, confirmRequest, type EntryDraft } from './resource-dialogs';

const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

/**
 * One kind of engine resource (aliases, presets, stopword sets, synonym or curation sets): the
 * list of entries, add and edit as JSON, delete; every change shows the exact request the
 * kernel plans before it is sent. A kind the server's version lacks is shown disabled with the
 * reason the kernel gives. Entry names and values are the engine's text, rendered as text.
 */
export class ResourceSection {
  readonly node = document.createElement('details');
  private readonly status = document.createElement('div');
  private readonly list = document.createElement('ul');
  private loaded = false;

  constructor(
    private readonly client: PanelClient,
    private readonly connection: string,
    private readonly info: ResourceKindInfo
  ) {
    this.node.className = 'searchbook-Admin-section searchbook-Resources';
    this.node.dataset.kind = info.kind;
    const summary = document.createElement('summary');
    summary.textContent = info.title;
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
    refresh.setAttribute('aria-label', `Refresh ${info.title}`);
    const add = this.button('Add…', () => void this.edit(undefined));
    add.setAttribute('aria-label', `Add to ${info.title}`);
    this.list.className = 'searchbook-Resources-list';
    this.list.setAttribute('aria-label', `${info.title} of ${connection}`);
    this.node.append(summary, refresh, add, this.status, this.list);
    this.node.addEventListener('toggle', () => {
      if (this.node.open && !this.loaded) {
        void this.load();
      }
    });
  }

  private button(text: string, onClick: () => void): HTMLButtonElement {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'jp-Button searchbook-Toolbar-button';
    button.textContent = text;
    button.addEventListener('click', onClick);
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
          target: { kind: this.info.kind }
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
    title.textContent =
      entry.usedBy && entry.usedBy.length > 0
        ? `${entry.name} → ${entry.usedBy.join(', ')}`
        : entry.name;
    const value = document.createElement('pre');
    value.className = 'searchbook-Resource-value';
    value.textContent = JSON.stringify(entry.value);
    const edit = this.button('Edit…', () => void this.edit(entry));
    edit.setAttribute('aria-label', `Edit ${entry.name}`);
    const remove = this.button('Delete…', () => void this.remove(entry));
    remove.setAttribute('aria-label', `Delete ${entry.name}`);
    item.append(title, value, edit, remove);
    return item;
  }

  private async edit(entry: ResourceEntry | undefined): Promise<void> {
    let draft: EntryDraft = {
      name: entry?.name ?? '',
      json: entry ? pretty(entry.value) : this.info.template,
      error: ''
    };
    const title = entry ? `Edit ${entry.name}` : `Add to ${this.info.title}`;
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
        { target: { kind: this.info.kind }, op: 'put', name: typed.name, body },
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
      { target: { kind: this.info.kind }, op: 'delete', name: entry.name },
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
