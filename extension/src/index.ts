import { LanguageSupport, StreamLanguage } from '@codemirror/language';
import type { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { IEditorLanguageRegistry } from '@jupyterlab/codemirror';
import { consoleTokens } from './language/console-tokens';
import { panelPlugin } from './panel/plugin';

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
      load: async () => new LanguageSupport(StreamLanguage.define(consoleTokens)),
    });
  },
};

export default [languagePlugin, panelPlugin];
