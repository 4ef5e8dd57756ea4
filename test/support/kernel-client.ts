import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import * as zmq from 'zeromq';
import { freePort } from './free-port';
import { KernelMessage } from './kernel-messages';

const HERE = join(__dirname, '..', '..');
/** The package root, whether this file runs from test/ (jest) or compiled into dist/ (benches). */
export const REPO = basename(HERE) === 'dist' ? dirname(HERE) : HERE;

export interface WireMessage {
  /** The socket it came on. */
  channel: KernelMessage.Channel;
  header: {
    msg_id: string;
    msg_type: string;
    session: string;
    version: string;
    date?: string;
    username: string;
  };
  parent_header: { msg_id?: string; msg_type?: string };
  metadata: Record<string, unknown>;
  content: Record<string, unknown>;
  /** The content as the kernel wrote it, for what JSON.parse does not show (a number's every digit). */
  contentText?: string;
  /** The frames after the four JSON parts (a payload's `answerBuffer` indexes them). */
  buffers?: Buffer[];
}

/** The content as the kernel wrote it, besides the parsed message. */
interface Received {
  contentText?: string;
}

/**
 * A message on iopub as JupyterLab types it: `KernelMessage.isDisplayDataMsg`, `isErrorMsg`,
 * `isStreamMsg`, `isCommMsgMsg` and their kin tell the kinds apart (and narrow to them).
 * `filter(KernelMessage.isDisplayDataMsg)` gives JupyterLab's own type, without `contentText`;
 * `filter(m => KernelMessage.isDisplayDataMsg(m))` keeps it. Its `buffers` are typed as JupyterLab
 * types them (array buffer views); they are Node Buffers.
 */
export type IopubMessage = (
  | KernelMessage.IStatusMsg
  | KernelMessage.IExecuteInputMsg
  | KernelMessage.IStreamMsg
  | KernelMessage.IDisplayDataMsg
  | KernelMessage.IUpdateDisplayDataMsg
  | KernelMessage.IExecuteResultMsg
  | KernelMessage.IErrorMsg
  | KernelMessage.IClearOutputMsg
  // Comm messages as JupyterLab's guards narrow to them (it types them for either channel).
  | KernelMessage.ICommOpenMsg
  | KernelMessage.ICommMsgMsg
  | KernelMessage.ICommCloseMsg
) &
  Received;

/** A reply to execute_request as JupyterLab types it: `status` tells ok, error and aborted apart. */
export type ExecuteReply = KernelMessage.IExecuteReplyMsg & Received;

/** The replies JupyterLab types, by the request they answer. */
interface RepliesTo {
  kernel_info_request: KernelMessage.IInfoReplyMsg;
  complete_request: KernelMessage.ICompleteReplyMsg;
  inspect_request: KernelMessage.IInspectReplyMsg;
  is_complete_request: KernelMessage.IIsCompleteReplyMsg;
  interrupt_request: KernelMessage.IInterruptReplyMsg;
  history_request: KernelMessage.IHistoryReplyMsg;
  comm_info_request: KernelMessage.ICommInfoReplyMsg;
}

/** The reply to a request of type `T`: typed as JupyterLab types it where it does. */
export type ReplyTo<T extends string> = T extends keyof RepliesTo
  ? RepliesTo[T] & Received
  : WireMessage;

/** The content of a reply that says the request succeeded; throws for an error or aborted reply. */
export function okOf<C extends { status: string }>(reply: {
  content: C;
}): Extract<C, { status: 'ok' }> {
  const { content } = reply;
  if (content.status !== 'ok') {
    throw new Error(`the request did not succeed: ${JSON.stringify(content)}`);
  }
  return content as Extract<C, { status: 'ok' }>;
}

/** A reply `submit` resolved with, as the execute reply it must be. */
export function executeReply(message: WireMessage): ExecuteReply {
  if (message.header.msg_type !== 'execute_reply') {
    throw new Error(`execute_request answered by ${message.header.msg_type}`);
  }
  return message as unknown as ExecuteReply;
}

