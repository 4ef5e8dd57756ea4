import { z } from 'zod';
import type { ConnectionRegistry } from '../connections/registry';
import type { CommTarget } from '../protocol/comms';

export const GRID_COMM_TARGET = 'searchbook.grid';

/** Messages the side panel sends on the grid comm; the grid work adds browsing and editing. */
export const GridRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('connections'), requestId: z.string() }),
]);
export type GridRequest = z.infer<typeof GridRequestSchema>;

/** The side panel's service: for now, which connections are open (never their secrets). */
export function gridTarget(connections: ConnectionRegistry): CommTarget {
  return () => ({
    async onMessage(data, comm) {
      const parsed = GridRequestSchema.safeParse(data);
      if (!parsed.success) {
        const requestId = typeof data.requestId === 'string' ? data.requestId : null;
        await comm.send({ type: 'error', requestId, message: `searchbook.grid cannot read this message: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
        return;
      }
      const active = connections.active;
      await comm.send({
        type: 'connections',
        requestId: parsed.data.requestId,
        connections: connections.list().map((c) => ({ name: c.name, engine: c.engine, address: c.address, version: c.identity.version, active: c === active })),
      });
    },
  });
}
