import { VariableScope } from './console/variables';
import { ConnectionRegistry } from './connections/registry';
import { GRID_COMM_TARGET, gridTarget } from './grid/grid-target';
import { commHandlers } from './handlers/comms';
import { interruptHandler, shutdownHandler } from './handlers/control';
import { type ExecutionState, executeHandler } from './handlers/execute';
import { completeHandler, inspectHandler, isCompleteHandler } from './handlers/introspection';
import { kernelInfo } from './handlers/kernel-info';
import { CellRunner } from './execute/cell-runner';
import { CommRegistry } from './protocol/comms';
import { readConnectionFile } from './protocol/connection-file';
import { type Handler, KernelServer } from './protocol/kernel-server';

/** `searchbook kernel <connection-file>`: runs until a shutdown_request or a signal. */
export async function runKernel(connectionFile: string): Promise<void> {
  const info = await readConnectionFile(connectionFile);
  // The kernel's own log goes to stderr, which Jupyter Server shows in its console; no secret is ever logged.
  const log = (line: string) => process.stderr.write(`[searchbook] ${line}\n`);
  const connections = new ConnectionRegistry();
  const scope = new VariableScope();
  const runner = new CellRunner(scope, connections);
  const comms = new CommRegistry();
  comms.register(GRID_COMM_TARGET, gridTarget(connections));
  const state: ExecutionState = { count: 0 };

  let server: KernelServer | undefined;
  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    (stopping ??= (async () => {
      await connections.closeAll().catch(() => undefined);
      await server?.stop();
      process.exit(0);
    })());

  const info_: Handler = async (ctx) => ctx.reply(kernelInfo());
  const handlers: Record<string, Handler> = {
    kernel_info_request: info_,
    execute_request: executeHandler(runner, state, () => server?.abortQueuedExecutions() ?? Promise.resolve()),
    complete_request: completeHandler(connections, scope),
    inspect_request: inspectHandler(connections, scope),
    is_complete_request: isCompleteHandler,
    history_request: async (ctx) => ctx.reply({ history: [] }),
    interrupt_request: interruptHandler(runner, () => server?.cancelInput(new Error('interrupted'))),
    shutdown_request: shutdownHandler(shutdown),
    ...commHandlers(comms, log),
  };
  server = new KernelServer(info, { handlers, log });
  process.on('SIGTERM', () => void shutdown());
  // Jupyter may send SIGINT to the process group; interrupts come as messages, so ignore it.
  process.on('SIGINT', () => runner.interrupt());
  await server.start();
}
