import type { TargetAction } from '@searchbook/contracts/edit-protocol';
import type { PanelClient } from '../panel-client';

/** What deleting or emptying an index or collection asks of the kernel. */
export interface TargetActionOrder {
  connection: string;
  target: string;
  action: TargetAction['action'];
  /** The name the user typed to confirm it. */
  confirmName: string;
  /** The documents the confirmation showed: the kernel sends nothing if the server holds another count now. */
  documents?: number | null | undefined;
}

/** Asks the kernel to delete or empty the target; resolves to its sentence of what was done. */
export async function requestTargetAction(
  client: PanelClient,
  order: TargetActionOrder
): Promise<string> {
  const { documents, ...rest } = order;
  const done = await client.request(
    {
      type: 'targetAction',
      ...rest,
      ...(documents !== undefined ? { basis: { documents } } : {})
    },
    'targetActionDone'
  );
  return done.message;
}
