/**
 * One index: its documents (real-time for GET), the searchable view (refreshed like ES:
 * on request, or once the refresh interval has passed), mapping, settings and aliases.
 */
import { randomBytes } from 'node:crypto';
import type { JsonObject } from './json-value';
import { KnownJson } from './long-json';
import type { StoredDoc } from './stored-doc';
import { type Mapping } from './mapping';
import { FieldIndexes } from './search/field-indexes';
import { pathValues } from './search/values';
import { storedSource } from './index-modes';

/** An index and the documents one search sees of it (a refreshed view, a point in time or a slice of either). */
export interface Shard {
  index: IndexData;
  docs: StoredDoc[];
}

export interface AliasProps {
  is_write_index?: boolean;
  is_hidden?: boolean;
  filter?: JsonObject;
}

export function newUuid(): string {
  return randomBytes(16).toString('base64url').slice(0, 22);
}

export class IndexData {
  readonly uuid = newUuid();
  readonly creationDate = Date.now();
  readonly docs = new Map<string, StoredDoc>();
  readonly aliases = new Map<string, AliasProps>();
  /** Settings under `index.` other than the fixed ones, as ES prints them (strings). */
  readonly settings: Record<string, string> = {};
  /** Token indexes of the text fields and doc-values columns, brought up to date by each refresh. */
  readonly fieldIndexes = new FieldIndexes();
  /** Versions of deleted ids: ES keeps them a while (index.gc_deletes), so a later write or delete of the id counts on from them. */
  private readonly tombstones = new Map<string, number>();
  deletedDocs = 0;
  storeBytes = 0;
  private nextSeqNo = 0;
  private view: StoredDoc[] = [];
  private dirty = false;
  private dirtySince = 0;

  constructor(
    readonly name: string,
    readonly mapping: Mapping,
    settings: Record<string, string>
  ) {
    Object.assign(this.settings, settings);
  }

  get hidden(): boolean {
    return this.name.startsWith('.') || this.settings['hidden'] === 'true';
  }

  /** Replica copies asked for: never assigned on a one-node cluster, so any makes the index yellow. */
  get replicas(): number {
    const v = Number(this.settings['number_of_replicas'] ?? 1);
    return Number.isInteger(v) && v >= 0 ? v : 1;
  }

  get health(): 'green' | 'yellow' {
    return this.replicas > 0 ? 'yellow' : 'green';
  }

  /** Lucene documents: each document plus one per object of its nested fields, as _cat/indices counts them. */
  luceneDocCount(): number {
    const view = this.searchable();
    const paths = this.mapping.nestedPaths();
    if (paths.length === 0) {
      return view.length;
    }
    let n = view.length;
    for (const doc of view) {
      for (const path of paths) {
        n += pathValues(doc.source, path.split('.')).filter(
          v => typeof v === 'object' && v !== null && !Array.isArray(v)
        ).length;
      }
    }
    return n;
  }

  get maxResultWindow(): number {
    const v = Number(this.settings['max_result_window'] ?? 10000);
    return Number.isFinite(v) ? v : 10000;
  }

  private get refreshIntervalMs(): number {
    const raw = this.settings['refresh_interval'] ?? '1s';
    if (raw === '-1') {
      return Infinity;
    }
    const m = /^(\d+)(ms|s|m)?$/.exec(raw);
    if (!m) {
      return 1000;
    }
    const n = Number(m[1]);
    return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
  }

  /**
   * Documents visible to search, in index order (which is sequence-number order: a write
   * appends). Never mutated in place: PITs keep it, and caches key on it.
   */
  searchable(now = Date.now()): StoredDoc[] {
    if (this.dirty && now - this.dirtySince >= this.refreshIntervalMs) {
      this.refresh();
    }
    return this.view;
  }

  refresh(): void {
    if (!this.dirty) {
      return;
    }
    this.view = Array.from(this.docs.values());
    this.dirty = false;
    this.fieldIndexes.refreshed(this.view, this.mapping);
  }

  private touch(): void {
    if (!this.dirty) {
      this.dirty = true;
      this.dirtySince = Date.now();
    }
  }

  get(id: string): StoredDoc | undefined {
    return this.docs.get(id);
  }

  /**
   * Stores a document (mapping must already have accepted it); `sent` is its source's text as
   * the client wrote it, which answers then carry as written.
   */
  put(
    id: string,
    source: JsonObject,
    size?: number,
    sent?: string
  ): { doc: StoredDoc; created: boolean } {
    const old = this.docs.get(id);
    const bytes = size ?? JSON.stringify(source).length;
    const tombstone =
      this.tombstones.size > 0 ? this.tombstones.get(id) : undefined;
    // A synthetic _source is what the engine answers from then on.
    const kept = storedSource(this, source);
    const doc: StoredDoc = {
      id,
      source: kept,
      version: (old?.version ?? tombstone ?? 0) + 1,
      seqNo: this.nextSeqNo++,
      size: bytes,
      // A synthetic _source is printed from its values, as the engine rebuilds it.
      printed:
        sent !== undefined && kept === source
          ? KnownJson.sent(kept, sent)
          : new KnownJson(kept)
    };
    if (tombstone !== undefined) {
      this.tombstones.delete(id);
    }
    this.storeBytes += bytes;
    if (old) {
      // ES appends the new copy and marks the old one deleted: the doc moves to the end.
      this.docs.delete(id);
      this.deletedDocs++;
      this.storeBytes -= old.size;
    }
    this.docs.set(id, doc);
    this.touch();
    return { doc, created: !old };
  }

  remove(id: string): { version: number; seqNo: number } | undefined {
    const old = this.docs.get(id);
    if (!old) {
      return undefined;
    }
    this.docs.delete(id);
    this.storeBytes -= old.size;
    this.deletedDocs++;
    this.touch();
    this.tombstones.set(id, old.version + 1);
    return { version: old.version + 1, seqNo: this.nextSeqNo++ };
  }

  /** Version a delete of a missing id reports (and keeps): one past its tombstone's. */
  deleteMissing(id: string): number {
    const version = (this.tombstones.get(id) ?? 0) + 1;
    this.tombstones.set(id, version);
    return version;
  }

  /** ES also consumes a sequence number for a delete of a missing document. */
  takeSeqNo(): number {
    return this.nextSeqNo++;
  }

  settingsJson(createdVersion: string): JsonObject {
    const index: JsonObject = {
      routing: {
        allocation: { include: { _tier_preference: 'data_content' } }
      },
      number_of_shards: '1',
      provided_name: this.name,
      creation_date: String(this.creationDate),
      number_of_replicas: '1',
      uuid: this.uuid,
      version: { created: createdVersion }
    };
    for (const [k, v] of Object.entries(this.settings)) {
      setDotted(index, k, v);
    }
    return { index };
  }
}

function setDotted(target: JsonObject, dotted: string, value: string): void {
  const parts = dotted.split('.');
  let cur = target;
  for (const p of parts.slice(0, -1)) {
    const next = cur[p];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      cur[p] = {};
    }
    cur = cur[p] as JsonObject;
  }
  cur[parts[parts.length - 1] as string] = value;
}
