import type { Kernel } from '@jupyterlab/services';
import { Signal } from '@lumino/signaling';
import {
  GRID_COMM_TARGET,
  GRID_PROTOCOL_VERSION,
  type GridReply,
  GridReplySchema,
  type GridRequestInput,
} from '../../../kernel/src/grid/grid-protocol';

type Request = GridRequestInput extends infer R ? (R extends GridRequestInput ? Omit<R, 'v' | 'requestId'> : never) : never;
type Reply<T extends GridReply['type']> = Extract<GridReply, { type: T }>;

/** A grid request the kernel answered with an error: its message carries the engine's reason. */
export class GridRequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** A refused filter: the row the message belongs under (nothing was sent). */
    readonly filterRow?: number | 'raw',
  ) {
    super(message);
  }
}

let counter = 0;

/**
 * The panel's end of the `searchbook.grid` comm on one kernel: sends requests, pairs each
 * reply with its request by id, and validates replies against the shared protocol.
 */
export class GridClient {
  /** The comm is gone (the kernel restarted or stopped, or the panel closed it), with why. */
  readonly closedWith = new Signal<this, string>(this);
  private readonly comm: Kernel.IComm;
  private readonly waiting = new Map<string, { resolve: (reply: GridReply) => void; reject: (err: Error) => void }>();
  private closed = false;

  constructor(readonly kernel: Kernel.IKernelConnection) {
    this.comm = kernel.createComm(GRID_COMM_TARGET);
    this.comm.onMsg = (msg) => this.receive(msg.content.data);
    this.comm.onClose = () => this.fail('The kernel closed the grid comm (it restarted or shut down).');
    // A restart disposes comms without calling onClose: a request must not wait for a reply that never comes.
    kernel.statusChanged.connect(this.onStatus, this);
    this.comm.open({});
  }

  get isClosed(): boolean {
    return this.closed || this.kernel.isDisposed || this.comm.isDisposed;
  }

  async request<T extends GridReply['type']>(body: Request, expected: T): Promise<Reply<T>> {
    if (this.isClosed) throw new GridRequestError('The kernel behind this grid is gone; open the grid again from the searchbook panel.');
    const requestId = `r${++counter}-${Date.now().toString(36)}`;
    const reply = new Promise<GridReply>((resolve, reject) => this.waiting.set(requestId, { resolve, reject }));
    this.comm.send({ ...body, v: GRID_PROTOCOL_VERSION, requestId } as unknown as Parameters<Kernel.IComm['send']>[0]);
    const answer = await reply;
    if (answer.type === 'error') throw new GridRequestError(answer.message, answer.status, answer.filterRow);
    if (answer.type !== expected) throw new GridRequestError(`The kernel answered ${answer.type} where ${expected} was expected.`);
    return answer as Reply<T>;
  }

  dispose(): void {
    if (this.closed) return;
    if (!this.kernel.isDisposed) this.comm.close();
    this.fail('The grid comm was closed.');
  }

  private receive(data: unknown): void {
    const parsed = GridReplySchema.safeParse(data);
    if (!parsed.success) {
      console.warn('searchbook: a grid reply that does not match the protocol was ignored', parsed.error.issues[0]);
      return;
    }
    const id = parsed.data.requestId;
    const waiter = id === null ? undefined : this.waiting.get(id);
    if (!waiter || id === null) return;
    this.waiting.delete(id);
    waiter.resolve(parsed.data);
  }

  private onStatus(_: Kernel.IKernelConnection, status: Kernel.Status): void {
    if (status === 'restarting' || status === 'autorestarting' || status === 'dead') this.fail('The kernel restarted or stopped before it answered.');
  }

  private fail(message: string): void {
    this.kernel.statusChanged.disconnect(this.onStatus, this);
    if (!this.closed) this.closedWith.emit(message);
    this.closed = true;
    for (const waiter of this.waiting.values()) waiter.reject(new GridRequestError(message));
    this.waiting.clear();
  }
}
