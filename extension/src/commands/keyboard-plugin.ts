import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { REMOVE_SECRET_COMMAND } from '../mime/typed-secret-output';
import { GridCommandIds } from './grid-commands';

/**
 * The searchbook commands in the command palette, under "searchbook". Their keys are this
 * plugin's `jupyter.lab.shortcuts` (schema/keyboard.json), which users change in the
 * Settings Editor's keyboard shortcuts.
 */
export const keyboardPlugin: JupyterFrontEndPlugin<void> = {
  id: 'searchbook:keyboard',
  description: 'searchbook commands in the palette, with keyboard shortcuts',
  autoStart: true,
  optional: [ICommandPalette],
  activate: (_app: JupyterFrontEnd, palette: ICommandPalette | null) => {
    // The refusal of a typed secret names the remove command, so it must be reachable here.
    for (const command of [
      ...Object.values(GridCommandIds),
      REMOVE_SECRET_COMMAND
    ]) {
      palette?.addItem({ command, category: 'searchbook' });
    }
  }
};
