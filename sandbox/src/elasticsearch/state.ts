/**
 * Everything the node holds: indices, API keys, points in time and tasks. Handlers receive
 * it through the Context so that tests can inspect it.
 */
import { randomBytes } from 'node:crypto';
import type { JsonObject } from './json-value';
import type { ApiKeyRecord } from './principal';
import { IndexData, newUuid } from './index-data';
import type { StoredDoc } from './stored-doc';
import { Mapping } from './mapping';
import { RankedCache } from './search/ranked-cache';
import type { EsVersion } from './version';
import type { SearchRequest } from './search/request';

export interface PitRecord {
  contextId: number;
  /** Snapshots of each index's searchable view at open time. */
  shards: { index: IndexData; docs: StoredDoc[] }[];
  expiresAt: number;
  /** Set for a scroll: the search it pages through and the offset of its next page. */
  scroll?: { request: SearchRequest; next: number };
}

export interface TaskRecord {
  node: string;
  id: number;
  action: string;
  description: string;
  startedAt: number;
  status: JsonObject;
  completed: boolean;
  response?: JsonObject;
  error?: JsonObject;
}

export class ClusterState {
  readonly indices = new Map<string, IndexData>();
  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly pits = new Map<string, PitRecord>();
  readonly tasks = new Map<string, TaskRecord>();
  /** Ranked hits of recent searches, so that paging through one does not rank it again per page. */
  readonly rankedCache = new RankedCache();
  readonly clusterUuid = newUuid();
  readonly nodeId = randomBytes(16).toString('base64url').slice(0, 22);
  /** Counters behind `_nodes/stats` (indices.search.query_total, indices.indexing.index_total). */
  queryTotal = 0;
  indexTotal = 0;
  private nextContextId = 1;
  private nextTaskId = 1000;

  constructor(readonly version: EsVersion) {}

  createIndex(
    name: string,
    mappings?: JsonObject,
    settings: Record<string, string> = {}
  ): IndexData {
    const mapping = new Mapping(
      mappings,
      this.version.major === 7 ||
        (this.version.major === 8 && this.version.minor < 8)
    );
    const index = new IndexData(name, mapping, settings);
    this.indices.set(name, index);
    return index;
  }

  newContextId(): number {
    return this.nextContextId++;
  }

  newTaskId(): number {
    return this.nextTaskId++;
  }

  /** Drops expired points in time; called on each PIT operation rather than by a timer. */
  sweepPits(now = Date.now()): void {
    for (const [id, pit] of this.pits) {
      if (pit.expiresAt <= now) {
        this.pits.delete(id);
      }
    }
  }
}
