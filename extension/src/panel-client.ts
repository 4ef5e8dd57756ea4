import type { Kernel } from '@jupyterlab/services';
import { Signal } from '@lumino/signaling';
import {
  PANEL_PROTOCOL_VERSION,
  PANEL_COMM_TARGET,
  type GridReply,
  GridReplySchema,
  type GridRequestInput
} from '@searchbook/contracts/panel-protocol';
import type { PanelReply } from '@searchbook/contracts/panel-requests';
import { tellOutputRows } from './settings/output-rows-sync';
import { fromExactWire, toExactWire } from '@searchbook/contracts/exact-wire';

type Request = GridRequestInput extends infer R
  ? R extends GridRequestInput
    ? Omit<R, 'v' | 'requestId'>
    : never
  : never;
/** The reply of this type, as request() resolves to it: the panel's request table types it. */
export type { PanelReply };
type Reply<T extends GridReply['type']> = PanelReply<T>;

/** A panel request the kernel answered with an error: its message carries the engine's reason. */
export class PanelRequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** A refused filter: the row the message belongs under (nothing was sent). */
    readonly filterRow?: number | 'raw'
  ) {
    super(message);
  }
}

let counter = 0;

/** What to do when the kernel speaks another version of the panel protocol than this page. */
export function versionMismatchMessage(kernelVersion: unknown): string {
  const theirs = typeof kernelVersion === 'number' ? kernelVersion : null;
  const spoken = `The searchbook kernel speaks panel protocol ${JSON.stringify(theirs)}, this page ${PANEL_PROTOCOL_VERSION}`;
  // A page older than its kernel is the usual case: searchbook was upgraded while the page stayed open.
  if (theirs !== null && theirs < PANEL_PROTOCOL_VERSION) {
    return `${spoken}: the kernel predates an upgrade; restart it (Kernel › Restart Kernel…), then reload the page.`;
  }
  return `${spoken}: reload the page (searchbook was upgraded since it was loaded).`;
}

/**
 * The panel's end of the `searchbook.panel` comm on one kernel: sends requests, pairs each
 * reply with its request by id, and validates replies against the shared protocol.
 */
export class PanelClient {
  /** The kernel ended a grid on its own (its connection was replaced or closed). */
  readonly ended = new Signal<this, { gridId: string; message: string }>(this);
  /** This comm is done with: the kernel restarted or stopped, or speaks another protocol version. */
  readonly failed = new Signal<this, string>(this);
  private readonly comm: Kernel.IComm;
  private readonly waiting = new Map<
    string,
    { resolve: (reply: GridReply) => void; reject: (err: Error) => void }
  >();
  /** Messages that come before a request's answer (an export's progress), by request id. */
  private readonly listeners = new Map<string, (message: GridReply) => void>();
  private closed = false;
  private failure =
    'The kernel behind this grid is gone; open the grid again from the searchbook panel.';

  constructor(readonly kernel: Kernel.IKernelConnection) {
    this.comm = kernel.createComm(PANEL_COMM_TARGET);
    this.comm.onMsg = msg => this.receive(fromExactWire(msg.content.data));
    this.comm.onClose = () =>
      this.fail(
        'The kernel closed the panel comm (it restarted or shut down): reopen this grid from the searchbook panel.'
      );
    // A restart drops the kernel's comms without a comm_close.
    kernel.statusChanged.connect(this.onStatus, this);
    this.comm.open({});
    tellOutputRows(this);
  }

  get isClosed(): boolean {
    return this.closed || this.kernel.isDisposed || this.comm.isDisposed;
  }

  /** `expected`: the reply type, or the types a request may be answered with (a change or its conflict). */
  async request<T extends GridReply['type']>(
    body: Request,
    expected: T | readonly T[],
    onProgress?: (message: GridReply) => void
  ): Promise<Reply<T>> {
    if (this.isClosed) {
      throw new PanelRequestError(this.failure);
    }
    const requestId = `r${++counter}-${Date.now().toString(36)}`;
    if (onProgress) {
      this.listeners.set(requestId, onProgress);
    }
    const reply = new Promise<GridReply>((resolve, reject) =>
      this.waiting.set(requestId, { resolve, reject })
    );
    // An edit keeps every digit typed: a long past 2^53 crosses as exact JSON text.
    this.comm.send(
      toExactWire({
        ...body,
        v: PANEL_PROTOCOL_VERSION,
        requestId
      }) as unknown as Parameters<Kernel.IComm['send']>[0]
    );
    const answer = await reply.finally(() => this.listeners.delete(requestId));
    if (answer.type === 'error') {
      throw new PanelRequestError(
        answer.message,
        answer.status,
        answer.filterRow
      );
    }
    const types: readonly string[] =
      typeof expected === 'string' ? [expected] : expected;
    if (!types.includes(answer.type)) {
      throw new PanelRequestError(
        `The kernel answered ${answer.type} where ${types.join(' or ')} was expected.`
      );
    }
    return answer as Reply<T>;
  }

  dispose(): void {
    if (this.closed) {
      return;
    }
    if (!this.kernel.isDisposed) {
      this.comm.close();
    }
    this.fail('The panel comm was closed.');
  }

  private onStatus(_: Kernel.IKernelConnection, status: Kernel.Status): void {
    if (
      status === 'restarting' ||
      status === 'autorestarting' ||
      status === 'dead'
    ) {
      this.fail(
        `The kernel ${status === 'dead' ? 'died' : 'restarted'}: reopen this grid from the searchbook panel.`
      );
    }
  }

  private receive(data: unknown): void {
    const version =
      typeof data === 'object' && data !== null
        ? (data as { v?: unknown }).v
        : undefined;
    if (version !== PANEL_PROTOCOL_VERSION) {
      // Its replies cannot be read as ours: every request would wait for nothing.
      this.fail(versionMismatchMessage(version));
      if (!this.kernel.isDisposed) {
        this.comm.close();
      }
      return;
    }
    const parsed = GridReplySchema.safeParse(data);
    if (!parsed.success) {
      console.warn(
        'searchbook: a grid reply that does not match the protocol was ignored',
        parsed.error.issues[0]
      );
      return;
    }
    if (parsed.data.type === 'ended') {
      this.ended.emit({
        gridId: parsed.data.gridId,
        message: parsed.data.message
      });
      return;
    }
    const id = parsed.data.requestId;
    if (parsed.data.type === 'exportProgress') {
      if (id !== null) {
        this.listeners.get(id)?.(parsed.data);
      }
      return;
    }
    const waiter = id === null ? undefined : this.waiting.get(id);
    if (!waiter || id === null) {
      return;
    }
    this.waiting.delete(id);
    waiter.resolve(parsed.data);
  }

  private fail(message: string): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.failure = message;
    this.kernel.statusChanged.disconnect(this.onStatus, this);
    for (const waiter of this.waiting.values()) {
      waiter.reject(new PanelRequestError(message));
    }
    this.waiting.clear();
    this.failed.emit(message);
  }
}
