import { fromExactWire, toExactWire } from '../../../contracts/exact-wire';
import type { CommRegistry } from '../protocol/comms';
import type { Handler, RequestContext } from '../protocol/kernel-server';
import { CommInfoRequest, CommMsg, CommOpen } from '../protocol/requests';

/** comm_open, comm_msg and comm_close from the frontend, and comm_info_request. */
export function commHandlers(
  registry: CommRegistry,
  log: (line: string) => void,
  /** What every message to the frontend goes through: the secrets a cell's outputs mask, the panel's are masked too. */
  shown: <T>(data: T) => T = data => data
): Record<'comm_open' | 'comm_msg' | 'comm_close', Handler> & {
  comm_info_request: Handler<'comm_info_request'>;
} {
  const commFor = (ctx: RequestContext, id: string, targetName: string) => ({
    id,
    targetName,
    // Replies go out on iopub with the message that caused them as parent, as ipykernel does.
    send: (data: Record<string, unknown>) =>
      ctx.publish('comm_msg', { comm_id: id, data: toExactWire(shown(data)) }),
    close: async (data: Record<string, unknown> = {}) => {
      registry.remove(id);
      await ctx.publish('comm_close', { comm_id: id, data: shown(data) });
    }
  });
  return {
    comm_info_request: async ctx => {
      const { target_name } = CommInfoRequest.parse(ctx.message.content);
      await ctx.reply({ comms: registry.list(target_name) });
    },
    comm_open: async ctx => {
      const open = CommOpen.parse(ctx.message.content);
      const target = registry.target(open.target_name);
      if (!target) {
        log(`closing a comm to the unknown target "${open.target_name}"`);
        await ctx.publish('comm_close', {
          comm_id: open.comm_id,
          data: { error: `searchbook has no comm target "${open.target_name}"` }
        });
        return;
      }
      const comm = commFor(ctx, open.comm_id, open.target_name);
      const handler = target(comm, open.data);
      registry.add(comm, handler);
      await handler.onOpen?.(comm);
    },
    comm_msg: async ctx => {
      const message = CommMsg.parse(ctx.message.content);
      const entry = registry.get(message.comm_id);
      if (!entry) {
        return;
      }
      await entry.handler.onMessage(
        fromExactWire(message.data) as typeof message.data,
        commFor(ctx, entry.comm.id, entry.comm.targetName)
      );
    },
    comm_close: async ctx => {
      const { comm_id } = CommMsg.parse(ctx.message.content);
      registry.remove(comm_id);
    }
  };
}
