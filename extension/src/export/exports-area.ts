import { Notification } from '@jupyterlab/apputils';
import { confirmDone } from '../documents/confirmations';
import type { PanelClient } from '../panel-client';
import type { ExportChoice } from './export-dialog';
import { returnFocusSoon } from '../focus/focus-return';

/** What an export reads: an index or collection, or an open grid (its target under its filter). */
export interface ExportSubject {
  client: PanelClient;
  connection: string;
  target: string;
  gridId?: string;
}

let counter = 0;

/**
 * The panel's running and finished exports, one line each: what `%export` would show (documents
 * of the total, rate, time left) with a progress bar and Cancel while it runs, then the final
 * line (documents, bytes, file, time) or how far it got. Texts are set as text, never markup.
 */
export class ExportsArea {
  readonly node = document.createElement('section');
  private readonly list = document.createElement('ul');

  constructor() {
    this.node.className = 'searchbook-Exports';
    this.node.setAttribute('aria-label', 'Exports');
    this.node.hidden = true;
    const title = document.createElement('h3');
    title.textContent = 'Exports';
    this.node.append(title, this.list);
  }

  async run(subject: ExportSubject, choice: ExportChoice): Promise<void> {
    const exportId = `x${++counter}-${Date.now().toString(36)}`;
    const item = document.createElement('li');
    item.className = 'searchbook-Export';
    // A list holds list items only: the live region is inside the item, not the item itself.
    const line = document.createElement('div');
    line.className = 'searchbook-Export-line';
    line.setAttribute('role', 'status');
    line.setAttribute(
      'aria-label',
      `Export of ${subject.target} to ${choice.file}`
    );
    item.append(line);
    const text = document.createElement('span');
    text.className = 'searchbook-Export-text';
    text.textContent = `Exporting ${subject.target} to ${choice.file}…`;
    const bar = document.createElement('progress');
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'jp-Button searchbook-Toolbar-button';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => {
      // The button goes once the export stops: the keyboard goes to the panel's tree.
      returnFocusSoon(cancel);
      cancel.disabled = true;
      void subject.client
        .request({ type: 'cancelExport', exportId }, 'exportCancelled')
        .catch(() => undefined);
    });
    line.append(text, bar, cancel);
    this.list.prepend(item);
    this.node.hidden = false;
    const show = (progress: {
      documents: number;
      total: number | null;
      text: string;
    }) => {
      text.textContent = progress.text;
      if (progress.total !== null) {
        bar.max = Math.max(progress.total, 1);
        bar.value = Math.min(progress.documents, progress.total);
      }
    };
    try {
      const done = await subject.client.request(
        {
          type: 'export',
          exportId,
          connection: subject.connection,
          target: subject.target,
          file: choice.file,
          format: choice.format,
          overwrite: choice.overwrite,
          ...(choice.fields ? { fields: choice.fields } : {}),
          ...(subject.gridId ? { gridId: subject.gridId } : {})
        },
        'exported',
        message => {
          if (message.type === 'exportProgress') {
            show(message.progress);
          }
        }
      );
      show(done.progress);
      item.classList.add('searchbook-mod-done');
      // Said where the user is too: the panel may be closed, or showing something else.
      confirmDone(done.progress.text);
    } catch (err) {
      text.textContent = (err as Error).message;
      item.classList.add('searchbook-mod-error');
      bar.remove();
      Notification.error(
        `Export of ${subject.target} to ${choice.file}: ${(err as Error).message}`,
        { autoClose: false }
      );
    } finally {
      cancel.remove();
    }
  }
}