/** The content of an execute reply that says the cell failed (its name, value and traceback); throws for any other. */
export function errorOf(reply: ExecuteReply): KernelMessage.IReplyErrorContent {
  const { content } = reply;
  if (content.status !== 'error') {
    throw new Error(`the cell did not fail: ${JSON.stringify(content)}`);
  }
  return content;
}

type Channel = 'shell' | 'control' | 'stdin';

/**
 * A minimal Jupyter frontend over real ZeroMQ sockets, independent of the kernel's own code,
 * so the wire tests check the protocol and not the kernel against itself.
 */
export class KernelClient {
  readonly key = randomUUID();
  readonly session = randomUUID();
  // shell and stdin share one identity, as in jupyter_client: the kernel sends input_request
  // on stdin to the identity the execute_request came from on shell.
  private readonly sockets: Record<Channel, zmq.Dealer> = {
    shell: new zmq.Dealer({ routingId: this.session }),
    control: new zmq.Dealer(),
    stdin: new zmq.Dealer({ routingId: this.session })
  };
  private readonly iopub = new zmq.Subscriber();
  private readonly iopubLog: IopubMessage[] = [];
  private readonly replies = new Map<string, (m: WireMessage) => void>();
  private readonly inputRequests: WireMessage[] = [];
  private waiters: (() => void)[] = [];
  process!: ChildProcess;
  stderr = '';
  connectionFile = '';

  /** `cwd` is where the kernel process starts (Jupyter starts it in the notebook's directory). */
  static async start(
    env: Record<string, string> = {},
    options: { cwd?: string } = {}
  ): Promise<KernelClient> {
    // Ports picked free can be taken before the kernel binds them (jupyter_client has the same
    // race); like Jupyter restarting a dead kernel, try again on fresh ports.
    for (let attempt = 1; ; attempt++) {
      const client = new KernelClient();
      try {
        await client.launch(env, options.cwd);
        return client;
      } catch (err) {
        await client.close();
        if (
          attempt === 3 ||
          !client.stderr.includes('Address already in use')
        ) {
          throw err;
        }
      }
    }
  }

  /** Writes a connection file on free ports (the benchmark launches the process itself). */
  async prepare(): Promise<{
    connectionFile: string;
    ports: Record<
      'shell_port' | 'control_port' | 'stdin_port' | 'iopub_port' | 'hb_port',
      number
    >;
    frames: KernelClient['frames'];
  }> {
    const ports = {
      shell_port: await freePort(),
      control_port: await freePort(),
      stdin_port: await freePort(),
      iopub_port: await freePort(),
      hb_port: await freePort()
    };
    const dir = mkdtempSync(join(tmpdir(), 'searchbook-test-'));
    this.connectionFile = join(dir, 'kernel.json');
    writeFileSync(
      this.connectionFile,
      JSON.stringify({
        ...ports,
        ip: '127.0.0.1',
        transport: 'tcp',
        key: this.key,
        signature_scheme: 'hmac-sha256',
        kernel_name: 'searchbook'
      })
    );
    return {
      connectionFile: this.connectionFile,
      ports,
      frames: this.frames.bind(this)
    };
  }

  private async launch(
    env: Record<string, string>,
    cwd?: string
  ): Promise<void> {
    const { ports } = await this.prepare();
    this.process = spawn(
      process.execPath,
      [join(REPO, 'bin', 'searchbook.js'), 'kernel', this.connectionFile],
      {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
        ...(cwd ? { cwd } : {})
      }
    );
    this.process.stderr?.on(
      'data',
      (d: Buffer) => (this.stderr += d.toString())
    );
    for (const channel of ['shell', 'control', 'stdin'] as const) {
      this.sockets[channel].connect(
        `tcp://127.0.0.1:${ports[`${channel}_port`]}`
      );
      void this.readReplies(channel);
    }
    this.iopub.connect(`tcp://127.0.0.1:${ports.iopub_port}`);
    this.iopub.subscribe();
    void this.readIopub();
    await this.waitForIopub();
  }

