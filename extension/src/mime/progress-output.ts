import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import {
  PROGRESS_MIME,
  ProgressPayloadSchema
} from '@searchbook/contracts/mime-types';
import { button } from './toolbar';

/** Bubbles from the stop control to the plugin that owns the kernel (see ../cells/kernel-actions.ts). */
export const STOP_EVENT = 'searchbook-stop';

/**
 * A request still waiting: what it waits for, the time it has waited (the kernel updates this
 * output in place each second), and a Stop button that interrupts the kernel.
 */
export class ProgressOutput extends Widget implements IRenderMime.IRenderer {
  constructor() {
    super();
    this.addClass('searchbook-Progress');
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const parsed = ProgressPayloadSchema.safeParse(model.data[PROGRESS_MIME]);
    const plain = model.data['text/plain'];
    // A re-render for the next second keeps the button, so a click in between is not lost.
    let line = this.node.querySelector<HTMLElement>(
      '.searchbook-Progress-line'
    );
    if (!line) {
      line = document.createElement('span');
      line.className = 'searchbook-Progress-line';
      line.setAttribute('role', 'status');
      this.node.append(line);
    }
    if (!parsed.success) {
      line.textContent = typeof plain === 'string' ? plain : '';
      return;
    }
    line.textContent = `${parsed.data.waitingFor} · ${Math.round(parsed.data.elapsedMs / 1000)} s`;
    if (parsed.data.stoppable && !this.node.querySelector('button')) {
      this.node.append(this.stopButton());
    }
  }

  private stopButton(): HTMLButtonElement {
    const stop = button(
      'Stop',
      'Interrupt the kernel: the request in flight is aborted',
      b => {
        b.disabled = true;
        b.textContent = 'Stopping…';
        b.dispatchEvent(new CustomEvent(STOP_EVENT, { bubbles: true }));
      }
    );
    stop.classList.add('searchbook-Progress-stop');
    return stop;
  }
}
