import {
  type AdminOffers,
  type KeyInfo,
  NewKeySchema
} from '@searchbook/contracts/admin-protocol';
import type { PanelClient } from '../panel-client';
import { confirmKeyDeletion, showNewKeyValue } from './key-dialogs';
import { makeScopedKey } from './scoped-key-dialog';
import { expiryText, scopeText } from './scope-text';
import { createValueSeal } from './value-seal';
import { returningFocus, setFocusHome } from '../focus/focus-return';
import { redrawKeepingFocus } from '../focus/redraw-keeping-focus';

type KeysOffer = NonNullable<AdminOffers['keys']>;

const OTHER = 'other';

function field(labelText: string, control: HTMLElement): HTMLLabelElement {
  const label = document.createElement('label');
  label.className = 'searchbook-Form-field';
  const span = document.createElement('span');
  span.textContent = labelText;
  // Named by the label's words alone (a wrapping label would add a select's current choice).
  control.setAttribute('aria-label', labelText);
  label.append(span, control);
  return label;
}

const commaList = (text: string): string[] =>
  text
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '');

/**
 * A connection's API keys: the list (description, actions, scope, value prefix, expiry) with
 * refresh and delete, and a form that adds one. Keys are immutable, so there is no edit; a
 * key that may not list keys shows the engine's reason here.
 */
export class KeysSection {
  readonly node = document.createElement('details');
  private readonly status = document.createElement('div');
  private readonly list = document.createElement('ul');
  private readonly form = document.createElement('form');
  private readonly formStatus = document.createElement('div');
  private readonly description = document.createElement('input');
  private readonly actions = document.createElement('select');
  private readonly otherActions = document.createElement('input');
  private readonly collections = document.createElement('input');
  private readonly expiry = document.createElement('input');
  private loaded = false;

  constructor(
    private readonly client: PanelClient,
    private readonly connection: string,
    private readonly offer: KeysOffer
  ) {
    this.node.className = 'searchbook-Admin-section searchbook-Keys';
    const summary = document.createElement('summary');
    summary.textContent = offer.title;
    const refresh = document.createElement('button');
    refresh.type = 'button';
    refresh.className = 'jp-Button searchbook-Toolbar-button';
    refresh.textContent = 'Refresh keys';
    refresh.addEventListener(
      'click',
      () => void returningFocus(refresh, () => this.load())
    );
    const note = document.createElement('p');
    note.className = 'searchbook-Admin-note';
    note.textContent = offer.immutableNote;
    this.status.className = 'searchbook-Admin-status';
    this.status.setAttribute('role', 'status');
    this.list.className = 'searchbook-Keys-list';
    this.list.setAttribute('aria-label', `${offer.title} of ${connection}`);
    const scoped = offer.scoped;
    const scopedButton = document.createElement('button');
    scopedButton.type = 'button';
    scopedButton.className = 'jp-Button searchbook-Toolbar-button';
    scopedButton.hidden = scoped === undefined;
    if (scoped) {
      scopedButton.textContent = scoped.title;
      scopedButton.addEventListener(
        'click',
        () =>
          void returningFocus(scopedButton, () =>
            makeScopedKey(this.client, this.connection, scoped)
          )
      );
    }
    this.node.append(
      summary,
      refresh,
      scopedButton,
      note,
      this.status,
      this.list,
      this.buildForm()
    );
    // The last key deleted, its Delete button gone with it: the keyboard stays in this section.
    setFocusHome(this.node, () => refresh.focus());
    this.node.addEventListener('toggle', () => {
      if (this.node.open && !this.loaded) {
        void this.load();
      }
    });
  }

  private buildForm(): HTMLElement {
    const wrapper = document.createElement('details');
    wrapper.className = 'searchbook-Keys-add';
    const summary = document.createElement('summary');
    summary.textContent = 'Add a key';
    this.form.className = 'searchbook-Form';
    this.form.setAttribute('aria-label', `Add a key to ${this.connection}`);
    this.description.placeholder = 'what the key is for';
    for (const choice of this.offer.actionChoices) {
      const option = document.createElement('option');
      option.value = choice.actions.join(',');
      option.textContent = `${choice.label}: ${choice.actions.join(', ')}`;
      this.actions.append(option);
    }
    const other = document.createElement('option');
    other.value = OTHER;
    other.textContent = 'Other actions…';
    this.actions.append(other);
    this.otherActions.placeholder = 'documents:search, collections:get';
    const otherField = field(
      'Other actions (comma-separated)',
      this.otherActions
    );
    otherField.hidden = true;
    this.actions.addEventListener('change', () => {
      otherField.hidden = this.actions.value !== OTHER;
    });
    this.collections.value = '*';
    this.collections.placeholder = '* for every collection';
    this.expiry.type = 'date';
    const submit = document.createElement('button');
    submit.type = 'submit';
    submit.className = 'jp-Button searchbook-Toolbar-button';
    submit.textContent = 'Add key';
    this.formStatus.className = 'searchbook-Admin-status';
    this.formStatus.setAttribute('role', 'status');
    this.form.append(
      field('Description', this.description),
      field('Actions', this.actions),
      otherField,
      field('Collections (comma-separated, * for all)', this.collections),
      field('Expires (optional)', this.expiry),
      submit,
      this.formStatus
    );
    this.form.addEventListener('submit', event => {
      event.preventDefault();
      void this.add();
    });
    wrapper.append(summary, this.form);
    return wrapper;
  }

