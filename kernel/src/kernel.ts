import { kernelInfoHandler } from './handlers/kernel-info';
import { shutdownHandler } from './handlers/control';
import { readConnectionFile } from './protocol/connection-file';
import { type Handler, KernelServer } from './protocol/kernel-server';
import { SecretMask } from './render/secret-mask';
import { SESSION_REQUESTS } from './session-requests';
import { keepServingAfterStrayErrors } from './stray-errors';

/** `searchbook kernel <connection-file>`: runs until a shutdown_request or a signal. */
export async function runKernel(connectionFile: string): Promise<void> {
  const info = await readConnectionFile(connectionFile);
  // The kernel's own log goes to stderr, which Jupyter Server shows in its console; no secret is ever logged.
  const secrets = new SecretMask();
  // When nobody reads stderr any more (the process that started the kernel died with the
  // pipe's other end), a write fails with EPIPE: unheard, that error would be an uncaught
  // exception, whose log line fails again, without end, and the kernel would spin instead of
  // noticing its parent is gone. The log falls silent instead.
  let logHeard = true;
  process.stderr.on('error', () => {
    logHeard = false;
  });
  const log = (line: string) => {
    if (logHeard) {
      process.stderr.write(`[searchbook] ${secrets.text(line)}\n`);
    }
  };

  let server: KernelServer | undefined;
  // The console half (parser, executor, drivers' front) loads while Jupyter connects, so the
  // first kernel_info_reply does not wait for it.
  let sessionLoad: ReturnType<typeof loadSession> | undefined;
  const loadSession = async () =>
    (await import('./session')).createSession({
      takeQueuedExecutions: () =>
        server?.takeQueuedExecutions() ??
        Promise.resolve(async () => undefined),
      cancelInput: () => server?.cancelInput(new Error('interrupted')),
      log,
      secrets
    });
  const session = () => (sessionLoad ??= loadSession());
  let loaded: Awaited<ReturnType<typeof loadSession>> | undefined;

  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    (stopping ??= (async () => {
      if (sessionLoad) {
        await (await sessionLoad).close().catch(() => undefined);
      }
      await server?.stop();
      process.exit(0);
    })());

  const handlers: Record<string, Handler> = {
    kernel_info_request: kernelInfoHandler,
    shutdown_request: shutdownHandler(shutdown)
  };
  // Once loaded, the session's handler is called in the same tick: an await here would let the
  // busy status go to ZeroMQ (a tenth of a millisecond after idle) before a cell's request goes
  // to the engine, instead of while the engine works on it.
  for (const type of SESSION_REQUESTS) {
    handlers[type] = ctx => {
      if (loaded) {
        return loaded.handlers[type](ctx);
      }
      return session().then(s => {
        loaded = s;
        return s.handlers[type](ctx);
      });
    };
  }

  keepServingAfterStrayErrors(log);
  server = new KernelServer(info, { handlers, log });
  process.on('SIGTERM', () => void shutdown());
  // A Jupyter server that dies without shutting its kernels down (killed, or stopped by a
  // signal it does not handle) leaves this process to init: then nobody can reach it, so it stops.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid === parent) {
      return;
    }
    log(
      `the process that started this kernel (${parent}) has exited; stopping`
    );
    void shutdown();
  }, 1_000).unref();
  // Interrupts arrive as messages (interrupt_mode "message"); a stray SIGINT must not kill the kernel.
  process.on('SIGINT', () => undefined);
  await server.start();
  setImmediate(() => void session());
}
