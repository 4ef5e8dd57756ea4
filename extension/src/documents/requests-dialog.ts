import { Dialog, showDialog } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';
import type { PlannedRequest } from '@searchbook/contracts/edit-protocol';
import { exactJson } from '@searchbook/contracts/exact-json';

/** One request as a console cell would hold it: `METHOD /path` and its JSON body. */
export function requestText(request: PlannedRequest): string {
  const body =
    request.body === undefined
      ? ''
      : `\n${request.bodyText ?? exactJson(request.body, 2)}`;
  return `${request.method} ${request.path}${body}`;
}

/** A refused value as "Show requests" names it: its row, and why (the reason names the field). */
export interface RefusedValue {
  row: string;
  text: string;
}

/**
 * What "Show requests" shows: the requests of the changes whose values are all valid, and
 * each refused value with its row and why. Save sends nothing while one value is refused, so
 * the text says so; the valid requests are still listed, for what they will be once it is fixed.
 */
export function plannedRequestsNode(
  requests: readonly PlannedRequest[],
  refused: readonly RefusedValue[]
): HTMLElement {
  const node = document.createElement('div');
  node.className = 'searchbook-PlannedRequests';
  const intro = document.createElement('p');
  const n = requests.length;
  const listed = `${n} request${n === 1 ? '' : 's'}`;
  if (refused.length === 0) {
    intro.textContent = `Save sends ${listed}, each on its own:`;
  } else {
    const values = `${refused.length} value${refused.length === 1 ? ' is' : 's are'} refused`;
    intro.textContent =
      n > 0
        ? `Save sends nothing now: ${values} (listed below and marked in the grid). Once fixed, Save sends these ${listed} and those of the fixed rows:`
        : `Save sends nothing now: ${values} (listed below and marked in the grid), and no other change is pending.`;
  }
  node.append(intro);
  if (n > 0) {
    const pre = document.createElement('pre');
    pre.setAttribute('aria-label', 'Requests');
    pre.textContent = requests.map(requestText).join('\n\n');
    node.append(pre);
  }
  if (refused.length > 0) {
    const list = document.createElement('ul');
    list.className = 'searchbook-PlannedRequests-refused';
    list.setAttribute('aria-label', 'Refused values');
    for (const value of refused) {
      const item = document.createElement('li');
      item.textContent = `${value.row}: ${value.text}`;
      list.append(item);
    }
    node.append(list);
  }
  return node;
}

/** "Show requests": what Save would send, as text; nothing is sent. */
export async function showPlannedRequests(
  requests: readonly PlannedRequest[],
  refused: readonly RefusedValue[]
): Promise<void> {
  await showDialog({
    title: 'Requests Save sends',
    body: new Widget({ node: plannedRequestsNode(requests, refused) }),
    buttons: [Dialog.okButton({ label: 'Close' })]
  });
}
