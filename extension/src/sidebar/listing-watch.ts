import type { Kernel, KernelMessage } from '@jupyterlab/services';
import { mayChangeListing } from './listing-changes';

/** A run of cells (Run All) ends in one listing, not one per cell. */
const RELOAD_DELAY_MS = 200;

/**
 * Watches the followed kernel for what may change its listing: a cell that may change it
 * (`mayChangeListing`: magics, requests other than GET and HEAD, seen on iopub, so cells run
 * from any page count) once its kernel is idle again, and a restart once the kernel is idle.
 * Asks for one reload after a run of them.
 */
export class ListingWatch {
  private kernel: Kernel.IKernelConnection | null = null;
  /** Executions (by request id) whose cell may change the listing, until they finish. */
  private readonly listingCells = new Set<string>();
  private restarted = false;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly reload: () => void) {}

  /** The kernel watched now: the one whose connections are listed (null: none). */
  get watched(): Kernel.IKernelConnection | null {
    return this.kernel;
  }

  listen(kernel: Kernel.IKernelConnection | null): void {
    if (this.kernel === kernel) {
      return;
    }
    this.kernel?.iopubMessage.disconnect(this.onIopub, this);
    this.kernel?.statusChanged.disconnect(this.onStatus, this);
    this.listingCells.clear();
    this.restarted = false;
    this.kernel = kernel;
    kernel?.iopubMessage.connect(this.onIopub, this);
    kernel?.statusChanged.connect(this.onStatus, this);
  }

  /** A listing is read now: a reload still scheduled is not needed. */
  cancel(): void {
    clearTimeout(this.reloadTimer);
  }

  /** A cell that may change the listing started; when its kernel is idle again, the listing is read again. */
  private onIopub(
    _: Kernel.IKernelConnection,
    msg: KernelMessage.IIOPubMessage
  ): void {
    const parent = (msg.parent_header as Partial<KernelMessage.IHeader>).msg_id;
    if (parent === undefined) {
      return;
    }
    if (msg.header.msg_type === 'execute_input') {
      if (
        mayChangeListing(String((msg.content as { code?: unknown }).code ?? ''))
      ) {
        this.listingCells.add(parent);
      }
    } else if (
      msg.header.msg_type === 'status' &&
      (msg.content as { execution_state?: unknown }).execution_state ===
        'idle' &&
      this.listingCells.delete(parent)
    ) {
      this.scheduleReload();
    }
  }

  /** A restart forgets the kernel's connections: listed again once it is idle. */
  private onStatus(_: Kernel.IKernelConnection, status: Kernel.Status): void {
    if (status === 'restarting' || status === 'autorestarting') {
      this.restarted = true;
      this.listingCells.clear();
    } else if (status === 'idle' && this.restarted) {
      this.restarted = false;
      this.scheduleReload();
    }
  }

  private scheduleReload(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => this.reload(), RELOAD_DELAY_MS);
  }
}
