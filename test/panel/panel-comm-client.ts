/**
 * The panel's side of the `searchbook.panel` comm for tests over the wire: opens a comm on a
 * kernel, sends requests and waits for the one reply carrying each request id.
 */
import { randomUUID } from 'node:crypto';
import {
  PANEL_COMM_TARGET,
  PANEL_PROTOCOL_VERSION,
  type GridReply,
  GridReplySchema
} from '../../contracts/panel-protocol';
import { KernelClient } from '../support/kernel-client';
import { fromExactWire, toExactWire } from '../../contracts/exact-wire';
import { KernelMessage } from '../support/kernel-messages';

export type OpenedGrid = Extract<GridReply, { type: 'opened' }>;

/** The reply, checked to be of `type` (an error reply fails with its message). */
export function expectReply<T extends GridReply['type']>(
  reply: GridReply,
  type: T
): Extract<GridReply, { type: T }> {
  if (reply.type !== type) {
    throw new Error(
      `expected ${type}, got ${JSON.stringify(reply).slice(0, 400)}`
    );
  }
  return reply as Extract<GridReply, { type: T }>;
}

export class PanelCommClient {
  private constructor(
    private readonly kernel: KernelClient,
    readonly commId: string
  ) {}

  static async open(kernel: KernelClient): Promise<PanelCommClient> {
    const id = randomUUID();
    await kernel.submit('shell', 'comm_open', {
      comm_id: id,
      target_name: PANEL_COMM_TARGET,
      data: {}
    });
    return new PanelCommClient(kernel, id);
  }

  async call(
    data: Record<string, unknown>,
    timeoutMs = 20_000
  ): Promise<GridReply> {
    const requestId = randomUUID();
    // Its answer comes after the request: only the log from here on is read.
    const from = this.kernel.iopubMessages().length;
    await this.kernel.submit('shell', 'comm_msg', {
      comm_id: this.commId,
      data: toExactWire({ v: PANEL_PROTOCOL_VERSION, requestId, ...data })
    });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.kernel
        .iopubMessages()
        .slice(from)
        .filter(KernelMessage.isCommMsgMsg)
        .filter(
          m =>
            (fromExactWire(m.content.data) as { requestId?: unknown })
              .requestId === requestId
        );
      if (found.length > 1) {
        throw new Error(
          `request ${requestId} was answered ${found.length} times`
        );
      }
      if (found[0]) {
        return GridReplySchema.parse(fromExactWire(found[0].content.data));
      }
      if (Date.now() > deadline) {
        throw new Error(`no reply to ${requestId}: ${this.kernel.stderr}`);
      }
      await this.kernel.nextIopub();
    }
  }

  /** Calls and checks the reply's type (an error reply fails with its message). */
  async expect<T extends GridReply['type']>(
    data: Record<string, unknown>,
    type: T
  ): Promise<Extract<GridReply, { type: T }>> {
    return expectReply(await this.call(data), type);
  }
}

/**
 * A kernel that has run `lines` (each must succeed: the `%connect`s a suite needs) and a grid
 * comm on it; the kernel is closed again when a line fails.
 */
export async function kernelWithPanelComm(
  lines: string[],
  env: Record<string, string> = {},
  options: { cwd?: string } = {}
): Promise<{ kernel: KernelClient; comm: PanelCommClient }> {
  const kernel = await KernelClient.start(env, options);
  try {
    for (const line of lines) {
      const { reply } = await kernel.execute(line);
      if (reply.content.status !== 'ok') {
        throw new Error(
          `${line.split('\n')[0]} failed: ${JSON.stringify(reply.content).slice(0, 400)}`
        );
      }
    }
    return { kernel, comm: await PanelCommClient.open(kernel) };
  } catch (err) {
    await kernel.close();
    throw err;
  }
}

/**
 * `kernelWithPanelComm` started while `setUp` makes the suite's data on the engine: the kernel's
 * start-up and the engine's work overlap. The kernel is closed again when `setUp` fails.
 */
export async function kernelWithPanelCommBeside(
  setUp: () => Promise<unknown>,
  ...kernelArgs: Parameters<typeof kernelWithPanelComm>
): Promise<{ kernel: KernelClient; comm: PanelCommClient }> {
  const [made, started] = await Promise.allSettled([
    setUp(),
    kernelWithPanelComm(...kernelArgs)
  ]);
  if (made.status === 'rejected') {
    if (started.status === 'fulfilled') {
      await started.value.kernel.close();
    }
    throw made.reason;
  }
  if (started.status === 'rejected') {
    throw started.reason;
  }
  return started.value;
}

/** Every row of a grid, block by block as the panel scrolls, then the grid closed. */
export async function allRows(
  comm: PanelCommClient,
  grid: OpenedGrid
): Promise<Record<string, unknown>[]> {
  const rows = [...grid.first.rows];
  for (let block = 1; block * grid.blockSize < grid.total; block++) {
    rows.push(
      ...(
        await comm.expect({ type: 'read', gridId: grid.gridId, block }, 'block')
      ).block.rows
    );
  }
  await comm.expect({ type: 'close', gridId: grid.gridId }, 'closed');
  return rows;
}

/**
 * Sends the panel's export request on `comm` (the panel that asks) without waiting for it: its
 * progress messages so far, its one answer once it comes, and a wait until it has read its
 * first documents (both bounded, failing with the kernel's stderr).
 */
export function startExport(
  kernel: KernelClient,
  comm: PanelCommClient,
  data: Record<string, unknown>
) {
  const requestId = randomUUID();
  const from = kernel.iopubMessages().length;
  const sent = kernel.submit('shell', 'comm_msg', {
    comm_id: comm.commId,
    data: { v: PANEL_PROTOCOL_VERSION, requestId, type: 'export', ...data }
  });
  const messages = () =>
    kernel
      .iopubMessages()
      .slice(from)
      .filter(KernelMessage.isCommMsgMsg)
      .filter(m => m.content.data.requestId === requestId)
      .map(m => GridReplySchema.parse(fromExactWire(m.content.data)));
  const progress = () =>
    messages().filter(
      (m): m is Extract<GridReply, { type: 'exportProgress' }> =>
        m.type === 'exportProgress'
    );
  const answer = async (): Promise<GridReply> => {
    await sent;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answers = messages().filter(m => m.type !== 'exportProgress');
      if (answers.length > 1) {
        throw new Error(`the export was answered ${answers.length} times`);
      }
      if (answers[0]) {
        return answers[0];
      }
      if (Date.now() > deadline) {
        throw new Error(`no answer to the export: ${kernel.stderr}`);
      }
      await kernel.nextIopub();
    }
  };
  const started = async () => {
    await sent;
    const deadline = Date.now() + 20_000;
    while (!progress().some(p => p.progress.documents > 0)) {
      if (Date.now() > deadline) {
        throw new Error(`the export did not start: ${kernel.stderr}`);
      }
      await kernel.nextIopub();
    }
  };
  return { progress, answer, started };
}
