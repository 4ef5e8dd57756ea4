import type { KernelMessage } from '@jupyterlab/services';
import { randomUUID } from 'node:crypto';
import type { ConnectionInfo } from './connection-file';
import { boundCrossed } from './json-bounds';
import {
  type IncomingMessage,
  MessageError,
  type OutgoingMessage,
  decode,
  encode
} from './message';
import { Signer } from './signer';
import { KernelSockets } from './sockets';

export type RequestChannel = 'shell' | 'control';

/** Requests Jupyter never replies to: comm targets answer on their comm. */
const COMM_MESSAGES = new Set(['comm_open', 'comm_msg', 'comm_close']);

/** How long the shell socket is drained after a failed cell before queued cells are aborted. */
const DRAIN_MS = 10;

/**
 * A content whose `data` the kernel builds: not JSON yet (exact numbers and answers sent as
 * buffers become JSON when the message is written), so not JupyterLab's JSON types.
 */
type WithBuiltData<C extends { data: unknown }> = Omit<C, 'data'> & {
  data: Record<string, unknown>;
};

/** What the kernel publishes on iopub, by message type: the content JupyterLab reads there. */
export interface IopubContent {
  status: KernelMessage.IStatusMsg['content'];
  execute_input: KernelMessage.IExecuteInputMsg['content'];
  display_data: WithBuiltData<KernelMessage.IDisplayDataMsg['content']>;
  update_display_data: WithBuiltData<
    KernelMessage.IUpdateDisplayDataMsg['content']
  >;
  error: KernelMessage.IErrorMsg['content'];
  comm_msg: WithBuiltData<KernelMessage.ICommMsgMsg['content']>;
  comm_close: WithBuiltData<KernelMessage.ICommCloseMsg['content']>;
}

/** A successful reply's content, its `status: 'ok'` added when missing. */
type OkReply<T extends { status: 'ok' }> = Omit<T, 'status'> & {
  status?: 'ok';
};

/** What the kernel answers each request it serves with, by request type: the content JupyterLab reads. */
export interface ReplyContent {
  kernel_info_request: OkReply<KernelMessage.IInfoReply>;
  execute_request:
    | OkReply<KernelMessage.IExecuteReply>
    | (KernelMessage.IReplyErrorContent & KernelMessage.IExecuteCount);
  complete_request: OkReply<
    Extract<KernelMessage.ICompleteReplyMsg['content'], { status: 'ok' }>
  >;
  inspect_request: OkReply<KernelMessage.IInspectReply>;
  is_complete_request: KernelMessage.IIsCompleteReplyMsg['content'];
  // Output is null where none was kept (as ipykernel answers), which JupyterLab's type leaves out.
  history_request: {
    status?: 'ok';
    history: [number, number, string | [string, string | null]][];
  };
  comm_info_request: OkReply<KernelMessage.ICommInfoReply>;
  interrupt_request: OkReply<KernelMessage.IInterruptReply>;
  // Not among JupyterLab's message types: Jupyter's protocol answers with the restart asked for.
  shutdown_request: { restart: boolean };
}

/** What a request of type T may be answered with: its own reply, or an error or abort (any request). */
export type ReplyOf<T extends string> =
  | (T extends keyof ReplyContent ? ReplyContent[T] : never)
  | KernelMessage.IReplyErrorContent
  | KernelMessage.IReplyAbortContent;

/** What a handler gets for one request of type T: its message and the ways to answer it. */
export interface RequestContext<T extends string = string> {
  readonly message: IncomingMessage;
  readonly channel: RequestChannel;
  /** Sends the `<type>_reply` on the request's channel; `status` is added when missing. */
  reply(content: ReplyOf<T>): Promise<void>;
  /** Publishes on iopub with this request as parent. */
  publish<T extends keyof IopubContent>(
    msgType: T,
    content: IopubContent[T],
    metadata?: Record<string, unknown>
  ): Promise<void>;
  /** Asks the frontend for text on stdin; rejects when the frontend does not allow stdin. */
  input(prompt: string, password: boolean): Promise<string>;
}

/** Serves requests of type T (a request type of ReplyContent types what it replies). */
export type Handler<T extends string = string> = (
  ctx: RequestContext<T>
) => Promise<void>;

export interface ServerEvents {
  /** Every request type the kernel answers, by msg_type. */
  handlers: Record<string, Handler>;
  /** The kernel's diagnostic log (stderr); never given secrets. */
  log(line: string): void;
}

/**
 * Jupyter's five channels: shell requests run one at a time in arrival order, control
 * requests run at once beside them (so interrupt and shutdown work during a long cell).
 */
