import * as zmq from 'zeromq';
import { type Channel, type ConnectionInfo, endpoint } from './connection-file';
import { SerialSender } from './serial-sender';

type RequestChannel = 'shell' | 'control' | 'stdin';

/** The kernel's five bound sockets, each with its own serialised sender. */
export class KernelSockets {
  readonly shell = new zmq.Router();
  readonly control = new zmq.Router();
  // Mandatory: an input_request to a frontend that has no stdin socket fails instead of
  // vanishing, so a prompt never waits forever for an answer that cannot come.
  readonly stdin = new zmq.Router({ mandatory: true });
  readonly iopub = new zmq.Publisher();
  private readonly hb = new zmq.Reply();
  private readonly senders: Record<Exclude<Channel, 'hb'>, SerialSender>;

  constructor(private readonly info: ConnectionInfo) {
    this.senders = {
      shell: new SerialSender(f => this.shell.send(f)),
      control: new SerialSender(f => this.control.send(f)),
      stdin: new SerialSender(f => this.stdin.send(f)),
      iopub: new SerialSender(f => this.iopub.send(f))
    };
    for (const socket of [
      this.shell,
      this.control,
      this.stdin,
      this.iopub,
      this.hb
    ]) {
      socket.linger = 1000;
    }
  }

  /**
   * Binds all five or none: a socket that cannot listen closes the others, so a kernel that
   * cannot start exits instead of lingering on half its ports.
   */
  async bind(): Promise<void> {
    const bound = [
      ['shell', this.shell],
      ['control', this.control],
      ['stdin', this.stdin],
      ['iopub', this.iopub],
      ['hb', this.hb]
    ] as const;
    const outcomes = await Promise.allSettled(
      bound.map(([channel, socket]) =>
        socket.bind(endpoint(this.info, channel))
      )
    );
    const failed = outcomes.findIndex(o => o.status === 'rejected');
    if (failed >= 0) {
      for (const [, socket] of bound) {
        socket.close();
      }
      const [channel] = bound[failed] as (typeof bound)[number];
      const reason = (outcomes[failed] as PromiseRejectedResult)
        .reason as Error;
      throw new Error(
        `cannot listen on ${endpoint(this.info, channel)} (${channel}): ${reason.message}`
      );
    }
    void this.echoHeartbeats();
  }

  /** Sends the frames `build` makes once every message queued before on this channel has gone. */
  send(channel: Exclude<Channel, 'hb'>, build: () => Buffer[]): Promise<void> {
    return this.senders[channel].send(build);
  }

  socket(channel: RequestChannel): zmq.Router {
    return this[channel];
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.senders).map(s => s.flush()));
    for (const socket of [
      this.shell,
      this.control,
      this.stdin,
      this.iopub,
      this.hb
    ]) {
      socket.close();
    }
  }

  private async echoHeartbeats(): Promise<void> {
    try {
      for await (const frames of this.hb) {
        await this.hb.send(frames);
      }
    } catch {
      // The socket was closed at shutdown.
    }
  }
}
