import { Dialog, showDialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';
import {
  type AdminOffers,
  type ScopedKeyRequest,
  ScopedKeyRequestSchema
} from '@searchbook/contracts/admin-protocol';
import type { PanelClient } from '../panel-client';
import { showKeyValueOnce } from './key-dialogs';
import { createValueSeal } from './value-seal';

type ScopedOffer = NonNullable<NonNullable<AdminOffers['keys']>['scoped']>;

function labelled(text: string, control: HTMLElement): HTMLLabelElement {
  const label = document.createElement('label');
  label.className = 'searchbook-Form-field';
  const span = document.createElement('span');
  span.textContent = text;
  control.setAttribute('aria-label', text);
  label.append(span, control);
  return label;
}

/** What the user typed, kept across a refused attempt so nothing has to be typed again. */
interface Draft {
  parentKey: string;
  params: string;
  error: string;
}

/** The form: the parent key in a password field, the embedded parameters as JSON. */
class ScopedKeyForm extends Widget {
  private readonly parentKey = document.createElement('input');
  private readonly params = document.createElement('textarea');

  constructor(offer: ScopedOffer, draft: Draft) {
    super();
    this.addClass('searchbook-Form');
    this.addClass('searchbook-ScopedKey');
    const note = document.createElement('p');
    note.className = 'searchbook-Admin-note';
    note.textContent = offer.note;
    this.parentKey.type = 'password';
    this.parentKey.autocomplete = 'off';
    this.parentKey.value = draft.parentKey;
    this.params.rows = 4;
    this.params.spellcheck = false;
    this.params.placeholder = offer.example;
    this.params.value = draft.params === '' ? offer.example : draft.params;
    const error = document.createElement('div');
    error.className = 'searchbook-Admin-status searchbook-mod-error';
    error.setAttribute('role', 'alert');
    error.textContent = draft.error;
    this.node.append(
      note,
      labelled('Parent search-only key', this.parentKey),
      labelled('Embedded parameters (JSON)', this.params),
      error
    );
  }

  getValue(): Draft {
    return {
      parentKey: this.parentKey.value,
      params: this.params.value,
      error: ''
    };
  }

  clear(): void {
    this.parentKey.value = '';
  }
}

function parseDraft(
  draft: Draft
): { ok: true; scoped: ScopedKeyRequest } | { ok: false; error: string } {
  let params: unknown;
  try {
    params = JSON.parse(draft.params);
  } catch (err) {
    return {
      ok: false,
      error: `The embedded parameters are not JSON (${(err as Error).message}): write an object such as {"filter_by": "company_id:124"}.`
    };
  }
  const parsed = ScopedKeyRequestSchema.safeParse({
    parentKey: draft.parentKey,
    params
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const error =
      issue?.path[0] === 'params' && issue.code === 'invalid_type'
        ? 'The embedded parameters must be a JSON object, such as {"filter_by": "company_id:124"}.'
        : (issue?.message ?? 'Check the form.');
    return { ok: false, error };
  }
  return { ok: true, scoped: parsed.data };
}

/**
 * Asks for a parent search-only key and the parameters to embed, has the kernel compute the
 * scoped key (its value sealed for this page), and shows it once like a new key. Errors from
 * the kernel (a parent the engine would refuse) reopen the form with the reason, keeping the
 * parameters typed; the parent key is asked again rather than kept.
 */
export async function makeScopedKey(
  client: PanelClient,
  connection: string,
  offer: ScopedOffer
): Promise<void> {
  let draft: Draft = { parentKey: '', params: '', error: '' };
  for (;;) {
    const form = new ScopedKeyForm(offer, draft);
    const result = await showDialog({
      title: offer.title.replace(/…$/, ''),
      body: form,
      buttons: [Dialog.cancelButton(), Dialog.okButton({ label: 'Make key' })],
      focusNodeSelector: 'input'
    });
    const typed = result.value ?? form.getValue();
    form.clear();
    if (!result.button.accept) {
      return;
    }
    const parsed = parseDraft(typed);
    if (!parsed.ok) {
      draft = { ...typed, error: parsed.error };
      continue;
    }
    try {
      const seal = await createValueSeal();
      const made = await client.request(
        {
          type: 'scopedKey',
          connection,
          scoped: parsed.scoped,
          ...(seal ? { sealWith: seal.publicKey } : {})
        },
        'scopedKeyMade'
      );
      const value =
        made.sealed !== undefined && seal
          ? await seal.open(made.sealed)
          : made.value;
      if (value === undefined) {
        throw new Error(
          'The scoped key’s value did not arrive; make it again.'
        );
      }
      await showKeyValueOnce(
        `Scoped search key (parent ${made.parentPrefix}…, embeds ${made.embedded})`,
        value
      );
      return;
    } catch (err) {
      draft = { ...typed, parentKey: '', error: (err as Error).message };
    }
  }
}