  /** Nudges with kernel_info until iopub shows traffic, as Jupyter Server does (slow joiner). */
  private async waitForIopub(): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (this.iopubLog.length === 0) {
      if (Date.now() > deadline || this.process.exitCode !== null) {
        throw new Error(`kernel did not start: ${this.stderr}`);
      }
      void this.request('shell', 'kernel_info_request', {}).catch(
        () => undefined
      );
      await new Promise(r => setTimeout(r, 100));
    }
  }

  sign(frames: Buffer[]): string {
    const hmac = createHmac('sha256', this.key);
    for (const f of frames) {
      hmac.update(f);
    }
    return hmac.digest('hex');
  }

  frames(
    msgType: string,
    content: Record<string, unknown>,
    parent: Record<string, unknown> = {},
    metadata: Record<string, unknown> = {}
  ): { id: string; frames: Buffer[] } {
    const id = randomUUID();
    const header = {
      msg_id: id,
      msg_type: msgType,
      session: this.session,
      username: 'test',
      date: new Date().toISOString(),
      version: '5.3'
    };
    const body = [header, parent, metadata, content].map(p =>
      Buffer.from(JSON.stringify(p))
    );
    return {
      id,
      frames: [Buffer.from('<IDS|MSG>'), Buffer.from(this.sign(body)), ...body]
    };
  }

  /** Sends a request and resolves with its reply. */
  async request<T extends string>(
    channel: Channel,
    msgType: T,
    content: Record<string, unknown>,
    timeoutMs = 10_000
  ): Promise<ReplyTo<T>> {
    const { id, frames } = this.frames(msgType, content);
    const reply = new Promise<WireMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.replies.delete(id);
        reject(new Error(`no reply to ${msgType} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.replies.set(id, m => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    await this.sockets[channel].send(frames);
    const answer = await reply;
    const expected = msgType.replace(/_request$/, '_reply');
    if (answer.header.msg_type !== expected) {
      throw new Error(`${msgType} answered by ${answer.header.msg_type}`);
    }
    return answer as unknown as ReplyTo<T>;
  }

  async sendRaw(channel: Channel, frames: Buffer[]): Promise<void> {
    await this.sockets[channel].send(frames);
  }

  /** Sends without waiting, returning the msg_id (to run several cells at once). */
  async submit(
    channel: Channel,
    msgType: string,
    content: Record<string, unknown>,
    metadata: Record<string, unknown> = {}
  ): Promise<{ id: string; reply: Promise<WireMessage> }> {
    const { id, frames } = this.frames(msgType, content, {}, metadata);
    const reply = new Promise<WireMessage>(resolve =>
      this.replies.set(id, resolve)
    );
    await this.sockets[channel].send(frames);
    return { id, reply };
  }

  /** Runs a cell; `metadata` is the execute_request's (what a frontend says of it). */
  async execute(
    code: string,
    extra: Record<string, unknown> = {},
    metadata: Record<string, unknown> = {}
  ): Promise<{ reply: ExecuteReply; iopub: IopubMessage[] }> {
    const { id, reply } = await this.submit(
      'shell',
      'execute_request',
      {
        code,
        silent: false,
        store_history: true,
        user_expressions: {},
        allow_stdin: false,
        stop_on_error: true,
        ...extra
      },
      metadata
    );
    return {
      reply: executeReply(await reply),
      iopub: await this.iopubFor(id)
    };
  }

  /** The iopub messages caused by one request, up to and including its final `idle`. */
  async iopubFor(msgId: string, timeoutMs = 10_000): Promise<IopubMessage[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mine = this.iopubLog.filter(m => m.parent_header.msg_id === msgId);
      if (
        mine.some(
          m =>
            KernelMessage.isStatusMsg(m) && m.content.execution_state === 'idle'
        )
      ) {
        return mine;
      }
      if (Date.now() > deadline) {
        throw new Error(
          `no idle for ${msgId}; got ${mine.map(m => m.header.msg_type).join(',')}`
        );
      }
      await new Promise<void>(r => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  iopubMessages(): IopubMessage[] {
    return [...this.iopubLog];
  }

  /** Resolves when the next iopub message comes in, or after `timeoutMs`: a wait on the log without a poll interval. */
  nextIopub(timeoutMs = 100): Promise<void> {
    return new Promise<void>(resolve => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async nextInputRequest(timeoutMs = 5000): Promise<WireMessage> {
    const deadline = Date.now() + timeoutMs;
    while (this.inputRequests.length === 0) {
      if (Date.now() > deadline) {
        throw new Error('no input_request');
      }
      await new Promise(r => setTimeout(r, 20));
    }
    return this.inputRequests.shift() as WireMessage;
  }

  /** Answers an input_request on stdin, as a frontend does when the user presses Enter. */
  async inputReply(request: WireMessage, value: string): Promise<void> {
    const { frames } = this.frames('input_reply', { value }, request.header);
    await this.sockets.stdin.send(frames);
  }

  /**
   * The kernel's stderr once it holds `text`, or as it is after `timeoutMs`: its pipe is read apart
   * from ZeroMQ, so a line the kernel logged before a reply may reach this process after the reply.
   */
  async stderrHolding(text: string, timeoutMs = 5000): Promise<string> {
    const stream = this.process.stderr;
    if (this.stderr.includes(text) || !stream) {
      return this.stderr;
    }
    await new Promise<void>(resolve => {
      const done = () => {
        clearTimeout(timer);
        stream.off('data', check);
        resolve();
      };
      // Registered after the collecting listener, so this.stderr already holds the chunk.
      const check = () => this.stderr.includes(text) && done();
      const timer = setTimeout(done, timeoutMs);
      stream.on('data', check);
    });
    return this.stderr;
  }

  async heartbeat(timeoutMs = 2000): Promise<boolean> {
    const req = new zmq.Request({ receiveTimeout: timeoutMs });
    const port = (
      JSON.parse(readFileSync(this.connectionFile, 'utf8')) as {
        hb_port: number;
      }
    ).hb_port;
    req.connect(`tcp://127.0.0.1:${port}`);
    try {
      await req.send('ping');
      const [echo] = await req.receive();
      return echo?.toString() === 'ping';
    } catch {
      return false;
    } finally {
      req.close();
    }
  }

  exited(): Promise<number | null> {
    if (this.process.exitCode !== null) {
      return Promise.resolve(this.process.exitCode);
    }
    return new Promise(resolve =>
      this.process.once('exit', code => resolve(code))
    );
  }

  async close(): Promise<void> {
    for (const s of Object.values(this.sockets)) {
      s.close();
    }
    this.iopub.close();
    if (
      this.process &&
      this.process.exitCode === null &&
      this.process.signalCode === null
    ) {
      this.process.kill('SIGKILL');
      await this.exited();
    }
    // The connection file holds the session's HMAC key: nothing of it outlives the kernel.
    if (this.connectionFile) {
      rmSync(dirname(this.connectionFile), { recursive: true, force: true });
    }
  }

  private parse(channel: KernelMessage.Channel, frames: Buffer[]): WireMessage {
    const split = frames.findIndex(f => f.toString() === '<IDS|MSG>');
    const body = frames.slice(split + 2, split + 6);
    if (frames[split + 1]?.toString() !== this.sign(body)) {
      throw new Error('bad signature from kernel');
    }
    const [header, parent_header, metadata, content] = body.map(b =>
      JSON.parse(b.toString())
    );
    return {
      channel,
      header,
      parent_header,
      metadata,
      content,
      contentText: body[3]?.toString(),
      buffers: frames.slice(split + 6)
    };
  }

  private async readReplies(channel: Channel): Promise<void> {
    try {
      for await (const frames of this.sockets[channel]) {
        const message = this.parse(channel, frames);
        if (message.header.msg_type === 'input_request') {
          this.inputRequests.push(message);
        }
        const id = message.parent_header.msg_id;
        const resolve = id ? this.replies.get(id) : undefined;
        if (resolve && id && message.header.msg_type !== 'input_request') {
          this.replies.delete(id);
          resolve(message);
        }
      }
    } catch {
      // closed
    }
  }

  private async readIopub(): Promise<void> {
    try {
      for await (const frames of this.iopub) {
        // What arrives on iopub is what the kernel published: trusted as the protocol's kinds,
        // the assertions reading it fail where it is not.
        this.iopubLog.push(
          this.parse('iopub', frames) as unknown as IopubMessage
        );
        const waiters = this.waiters;
        this.waiters = [];
        for (const w of waiters) {
          w();
        }
      }
    } catch {
      // closed
    }
  }
}