export class KernelServer {
  readonly session = randomUUID();
  private readonly signer: Signer;
  private readonly sockets: KernelSockets;
  private readonly shellQueue: IncomingMessage[] = [];
  private wakeShell: (() => void) | undefined;
  private pendingInput:
    { resolve(v: string): void; reject(e: Error): void } | undefined;
  private closed = false;

  constructor(
    info: ConnectionInfo,
    private readonly events: ServerEvents
  ) {
    this.signer = new Signer(info.key, info.signature_scheme);
    this.sockets = new KernelSockets(info);
  }

  async start(): Promise<void> {
    await this.sockets.bind();
    // Each loop catches what its messages throw; a loop that still ends is logged, not unhandled.
    for (const [name, loop] of [
      ['shell reader', this.readShell()],
      ['shell', this.processShell()],
      ['control', this.readControl()],
      ['stdin', this.readStdin()]
    ] as const) {
      loop.catch((err: unknown) =>
        this.events.log(
          `the ${name} loop ended: ${(err as Error).stack ?? String(err)}`
        )
      );
    }
    await this.publishStatus('starting');
  }

  async stop(): Promise<void> {
    if (this.closed) {
      return;
    }
    this.closed = true;
    this.wakeShell?.();
    await this.sockets.close();
  }

  /**
   * Takes the execute requests already queued behind a failed cell (frames on the socket are
   * read first) and returns what answers them `aborted`, as ipykernel does, so Run All stops
   * there. Called before the failed cell's reply goes out, so a cell sent after that reply
   * is never aborted.
   */
  async takeQueuedExecutions(): Promise<() => Promise<void>> {
    await new Promise(resolve => setTimeout(resolve, DRAIN_MS));
    const taken = this.shellQueue.filter(
      m => m.header.msg_type === 'execute_request'
    );
    for (const message of taken) {
      this.shellQueue.splice(this.shellQueue.indexOf(message), 1);
    }
    return async () => {
      for (const message of taken) {
        await this.handle(message, 'shell', async ctx =>
          ctx.reply({ status: 'aborted' })
        );
      }
    };
  }

  private async readShell(): Promise<void> {
    for await (const frames of this.iterate(this.sockets.shell)) {
      const message = this.decodeOrLog(frames, 'shell');
      if (!message) {
        continue;
      }
      this.shellQueue.push(message);
      this.wakeShell?.();
    }
  }

  private async processShell(): Promise<void> {
    while (!this.closed) {
      const message = this.shellQueue.shift();
      if (!message) {
        await new Promise<void>(resolve => (this.wakeShell = resolve));
        this.wakeShell = undefined;
        continue;
      }
      await this.dispatch(message, 'shell');
    }
  }

  private async readControl(): Promise<void> {
    // Control requests are answered one at a time, but read (and stamped) as they arrive: an
    // interrupt answered late, after a storm of them, must still count from when it came.
    let answering = Promise.resolve();
    for await (const frames of this.iterate(this.sockets.control)) {
      const message = this.decodeOrLog(frames, 'control');
      // Not in sequence with shell: control must answer while a cell runs.
      if (message) {
        answering = answering
          .then(() => this.dispatch(message, 'control'))
          .catch((err: unknown) =>
            this.events.log(`control request failed: ${(err as Error).message}`)
          );
      }
    }
    await answering;
  }

  private async readStdin(): Promise<void> {
    for await (const frames of this.iterate(this.sockets.stdin)) {
      const message = this.decodeOrLog(frames, 'stdin');
      if (message?.header.msg_type !== 'input_reply' || !this.pendingInput) {
        continue;
      }
      const value = (message.content as { value?: unknown }).value;
      const pending = this.pendingInput;
      this.pendingInput = undefined;
      pending.resolve(typeof value === 'string' ? value : '');
    }
  }

  private async *iterate(
    socket: AsyncIterable<Buffer[]>
  ): AsyncGenerator<Buffer[]> {
    try {
      for await (const frames of socket) {
        if (this.closed) {
          return;
        }
        yield frames;
      }
    } catch (err) {
      if (!this.closed) {
        this.events.log(`socket loop ended: ${(err as Error).message}`);
      }
    }
  }

  private decodeOrLog(
    frames: Buffer[],
    channel: string
  ): IncomingMessage | undefined {
    try {
      return decode(frames, this.signer);
    } catch (err) {
      // A message we cannot verify is dropped without an answer, as jupyter_client does.
      const reason =
        err instanceof MessageError
          ? err.message
          : `unreadable frames (${(err as Error).message})`;
      this.events.log(`dropped a ${channel} message: ${reason}`);
      return undefined;
    }
  }

