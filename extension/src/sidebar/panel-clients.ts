import type { Kernel } from '@jupyterlab/services';
import { PanelClient } from '../panel-client';

/**
 * The panel's comm clients, one per kernel, kept while the kernel lives: closing a comm
 * closes its grids in the kernel, so a grid's tab and the sidebar share one.
 */
export class PanelClients {
  private readonly clients = new Map<Kernel.IKernelConnection, PanelClient>();

  of(kernel: Kernel.IKernelConnection): PanelClient {
    let client = this.clients.get(kernel);
    if (!client || client.isClosed) {
      client = new PanelClient(kernel);
      this.clients.set(kernel, client);
      kernel.disposed.connect(() => this.clients.delete(kernel));
    }
    return client;
  }
}
