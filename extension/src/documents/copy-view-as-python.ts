import { copyText } from '../datagrid/clipboard';
import { pythonCopiedMessage } from '../cells/python-copied';
import type { PanelClient } from '../panel-client';
import { confirmDone, hint } from './confirmations';

/**
 * A grid's "Copy as Python": the request the grid sends for its view, on the grid's own
 * connection, as code for the engine's official Python client (credentials from the
 * environment). A failure (the connection closed meanwhile) is said in a notification.
 */
export async function copyViewAsPython(
  client: PanelClient,
  view: { connection: string; cell: string }
): Promise<void> {
  try {
    const reply = await client.request(
      { type: 'python', cell: view.cell, connection: view.connection },
      'python'
    );
    await copyText(reply.code);
    confirmDone(pythonCopiedMessage(reply.code, reply.requests));
  } catch (err) {
    hint(`Copy as Python: ${err instanceof Error ? err.message : String(err)}`);
  }
}
