import { Dialog, showDialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';
import type { PlannedRequest } from '@searchbook/contracts/resource-protocol';
import { exactJson } from '@searchbook/contracts/exact-json';

/** What the entry form returns: the name and the JSON text as typed. */
export interface EntryDraft {
  name: string;
  json: string;
  error: string;
}

class EntryForm extends Widget {
  private readonly nameInput = document.createElement('input');
  private readonly jsonInput = document.createElement('textarea');

  constructor(draft: EntryDraft, nameFixed: boolean) {
    super();
    this.addClass('searchbook-Form');
    this.addClass('searchbook-ResourceForm');
    this.nameInput.value = draft.name;
    this.nameInput.readOnly = nameFixed;
    this.nameInput.setAttribute('aria-label', 'Name');
    this.jsonInput.value = draft.json;
    this.jsonInput.rows = 10;
    this.jsonInput.spellcheck = false;
    this.jsonInput.setAttribute('aria-label', 'JSON');
    const error = document.createElement('div');
    error.className = 'searchbook-Admin-status searchbook-mod-error';
    error.setAttribute('role', 'alert');
    error.textContent = draft.error;
    for (const [text, control] of [
      ['Name', this.nameInput],
      ['JSON', this.jsonInput]
    ] as const) {
      const label = document.createElement('label');
      label.className = 'searchbook-Form-field';
      const span = document.createElement('span');
      span.textContent = text;
      label.append(span, control);
      this.node.append(label);
    }
    this.node.append(error);
  }

  getValue(): EntryDraft {
    return {
      name: this.nameInput.value,
      json: this.jsonInput.value,
      error: ''
    };
  }
}

/** Asks for an entry's name and JSON body; undefined when cancelled. */
export async function askEntry(
  title: string,
  draft: EntryDraft,
  nameFixed: boolean
): Promise<EntryDraft | undefined> {
  const form = new EntryForm(draft, nameFixed);
  const result = await showDialog({
    title,
    body: form,
    buttons: [Dialog.cancelButton(), Dialog.okButton({ label: 'Review' })],
    focusNodeSelector: nameFixed ? 'textarea' : 'input'
  });
  return result.button.accept ? (result.value ?? form.getValue()) : undefined;
}

/** The exact request as text: method, path and the JSON body it carries. */
export function requestText(request: PlannedRequest): string {
  const line = `${request.method} ${request.path}`;
  return request.body === undefined
    ? line
    : `${line}\n${exactJson(request.body, 2)}`;
}

/**
 * Shows the request a change will send, and `warning` (what it leaves broken) above it; true
 * when the user confirmed sending it.
 */
export async function confirmRequest(
  title: string,
  request: PlannedRequest,
  warning?: string
): Promise<boolean> {
  const node = document.createElement('div');
  if (warning !== undefined) {
    const warned = document.createElement('p');
    warned.className = 'searchbook-Admin-status searchbook-mod-error';
    warned.setAttribute('role', 'alert');
    warned.textContent = warning;
    node.append(warned);
  }
  const note = document.createElement('p');
  note.textContent = 'searchbook will send this request:';
  const shown = document.createElement('pre');
  shown.className = 'searchbook-PlannedRequest';
  shown.setAttribute('aria-label', 'Request to send');
  shown.textContent = requestText(request);
  node.append(note, shown);
  const send =
    request.method === 'DELETE'
      ? Dialog.warnButton({ label: 'Send' })
      : Dialog.okButton({ label: 'Send' });
  const result = await showDialog({
    title,
    body: new Widget({ node }),
    buttons: [Dialog.cancelButton(), send]
  });
  return result.button.accept;
}
