import type {
  ConnectionInfo,
  ProfileInfo,
  TargetInfo
} from '@searchbook/contracts/panel-protocol';
import type { PanelClient } from '../panel-client';

/** One connection of the tree: its indices or collections as last listed. */
export interface ConnectionNode {
  connection: ConnectionInfo;
  targets: TargetInfo[];
  /** Why the list is empty or partial, or why it could not be read. */
  note?: string;
  loading: boolean;
}

/** The saved profiles the panel's own kernel can open, or why none are listed. */
export interface ProfilesListing {
  profiles: ProfileInfo[];
  problem?: string;
}

/** What of the listing changed, so the view redraws only that. */
export type ListingPart =
  | 'listing'
  | 'profiles'
  /** Listed again because the servers may have changed: what else the panel shows of them is read again too. */
  | 'reread';

/**
 * The connections of one kernel, their indices or collections, and (the panel's own kernel)
 * the saved profiles, as last read through the panel's comm. A reading started later wins
 * over one still under way.
 */
export class ConnectionListing {
  connections: ConnectionInfo[] = [];
  /** The tree's connections as last listed, whose counts a save reads again. */
  nodes: ConnectionNode[] = [];
  /** Listed only for the panel's own kernel. */
  profiles: ProfilesListing | undefined;
  private generation = 0;

  constructor(private readonly changed: (part: ListingPart) => void) {}

  /** Forgets the profiles (the kernel listed is no longer the panel's own, or now is). */
  dropProfiles(): void {
    this.profiles = undefined;
    this.changed('profiles');
  }

  /** Reads the listing; rejects with the kernel's reason unless a later reading started. */
  async read(client: PanelClient, withProfiles: boolean): Promise<void> {
    const generation = ++this.generation;
    try {
      const { connections } = await client.request(
        { type: 'connections' },
        'connections'
      );
      if (generation !== this.generation) {
        return;
      }
      this.connections = connections;
      const nodes: ConnectionNode[] = connections.map(connection => ({
        connection,
        targets: [],
        loading: true
      }));
      this.nodes = nodes;
      this.changed('listing');
      this.changed('reread');
      await Promise.all(
        nodes.map(async node => {
          try {
            const listing = await client.request(
              { type: 'targets', connection: node.connection.name },
              'targets'
            );
            node.targets = listing.targets;
            if (listing.note) {
              node.note = listing.note;
            }
          } catch (err) {
            node.note = (err as Error).message;
          }
          node.loading = false;
          if (generation === this.generation) {
            this.changed('listing');
          }
        })
      );
      if (withProfiles && generation === this.generation) {
        await this.readProfiles(client, generation);
      }
    } catch (err) {
      if (generation === this.generation) {
        throw err;
      }
    }
  }

  /**
   * Reads the counts of one connection's indices or collections again (what a search finds
   * now). Rejects with the kernel's reason; does nothing while the connection is being listed.
   */
  async recount(client: PanelClient, connection: string): Promise<void> {
    const node = this.nodes.find(n => n.connection.name === connection);
    if (!node || node.loading) {
      return;
    }
    const nodes = this.nodes;
    const listing = await client.request(
      { type: 'targets', connection },
      'targets'
    );
    if (nodes !== this.nodes) {
      return;
    }
    node.targets = listing.targets;
    this.changed('listing');
  }

  private async readProfiles(
    client: PanelClient,
    generation: number
  ): Promise<void> {
    const reply = await client.request({ type: 'profiles' }, 'profiles');
    if (generation !== this.generation) {
      return;
    }
    this.profiles = {
      profiles: reply.profiles,
      ...(reply.problem !== undefined ? { problem: reply.problem } : {})
    };
    this.changed('profiles');
  }
}
