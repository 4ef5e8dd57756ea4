import type { GridView } from '@searchbook/contracts/panel-protocol';
import type { PanelClient, PanelReply } from '../panel-client';
import { FIRST_SCREEN_ROWS } from '../documents/first-screen';
import { searchbookSettings } from '../settings/searchbook-settings';

/**
 * Asks the kernel to open `target` of `connection` as a grid: its first block of rows, in the
 * view given (a tab restored after a reload) or the whole target. Rejects with the kernel's reason.
 */
export async function requestGrid(
  client: PanelClient,
  connection: string,
  target: string,
  view: GridView | undefined
): Promise<PanelReply<'opened'>> {
  // User timing marks, for the panel benchmark's breakdown of the time to first rows.
  performance.mark('searchbook:grid-open-sent');
  const opened = await client.request(
    {
      type: 'open',
      connection,
      target,
      blockSize: searchbookSettings.current.rowsPerBlock,
      firstRows: FIRST_SCREEN_ROWS,
      ...(view ? { view } : {})
    },
    'opened'
  );
  performance.mark('searchbook:grid-opened');
  return opened;
}
