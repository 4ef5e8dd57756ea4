import type { Connection } from './open-connection';

/** The connections open in this kernel, and which one cells use. */
export class ConnectionRegistry {
  private readonly open = new Map<string, Connection>();
  private activeName: string | undefined;

  add(connection: Connection): void {
    const previous = this.open.get(connection.name);
    this.open.set(connection.name, connection);
    this.activeName = connection.name;
    if (previous && previous !== connection) void previous.driver.close();
  }

  use(name: string): Connection {
    const connection = this.open.get(name);
    if (!connection) {
      const names = [...this.open.keys()];
      throw new Error(`No open connection is named "${name}". ${names.length ? `Open: ${names.join(', ')}.` : 'Open one with %connect.'}`);
    }
    this.activeName = name;
    return connection;
  }

  get active(): Connection | undefined {
    return this.activeName === undefined ? undefined : this.open.get(this.activeName);
  }

  list(): Connection[] {
    return [...this.open.values()];
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.values()].map((c) => c.driver.close()));
    this.open.clear();
  }
}
