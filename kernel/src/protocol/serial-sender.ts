/**
 * zeromq 6 throws "Socket is busy writing" when a send starts before the previous one has
 * finished, so every send on a socket goes through one promise chain.
 */
export class SerialSender {
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly sendFrames: (frames: Buffer[]) => Promise<void>
  ) {}

  /**
   * Queues a message built by `frames` when its turn comes, not now: a cell's busy and
   * execute_input are then signed while its request is already on its way to the engine.
   */
  send(frames: () => Buffer[]): Promise<void> {
    const next = this.tail.then(() => this.sendFrames(frames()));
    // A failed send must not wedge the chain for every later message.
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves once everything queued so far has been handed to zeromq. */
  flush(): Promise<void> {
    return this.tail;
  }
}
