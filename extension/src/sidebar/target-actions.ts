import { Dialog } from '@jupyterlab/apputils';
import { CommandRegistry } from '@lumino/commands';
import { Menu, Widget } from '@lumino/widgets';
import type { TargetAction } from '@searchbook/contracts/edit-protocol';
import type { TargetResources } from '../admin/collection-resources';
import type { PanelClient } from '../panel-client';
import {
  focusBack,
  focusHomeOf,
  openMenuReturningFocus
} from '../focus/focus-return';

/**
 * The confirmation of deleting or emptying an index or collection: it shows the exact request
 * and asks for the name to be typed; the action's button stays disabled until it matches.
 * Resolves to the typed name when confirmed, or null.
 */
export async function confirmTargetAction(
  action: TargetAction,
  target: string,
  /** The documents it holds, read from the server as the menu opened; undefined when not known. */
  documents?: number | null
): Promise<string | null> {
  const node = document.createElement('div');
  node.className = 'searchbook-ConfirmTarget';
  const what = document.createElement('p');
  const held =
    documents === undefined || documents === null
      ? ''
      : ` (${documents.toLocaleString('en-US')} document${documents === 1 ? '' : 's'} now)`;
  what.textContent =
    action.action === 'delete'
      ? `This deletes ${target} and every document in it${held}. It cannot be undone. The request:`
      : `This removes every document of ${target}${held}, keeping its schema. It cannot be undone. The request:`;
  const request = document.createElement('code');
  request.setAttribute('aria-label', 'Request');
  request.textContent = action.request;
  const label = document.createElement('label');
  label.textContent = `Type ${target} to confirm`;
  const input = document.createElement('input');
  input.type = 'text';
  input.spellcheck = false;
  input.autocomplete = 'off';
  input.setAttribute('aria-label', `Type ${target} to confirm`);
  label.append(input);
  node.append(what, request, label);
  const body = new Widget({ node });
  const dialog = new Dialog<unknown>({
    title: `${action.label.replace(/…$/, '')} ${target}`,
    body,
    buttons: [
      Dialog.cancelButton(),
      Dialog.warnButton({ label: action.label.replace(/…$/, '') })
    ],
    focusNodeSelector: 'input'
  });
  const accept = () =>
    dialog.node.querySelector<HTMLButtonElement>(
      '.jp-Dialog-footer .jp-mod-accept'
    );
  const sync = () => {
    const button = accept();
    if (button) {
      button.disabled = input.value !== target;
    }
  };
  input.addEventListener('input', sync);
  // Enter with a name that does not match must not confirm (the dialog takes Enter as OK).
  input.addEventListener('keydown', event => {
    if (event.key === 'Enter' && input.value !== target) {
      event.preventDefault();
      event.stopPropagation();
    }
  });
  // The dialog builds its buttons in its constructor: disable the action before it is shown,
  // so no frame ever offers it enabled.
  sync();
  const result = await dialog.launch();
  return result.button.accept && input.value === target ? input.value : null;
}

/**
 * The context menu of an index or collection in the tree: its destructive actions as the
 * kernel's driver offers them (an unavailable one disabled, saying why).
 */
export async function openTargetMenu(
  client: PanelClient,
  connection: string,
  target: string,
  at: { x: number; y: number; keyboard?: boolean },
  /** Runs an action; `documents`: what the target holds, read as the menu opened (the confirmation's basis). */
  run: (action: TargetAction, documents?: number | null) => void,
  /** "Export…", first in the menu, when the panel offers it. */
  exportIt?: () => void,
  /** "Schema…", for engines whose collections have a schema to show. */
  showSchema?: () => void,
  /** The collection's own resources (synonyms, overrides), disabled with why when the server keeps none. */
  resources?: TargetResources
): Promise<void> {
  // The tree item the menu is for: Escape, or an item picked, puts the keyboard back on it.
  const origin = document.activeElement;
  const home = focusHomeOf(origin);
  const reply = await client.request(
    { type: 'targetActions', connection, target },
    'targetActions'
  );
  const commands = new CommandRegistry();
  const menu = new Menu({ commands });
  menu.addClass('searchbook-TargetMenu');
  if (exportIt) {
    commands.addCommand('searchbook:target-export', {
      label: 'Export…',
      caption:
        'Write the documents to a file next to the notebook (JSONL, CSV or JSON)',
      execute: exportIt
    });
    menu.addItem({ command: 'searchbook:target-export' });
    if (reply.actions.length > 0) {
      menu.addItem({ type: 'separator' });
    }
  }
  if (showSchema) {
    commands.addCommand('searchbook:target-schema', {
      label: 'Schema…',
      caption: 'The collection’s fields and settings, read-only',
      execute: showSchema
    });
    menu.addItem({ command: 'searchbook:target-schema' });
  }
  if (resources) {
    commands.addCommand('searchbook:target-resources', {
      // Menus show no captions: the reason it is disabled goes in the label, as for the actions.
      label: `${resources.label}…${resources.unavailable ? ` (${resources.unavailable})` : ''}`,
      caption:
        resources.unavailable ??
        `The ${resources.label.toLowerCase()} of ${target}`,
      isEnabled: () => resources.unavailable === undefined,
      execute: resources.show
    });
    menu.addItem({ command: 'searchbook:target-resources' });
  }
  for (const action of reply.actions) {
    const id = `searchbook:target-${action.action}`;
    commands.addCommand(id, {
      // A menu item that asks before acting ends in an ellipsis.
      label: `${action.label.replace(/…$/, '')}…${action.unavailable ? ` (${action.unavailable})` : ''}`,
      caption: action.unavailable ?? action.request,
      isEnabled: () => action.unavailable === undefined,
      execute: () => run(action, reply.documents)
    });
    menu.addItem({ command: id });
  }
  if (menu.items.length === 0) {
    return;
  }
  openMenuReturningFocus(
    menu,
    at,
    () => focusBack(origin, home),
    at.keyboard ?? false
  );
}
