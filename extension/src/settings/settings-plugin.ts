import type {
  JupyterFrontEnd,
  JupyterFrontEndPlugin
} from '@jupyterlab/application';
import { ISettingRegistry } from '@jupyterlab/settingregistry';
import { searchbookSettings } from './searchbook-settings';

const PLUGIN_ID = 'searchbook:settings';

/** Follows searchbook's settings in JupyterLab's Settings Editor; without a registry the defaults stay. */
export const settingsPlugin: JupyterFrontEndPlugin<void> = {
  id: PLUGIN_ID,
  description:
    'searchbook settings: rows per block, dashboard refresh, default Match case, rows kept in notebook outputs',
  autoStart: true,
  optional: [ISettingRegistry],
  activate: (_app: JupyterFrontEnd, registry: ISettingRegistry | null) => {
    if (!registry) {
      return;
    }
    void registry.load(PLUGIN_ID).then(
      settings => {
        searchbookSettings.update(settings.composite);
        settings.changed.connect(() =>
          searchbookSettings.update(settings.composite)
        );
      },
      (err: unknown) =>
        console.warn(
          `searchbook: settings not read, defaults in force: ${String(err)}`
        )
    );
  }
};
