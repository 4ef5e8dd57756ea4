/**
 * Ranked hit lists of recent searches, per (snapshots searched, mapping revisions, query,
 * post_filter, min_score, sort). A snapshot never changes (a refresh makes a new one, a PIT
 * keeps its own), so a repeated search, such as the next page, reuses the ranking instead of
 * scoring and sorting every match again. Least recently used entries go first.
 */
import type { Json } from '../json-value';
import type { IndexData } from '../index-data';
import type { StoredDoc } from '../stored-doc';
import type { RankedHits } from './rank';
import type { SortSpec } from './sort';

export interface RankedSearch {
  query: Json | undefined;
  postFilter: Json | undefined;
  minScore?: number;
  sort: SortSpec[];
}

export class RankedCache {
  private readonly entries = new Map<string, RankedHits>();
  /** Keys of recent searches answered without a ranking (a top-k selection), newest last. */
  private readonly asked = new Set<string>();
  private readonly snapshotIds = new WeakMap<StoredDoc[], number>();
  private nextSnapshotId = 1;
  private heldHits = 0;

  /** At most `capacity` searches and `maxHits` hits in all (a hit costs 12 to 30 bytes). */
  constructor(
    private readonly capacity = 8,
    private readonly maxHits = 4_000_000
  ) {}

  /** The key of a search, or undefined when it must not be reused (date math on `now` moves with the clock). */
  keyOf(
    shards: { index: IndexData; docs: StoredDoc[] }[],
    search: RankedSearch
  ): string | undefined {
    const request = JSON.stringify([
      search.query ?? null,
      search.postFilter ?? null,
      search.minScore ?? null,
      search.sort
    ]);
    if (request.includes('now')) {
      return undefined;
    }
    const snapshots = shards.map(
      s =>
        `${s.index.uuid}@${this.snapshotId(s.docs)}r${s.index.mapping.revision}`
    );
    return `${snapshots.join(',')}|${request}`;
  }

  get(key: string): RankedHits | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** Whether the search was asked before; records that it now has been. */
  askedBefore(key: string): boolean {
    const before = this.asked.delete(key);
    this.asked.add(key);
    if (this.asked.size > 8 * this.capacity) {
      this.asked.delete(this.asked.values().next().value as string);
    }
    return before;
  }

  /** Whether a ranking of `hits` hits would be kept. */
  holds(hits: number): boolean {
    return hits <= this.maxHits;
  }

  set(key: string, ranked: RankedHits): void {
    if (ranked.length > this.maxHits) {
      return;
    }
    this.drop(key);
    this.entries.set(key, ranked);
    this.heldHits += ranked.length;
    while (this.entries.size > this.capacity || this.heldHits > this.maxHits) {
      this.drop(this.entries.keys().next().value as string);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) {
      return;
    }
    this.entries.delete(key);
    this.heldHits -= entry.length;
  }

  private snapshotId(docs: StoredDoc[]): number {
    let id = this.snapshotIds.get(docs);
    if (id === undefined) {
      id = this.nextSnapshotId++;
      this.snapshotIds.set(docs, id);
    }
    return id;
  }
}
