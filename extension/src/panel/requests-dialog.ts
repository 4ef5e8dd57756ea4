import { Dialog, showDialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';
import type { PlannedRequest } from '../../../kernel/src/grid/edit-protocol';

/** One request as a console cell would hold it: `METHOD /path` and its JSON body. */
export function requestText(request: PlannedRequest): string {
  const body = request.body === undefined ? '' : `\n${request.bodyText ?? JSON.stringify(request.body, null, 2)}`;
  return `${request.method} ${request.path}${body}`;
}

/** "Show requests": what Save would send, as text; nothing is sent. */
export async function showPlannedRequests(requests: readonly PlannedRequest[], refused: number): Promise<void> {
  const node = document.createElement('div');
  node.className = 'searchbook-PlannedRequests';
  const intro = document.createElement('p');
  intro.textContent = refused > 0
    ? `Save would send nothing now: ${refused} value${refused === 1 ? ' is' : 's are'} refused (marked in the grid). Once fixed, these are the requests:`
    : `Save sends ${requests.length} request${requests.length === 1 ? '' : 's'}, each on its own:`;
  const pre = document.createElement('pre');
  pre.setAttribute('aria-label', 'Requests');
  pre.textContent = requests.map(requestText).join('\n\n');
  node.append(intro, pre);
  await showDialog({ title: 'Requests Save sends', body: new Widget({ node }), buttons: [Dialog.okButton({ label: 'Close' })] });
}
