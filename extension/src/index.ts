import { LanguageSupport, StreamLanguage } from '@codemirror/language';
import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { IEditorLanguageRegistry } from '@jupyterlab/codemirror';
import { IConsoleTracker } from '@jupyterlab/console';
import { INotebookTracker, type NotebookPanel } from '@jupyterlab/notebook';
import {
  KernelInfoSecretKindsSchema,
  KERNEL_INFO_SECRET_KINDS,
  type TypedSecretKind,
  withoutTypedSecrets
} from '@searchbook/contracts/typed-secrets';
import { interruptKernelOf, rewriteCell } from './cells/kernel-actions';
import { consoleTokens } from './language/console-tokens';
import { STOP_EVENT } from './mime/progress-output';
import {
  REMOVE_SECRET_COMMAND,
  REMOVE_SECRET_EVENT
} from './mime/typed-secret-output';
import { panelPlugin, trackersOf } from './panel-plugin';
import { keyboardPlugin } from './commands/keyboard-plugin';
import { settingsPlugin } from './settings/settings-plugin';
import { sharedOutputStringsPlugin } from './cells/shared-output-strings';

/**
 * The console language, registered under the name and MIME type the kernel announces in
 * language_info, so notebooks and consoles on the searchbook kernel highlight their cells.
 */
const languagePlugin: JupyterFrontEndPlugin<void> = {
  id: 'searchbook:language',
  description: 'Highlighting for searchbook console cells',
  autoStart: true,
  requires: [IEditorLanguageRegistry],
  activate: (_app: JupyterFrontEnd, languages: IEditorLanguageRegistry) => {
    languages.addLanguage({
      name: 'searchbook',
      displayName: 'searchbook console',
      mime: 'text/x-searchbook',
      extensions: ['searchbook'],
      load: async () =>
        new LanguageSupport(StreamLanguage.define(consoleTokens))
    });
  }
};

/** The stop control of a waiting request (a MIME renderer, which has no kernel of its own) interrupts its notebook's kernel. */
const stopPlugin: JupyterFrontEndPlugin<void> = {
  id: 'searchbook:stop',
  description: 'Stop controls on requests in flight',
  autoStart: true,
  optional: [INotebookTracker, IConsoleTracker],
  activate: (
    _app: JupyterFrontEnd,
    notebooks: INotebookTracker | null,
    consoles: IConsoleTracker | null
  ) => {
    const trackers = trackersOf(notebooks, consoles);
    document.addEventListener(STOP_EVENT, event => {
      if (event.target instanceof Node) {
        void interruptKernelOf(trackers, event.target);
      }
    });
  }
};

/** Removes passwords and keys typed into %connect lines: from the refusal's button, or as a command on the active cell. */
const typedSecretPlugin: JupyterFrontEndPlugin<void> = {
  id: 'searchbook:typed-secrets',
  description: 'Removes secrets typed into %connect lines from the cell',
  autoStart: true,
  optional: [INotebookTracker],
  activate: (app: JupyterFrontEnd, notebooks: INotebookTracker | null) => {
    if (!notebooks) {
      return;
    }
    app.commands.addCommand(REMOVE_SECRET_COMMAND, {
      label: 'searchbook: Remove typed secrets from the cell',
      caption:
        "Deletes passwords and keys typed into the active cell's %connect lines (searchbook then asks for them when the cell runs)",
      execute: async () => {
        const kinds = await secretKindsOf(notebooks.currentWidget);
        return rewriteCell(app, notebooks, cell =>
          withoutTypedSecrets(cell, kinds)
        );
      }
    });
    document.addEventListener(REMOVE_SECRET_EVENT, event => {
      const node = event.target;
      if (!(node instanceof Node)) {
        return;
      }
      void secretKindsOf(
        notebooks.find(panel => panel.node.contains(node)) ?? null
      ).then(kinds =>
        rewriteCell(
          app,
          notebooks,
          cell => withoutTypedSecrets(cell, kinds),
          node
        )
      );
    });
  }
};

/** The engines' own kinds of typed secret, as the notebook's kernel lists them in its kernel_info reply. */
async function secretKindsOf(
  notebook: NotebookPanel | null
): Promise<TypedSecretKind[]> {
  const kernel = notebook?.sessionContext.session?.kernel;
  if (!kernel) {
    return [];
  }
  const info = KernelInfoSecretKindsSchema.safeParse(await kernel.info);
  return info.success ? info.data[KERNEL_INFO_SECRET_KINDS] : [];
}

export default [
  languagePlugin,
  stopPlugin,
  typedSecretPlugin,
  panelPlugin,
  keyboardPlugin,
  settingsPlugin,
  sharedOutputStringsPlugin
];

/** For other extensions: `import { IDocumentGrids } from 'searchbook'` (see tokens.ts). */
export { IDocumentGrids } from './tokens';
export type { IDocumentGrid } from './tokens';
