/** One open comm as its target's handler sees it. */
export interface Comm {
  readonly id: string;
  readonly targetName: string;
  send(data: Record<string, unknown>): Promise<void>;
  close(data?: Record<string, unknown>): Promise<void>;
}

export interface CommHandler {
  /** Called once the comm is registered, so what it sends or a close it asks for finds the comm open. */
  onOpen?(comm: Comm): Promise<void>;
  /** `comm` answers with this message as parent, so the frontend can pair reply and request. */
  onMessage(data: Record<string, unknown>, comm: Comm): Promise<void>;
  onClose?(): void;
}

export type CommTarget = (
  comm: Comm,
  openData: Record<string, unknown>
) => CommHandler;

/** Comm targets by name, and the comms opened on them. */
export class CommRegistry {
  private readonly targets = new Map<string, CommTarget>();
  private readonly open = new Map<
    string,
    { comm: Comm; handler: CommHandler }
  >();

  register(name: string, target: CommTarget): void {
    this.targets.set(name, target);
  }

  target(name: string): CommTarget | undefined {
    return this.targets.get(name);
  }

  add(comm: Comm, handler: CommHandler): void {
    this.open.set(comm.id, { comm, handler });
  }

  get(id: string): { comm: Comm; handler: CommHandler } | undefined {
    return this.open.get(id);
  }

  remove(id: string): void {
    const entry = this.open.get(id);
    this.open.delete(id);
    entry?.handler.onClose?.();
  }

  list(targetName?: string): Record<string, { target_name: string }> {
    const comms: Record<string, { target_name: string }> = {};
    for (const [id, { comm }] of this.open) {
      if (targetName === undefined || comm.targetName === targetName) {
        comms[id] = { target_name: comm.targetName };
      }
    }
    return comms;
  }
}
