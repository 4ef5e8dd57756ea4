import type { Connection } from './open-connection';

/**
 * Told when a connection ends: replaced by one of the same name (`%connect` again), or closed
 * (`by` undefined). What it returns is awaited before the connection's driver closes.
 */
export type ConnectionEnded = (
  ended: Connection,
  by: Connection | undefined
) => Promise<void> | void;

/** The connections open in this kernel, and which one cells use. */
export class ConnectionRegistry {
  private readonly open = new Map<string, Connection>();
  private activeName: string | undefined;
  private readonly endedListeners = new Set<ConnectionEnded>();

  add(connection: Connection): void {
    const previous = this.open.get(connection.name);
    this.open.set(connection.name, connection);
    this.activeName = connection.name;
    if (previous && previous !== connection) {
      // Its driver closes after the listeners are done, so what was read through it can still be released.
      void this.ended(previous, connection)
        .then(() => previous.driver.close())
        .catch(() => undefined);
    }
  }

  /** Calls `listener` for every connection that ends from now on; returns how to stop. */
  onEnded(listener: ConnectionEnded): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  /** Whether this very connection (not just its name) is still open. */
  isOpen(connection: Connection): boolean {
    return this.open.get(connection.name) === connection;
  }

  use(name: string): Connection {
    const connection = this.named(name);
    this.activeName = name;
    return connection;
  }

  /** The open connection of that name; an error naming the open ones when there is none. */
  named(name: string): Connection {
    const connection = this.open.get(name);
    if (!connection) {
      const names = [...this.open.keys()];
      throw new Error(
        `No open connection is named "${name}". ${names.length ? `Open: ${names.join(', ')}.` : 'Open one with %connect.'}`
      );
    }
    return connection;
  }

  get active(): Connection | undefined {
    return this.activeName === undefined
      ? undefined
      : this.open.get(this.activeName);
  }

  list(): Connection[] {
    return [...this.open.values()];
  }

  async closeAll(): Promise<void> {
    const closing = [...this.open.values()];
    this.open.clear();
    await Promise.all(
      closing.map(async c => {
        await this.ended(c, undefined);
        await c.driver.close();
      })
    );
  }

  private async ended(
    connection: Connection,
    by: Connection | undefined
  ): Promise<void> {
    await Promise.allSettled(
      [...this.endedListeners].map(async listener => listener(connection, by))
    );
  }
}