  async load(): Promise<void> {
    this.loaded = true;
    this.status.textContent = 'Loading keys…';
    this.status.classList.remove('searchbook-mod-error');
    try {
      const { keys } = await this.client.request(
        { type: 'keys', connection: this.connection },
        'keys'
      );
      redrawKeepingFocus(
        this.list,
        keys.map(key => this.item(key))
      );
      this.status.textContent =
        keys.length === 0
          ? 'No keys besides the one the server was started with.'
          : `${keys.length} key${keys.length === 1 ? '' : 's'}`;
    } catch (err) {
      this.list.replaceChildren();
      this.status.textContent = (err as Error).message;
      this.status.classList.add('searchbook-mod-error');
    }
  }

  private item(key: KeyInfo): HTMLLIElement {
    const item = document.createElement('li');
    item.className = 'searchbook-Key';
    item.dataset.key = key.id;
    item.setAttribute('aria-label', `${key.description} · ${key.valuePrefix}…`);
    const title = document.createElement('div');
    title.className = 'searchbook-Key-title';
    title.textContent =
      key.description === '' ? '(no description)' : key.description;
    const facts = document.createElement('div');
    facts.className = 'searchbook-Key-facts';
    facts.textContent = [
      `actions ${key.actions.join(', ')}`,
      `collections ${scopeText(key.collections)}`,
      `value ${key.valuePrefix}…`,
      expiryText(key.expiresAt)
    ].join(' · ');
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'jp-Button searchbook-Toolbar-button';
    remove.textContent = 'Delete';
    remove.setAttribute('aria-label', `Delete key ${key.description}`);
    remove.addEventListener(
      'click',
      () => void returningFocus(remove, () => this.remove(key))
    );
    item.append(title, facts, remove);
    return item;
  }

  private async remove(key: KeyInfo): Promise<void> {
    if (!(await confirmKeyDeletion(key))) {
      return;
    }
    try {
      await this.client.request(
        { type: 'deleteKey', connection: this.connection, id: key.id },
        'keyDeleted'
      );
      await this.load();
    } catch (err) {
      this.status.textContent = `Could not delete "${key.description}": ${(err as Error).message}`;
      this.status.classList.add('searchbook-mod-error');
    }
  }

  private async add(): Promise<void> {
    const actions =
      this.actions.value === OTHER
        ? commaList(this.otherActions.value)
        : this.actions.value.split(',');
    const expiresAt = this.expiry.value
      ? Math.floor(new Date(`${this.expiry.value}T23:59:59`).getTime() / 1000)
      : undefined;
    const parsed = NewKeySchema.safeParse({
      description: this.description.value,
      actions,
      collections: commaList(this.collections.value),
      ...(expiresAt ? { expiresAt } : {})
    });
    if (!parsed.success) {
      this.formStatus.textContent =
        parsed.error.issues[0]?.message ?? 'Check the form.';
      return;
    }
    if (expiresAt !== undefined && expiresAt * 1000 < Date.now()) {
      this.formStatus.textContent =
        'The expiry date has passed: choose a later day, or leave it empty for a key that never expires.';
      return;
    }
    this.formStatus.textContent = 'Adding…';
    try {
      const seal = await createValueSeal();
      const added = await this.client.request(
        {
          type: 'addKey',
          connection: this.connection,
          key: parsed.data,
          ...(seal ? { sealWith: seal.publicKey } : {})
        },
        'keyAdded'
      );
      const value =
        added.sealed !== undefined && seal
          ? await seal.open(added.sealed)
          : added.value;
      this.formStatus.textContent = '';
      this.form.reset();
      this.collections.value = '*';
      if (value === undefined) {
        throw new Error(
          'The key was created, but its value did not arrive; delete it and add another.'
        );
      }
      await showNewKeyValue(added.key, value);
      await this.load();
    } catch (err) {
      // The form keeps what was typed, so nothing is lost.
      this.formStatus.textContent = (err as Error).message;
    }
  }
}
