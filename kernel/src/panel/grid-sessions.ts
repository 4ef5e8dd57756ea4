/**
 * The open document grids of one kernel: one session per grid, owning its reader (and so its
 * engine-side cursor). Sessions end when the panel closes the grid, when the comm that opened
 * them closes, and when the kernel stops.
 */
import { randomUUID } from 'node:crypto';
import type { DocumentReader } from '../driver-core/driver';
import type { Column } from '../../../contracts/columns';
import type { GridView } from '../../../contracts/panel-protocol';

export interface GridSession {
  id: string;
  /** The comm that opened it: closing that comm ends the session. */
  commId: string;
  connection: string;
  target: string;
  blockSize: number;
  /** Filters and sort: refresh reads the target again through the same view. */
  view: GridView;
  reader: DocumentReader;
  /** The columns the grid has shown, by name: edits are typed and refused (read-only) by them. */
  columns: Map<string, Column>;
}

/** Ended grids remembered for their reason, for requests that still come for them. */
const KEPT_ENDINGS = 1000;

export class GridSessions {
  private readonly sessions = new Map<string, GridSession>();
  /** Grids the kernel ended itself (their connection was replaced or closed): id → why. */
  private readonly endings = new Map<string, string>();

  add(session: Omit<GridSession, 'id' | 'columns'>): GridSession {
    const full = {
      ...session,
      id: randomUUID(),
      columns: new Map<string, Column>()
    };
    this.sessions.set(full.id, full);
    return full;
  }

  get(id: string): GridSession | undefined {
    return this.sessions.get(id);
  }

  /** Replaces a session's reader (refresh), closing the old one. */
  async replaceReader(
    session: GridSession,
    reader: DocumentReader
  ): Promise<void> {
    const old = session.reader;
    session.reader = reader;
    session.columns.clear();
    await old.close();
  }

  /** Remembers the columns a block showed. */
  noteColumns(session: GridSession, columns: Column[]): void {
    for (const column of columns) {
      session.columns.set(column.name, column);
    }
  }

  async close(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) {
      return this.endings.delete(id);
    }
    this.sessions.delete(id);
    await session.reader.close();
    return true;
  }

  /**
   * Ends the grids read through a connection that is gone, remembering why; `released` settles
   * once their cursors are released, as far as the engine still answers.
   */
  end(
    connection: string,
    reason: string
  ): { ended: GridSession[]; released: Promise<void> } {
    const ended = [...this.sessions.values()].filter(
      s => s.connection === connection
    );
    for (const session of ended) {
      this.sessions.delete(session.id);
      this.endings.set(session.id, reason);
    }
    for (const id of this.endings.keys()) {
      if (this.endings.size <= KEPT_ENDINGS) {
        break;
      }
      this.endings.delete(id);
    }
    const released = Promise.allSettled(ended.map(s => s.reader.close())).then(
      () => undefined
    );
    return { ended, released };
  }

  /** Why the kernel ended this grid, if it did. */
  ending(id: string): string | undefined {
    return this.endings.get(id);
  }

  async closeComm(commId: string): Promise<void> {
    await Promise.all(
      [...this.sessions.values()]
        .filter(s => s.commId === commId)
        .map(s => this.close(s.id))
    );
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map(id => this.close(id)));
  }
}