  private async dispatch(
    message: IncomingMessage,
    channel: RequestChannel
  ): Promise<void> {
    const handler = this.events.handlers[message.header.msg_type];
    if (!handler) {
      this.events.log(
        `no handler for ${message.header.msg_type} on ${channel}`
      );
      return;
    }
    await this.handle(message, channel, handler);
  }

  private async handle(
    message: IncomingMessage,
    channel: RequestChannel,
    handler: Handler
  ): Promise<void> {
    const ctx = this.context(message, channel);
    // Not awaited: the iopub sender keeps messages in order, so the handler may start (a cell's
    // request go out to the engine) while busy is still being handed to ZeroMQ.
    const busy = ctx.publish('status', { execution_state: 'busy' });
    try {
      // Before the handler's schema, which walks the content recursively. Comm messages have no
      // reply of their own: their target checks them and answers on the comm.
      const crossed = COMM_MESSAGES.has(message.header.msg_type)
        ? undefined
        : boundCrossed(message.content);
      if (crossed) {
        this.events.log(`refused a ${message.header.msg_type}: ${crossed}`);
        await ctx.reply({
          status: 'error',
          ename: 'MessageRefused',
          evalue: `searchbook refuses this ${message.header.msg_type}: ${crossed}.`,
          traceback: []
        });
        return;
      }
      await handler(ctx);
    } catch (err) {
      // A bug in a handler must still answer the request, or the frontend waits forever.
      this.events.log(
        `handler ${message.header.msg_type} failed: ${(err as Error).stack ?? String(err)}`
      );
      const error = {
        status: 'error' as const,
        ename: 'InternalError',
        evalue: (err as Error).message,
        traceback: []
      };
      await ctx.reply(error).catch(() => undefined);
    } finally {
      await busy.catch((err: unknown) =>
        this.events.log(`status busy not sent: ${(err as Error).message}`)
      );
      // A failed publish must not end the shell loop that awaits this.
      await ctx
        .publish('status', { execution_state: 'idle' })
        .catch((err: unknown) =>
          this.events.log(`status idle not sent: ${(err as Error).message}`)
        );
    }
  }

  private context(
    message: IncomingMessage,
    channel: RequestChannel
  ): RequestContext {
    let replied = false;
    const replyType = message.header.msg_type.replace(/_request$/, '_reply');
    return {
      message,
      channel,
      reply: async content => {
        if (replied) {
          return;
        }
        replied = true;
        // Typed per request, so a reply without its status is the ok one.
        const body: object = content;
        await this.send(channel, {
          msgType: replyType,
          content: { status: 'ok', ...body },
          parent: message,
          identities: message.identities
        });
      },
      publish: (msgType, content, metadata) =>
        this.send(
          'iopub',
          this.topic({ msgType, content, parent: message, metadata })
        ),
      input: (prompt, password) => this.requestInput(message, prompt, password)
    };
  }

  private topic(message: OutgoingMessage): OutgoingMessage {
    return { ...message, identities: [Buffer.from(message.msgType)] };
  }

  private publishStatus(state: string): Promise<void> {
    return this.send(
      'iopub',
      this.topic({ msgType: 'status', content: { execution_state: state } })
    );
  }

  private async requestInput(
    parent: IncomingMessage,
    prompt: string,
    password: boolean
  ): Promise<string> {
    const allowed =
      (parent.content as { allow_stdin?: unknown }).allow_stdin === true;
    if (!allowed) {
      throw new Error(
        'This frontend does not accept input requests (allow_stdin is false).'
      );
    }
    const answer = new Promise<string>(
      (resolve, reject) => (this.pendingInput = { resolve, reject })
    );
    // An interrupt may reject it before the caller awaits it; that must not count as unhandled.
    answer.catch(() => undefined);
    try {
      await this.send('stdin', {
        msgType: 'input_request',
        content: { prompt, password },
        parent,
        identities: parent.identities
      });
    } catch (err) {
      this.pendingInput = undefined;
      this.events.log(`input_request not delivered: ${(err as Error).message}`);
      throw new Error(
        'The frontend is not connected on stdin, so it cannot be asked for input.'
      );
    }
    return answer;
  }

  /** Abandons an input request (the cell was interrupted). */
  cancelInput(reason: Error): void {
    this.pendingInput?.reject(reason);
    this.pendingInput = undefined;
  }

  private async send(
    channel: 'shell' | 'control' | 'stdin' | 'iopub',
    message: OutgoingMessage
  ): Promise<void> {
    if (this.closed && channel !== 'control' && channel !== 'iopub') {
      return;
    }
    await this.sockets.send(channel, () =>
      encode(message, this.session, this.signer)
    );
  }
}
