import type { CellRunner } from '../execute/cell-runner';
import type { Handler } from '../protocol/kernel-server';
import { ShutdownRequest } from '../protocol/requests';

export function interruptHandler(
  runner: CellRunner,
  cancelInput: () => void
): Handler<'interrupt_request'> {
  return async ctx => {
    // Only the cell running when the interrupt arrived stops; one that arrives while idle does nothing.
    if (runner.interrupt(ctx.message.receivedAt)) {
      cancelInput();
    }
    await ctx.reply({});
  };
}

/** Replies, then lets the process end; on restart Jupyter starts a new process itself. */
export function shutdownHandler(
  shutdown: () => Promise<void>
): Handler<'shutdown_request'> {
  return async ctx => {
    const { restart } = ShutdownRequest.parse(ctx.message.content);
    await ctx.reply({ restart });
    setImmediate(() => void shutdown());
  };
}
