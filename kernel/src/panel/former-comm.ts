/**
 * The panel's comm under its name before protocol 4. A page loaded before the upgrade still
 * opens it; it could not read the service's answers, so it is told once to reload, and the
 * comm is closed (the kernel, its connections and variables keep running).
 */
import {
  FORMER_COMM_TARGET,
  PANEL_PROTOCOL_VERSION,
  type GridReply,
  PANEL_COMM_TARGET
} from '../../../contracts/panel-protocol';
import type { CommTarget } from '../protocol/comms';

export const FORMER_COMM_MESSAGE = `searchbook was upgraded after this page was loaded (the panel's comm is now ${PANEL_COMM_TARGET}, the page opened ${FORMER_COMM_TARGET}): reload the page. The kernel keeps running.`;

export function formerCommTarget(): CommTarget {
  return () => ({
    onOpen: async comm => {
      // Unasked, so no request id; a page of protocol 3 reads the newer version and asks for a reload too.
      const reply: GridReply = {
        v: PANEL_PROTOCOL_VERSION,
        requestId: null,
        type: 'error',
        message: FORMER_COMM_MESSAGE
      };
      await comm.send(reply);
      await comm.close({ error: FORMER_COMM_MESSAGE });
    },
    onMessage: async () => undefined
  });
}
