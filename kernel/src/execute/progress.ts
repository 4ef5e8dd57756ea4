/**
 * An output that says what a cell is waiting for and for how long, updated in place while it
 * waits, then replaced by the answer. It appears only after a short delay, so quick requests
 * show their answer alone.
 */
import { randomUUID } from 'node:crypto';
import type { MimeBundle } from '../render/bundle';
import {
  PROGRESS_MIME,
  type ProgressPayload
} from '../../../contracts/mime-types';
import type { OutputSink } from './output-sink';

export interface ProgressOptions {
  /** Wait before showing anything. */
  delayMs?: number;
  /** Between updates of the elapsed time. */
  everyMs?: number;
}

/** The progress output: the waiting line for the extension, plain text for every other frontend. */
export function progressBundle(payload: ProgressPayload): MimeBundle {
  // Rounded, not floored: a timer may fire a fraction of a millisecond before its second is up.
  const seconds = Math.round(payload.elapsedMs / 1000);
  const stop = payload.stoppable
    ? ' (interrupt the kernel, ■, to stop it)'
    : '';
  return {
    [PROGRESS_MIME]: payload,
    'text/plain': `${payload.waitingFor}: ${seconds} s${stop}`
  };
}

export class Progress {
  private readonly displayId = randomUUID();
  private readonly started = performance.now();
  private shown = false;
  /** Finished, failed or stopped: later calls change nothing. */
  private ended = false;
  /** Every publish goes through this chain, so the final output lands after the last update. */
  private chain: Promise<void> = Promise.resolve();
  private readonly delay: NodeJS.Timeout;
  private interval: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: OutputSink,
    private readonly payload: Omit<ProgressPayload, 'elapsedMs'>,
    { delayMs = 1_000, everyMs = 1_000 }: ProgressOptions = {}
  ) {
    this.delay = setTimeout(() => {
      this.publish(() => this.sink.display(this.bundle(), this.displayId));
      this.shown = true;
      this.interval = setInterval(
        () =>
          this.publish(() => this.sink.update(this.displayId, this.bundle())),
        everyMs
      );
    }, delayMs);
  }

  /** Stops the clock; the answer replaces the waiting line, or is shown on its own when none was shown. */
  async finish(answer: MimeBundle): Promise<void> {
    if (this.ended) {
      return;
    }
    this.stop();
    this.publish(() =>
      this.shown
        ? this.sink.update(this.displayId, answer)
        : this.sink.display(answer)
    );
    await this.chain;
  }

  /** Stops the clock after a failure: the waiting line says how long it waited. Nothing once the answer replaced it. */
  async fail(outcome: string): Promise<void> {
    if (this.ended) {
      return;
    }
    this.stop();
    if (this.shown) {
      const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
      this.publish(() =>
        this.sink.update(this.displayId, {
          'text/plain': `${this.payload.waitingFor}: ${outcome} after ${seconds} s`
        })
      );
    }
    await this.chain;
  }

  /** Stops the clock without a last word; callers end every path with it, so no line ticks on. */
  stop(): void {
    this.ended = true;
    clearTimeout(this.delay);
    clearInterval(this.interval);
  }

  private bundle(): MimeBundle {
    return progressBundle({
      ...this.payload,
      elapsedMs: performance.now() - this.started
    });
  }

  private publish(send: () => Promise<void>): void {
    this.chain = this.chain.then(send).catch(() => undefined);
  }
}
