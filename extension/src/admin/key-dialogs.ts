import { Dialog, showDialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';
import type { KeyInfo } from '@searchbook/contracts/admin-protocol';
import { copyText } from '../datagrid/clipboard';

/**
 * Shows a new key's value once, with a copy button. The value lives only in this dialog's
 * text: it is cleared and the dialog's node dropped when the dialog closes, and it is never
 * written anywhere else (notebook, outputs, console, logs).
 */
export async function showNewKeyValue(
  key: KeyInfo,
  value: string
): Promise<void> {
  await showKeyValueOnce(`New key: ${key.description}`, value);
}

/** The dialog behind {@link showNewKeyValue}, for any key value shown once under a title. */
export async function showKeyValueOnce(
  title: string,
  value: string
): Promise<void> {
  const node = document.createElement('div');
  node.className = 'searchbook-NewKey';
  const note = document.createElement('p');
  note.textContent =
    'Copy this key now: the engine shows its value only this once. searchbook keeps no copy, and it is not written to the notebook.';
  const shown = document.createElement('code');
  shown.className = 'searchbook-NewKey-value';
  shown.setAttribute('aria-label', 'New key value');
  shown.textContent = value;
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.className = 'jp-Button searchbook-Toolbar-button';
  copy.textContent = 'Copy';
  copy.addEventListener('click', () => {
    copyText(shown.textContent ?? '').then(
      () => {
        copy.textContent = 'Copied';
      },
      () => {
        copy.textContent = 'Not copied: select the text and press Ctrl+C';
      }
    );
  });
  node.append(note, shown, copy);
  try {
    await showDialog({
      title,
      body: new Widget({ node }),
      buttons: [Dialog.okButton({ label: 'Close' })]
    });
  } finally {
    shown.textContent = '';
    node.remove();
  }
}

/** Asks before deleting, naming the key; true when the user confirmed. */
export async function confirmKeyDeletion(key: KeyInfo): Promise<boolean> {
  const result = await showDialog({
    title: 'Delete API key',
    body: `Delete the key "${key.description}" (${key.valuePrefix}…, id ${key.id})? Every application using it is refused from then on; this cannot be undone.`,
    buttons: [Dialog.cancelButton(), Dialog.warnButton({ label: 'Delete' })],
    // Enter on a dialog opened by mistake keeps the key.
    defaultButton: 0
  });
  return result.button.accept;
}
