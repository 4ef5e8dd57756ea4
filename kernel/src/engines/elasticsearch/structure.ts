/**
 * What the Elasticsearch driver knows about a connection's indices: mappings for grid columns
 * and field completion, cached per connection and dropped when a request changes them, and
 * the listing of indices that completion reads, kept a short while.
 */
import type { ConsoleRequest } from '../../console/cell';
import type { EngineResponse } from '../../driver-core/capabilities/console';
import type {
  FieldNameOptions,
  TargetListing
} from '../../driver-core/capabilities/catalog';
import { fieldNamesOf, type FieldTree } from '../../driver-core/field-tree';
import { NameCache } from '../../driver-core/name-cache';
import { StructureCache } from '../../driver-core/structure-cache';
import { listIndices } from './index-listing';
import type { Transport } from '../../driver-core/http/transport';
import { structureOfMapping } from './mapping';
import { msearchSearches } from './msearch';
import {
  type IndexStorage,
  readIndexStorage,
  type StorageByIndex,
  syntheticByMapping
} from './index-storage';
import { isStale, mappingChange, searchTarget } from './targets';

export class ElasticsearchStructure {
  private readonly mappings: StructureCache;
  private readonly names: NameCache<TargetListing>;
  /** Per target as mappings are keyed: the indices whose mapping asks for synthetic `_source`, learnt with the mapping. */
  private readonly mappedSynthetic = new Map<string, string[]>();
  /** Per concrete index, for edits: whether it updates in place and keeps sequence numbers. */
  private readonly storage = new Map<string, Promise<IndexStorage>>();

  constructor(private readonly transport: Transport) {
    this.mappings = new StructureCache(async (target, signal) => {
      const response = await transport.send(
        { method: 'GET', path: `/${target}/_mapping`, query: '' },
        signal
      );
      const structure = structureOfMapping(response);
      this.mappedSynthetic.set(
        target,
        response.body.kind === 'json'
          ? syntheticByMapping(response.body.value)
          : []
      );
      return structure;
    });
    this.names = new NameCache(signal =>
      listIndices(transport, signal, { counts: false })
    );
  }

  /** Called with every request sent: drops the mappings and names it may have changed. */
  noteRequest(request: ConsoleRequest): void {
    const change = mappingChange(request);
    if (change.kind === 'none') {
      return;
    }
    this.names.clear();
    // An index deleted and created again under its name may store documents otherwise; its
    // mode is fixed at creation, so document writes (every save) leave what is known.
    const wholeIndex = /^\/[^/]+\/?$/.test(request.path);
    if (change.kind === 'all' || wholeIndex) {
      this.storage.clear();
    }
    if (change.kind === 'all') {
      this.mappings.clear();
    } else {
      this.mappings.invalidate((target, members) =>
        isStale(change, target, members)
      );
    }
  }

  /**
   * Makes sure a search answer's mapping is cached before it is presented. Never fails: an
   * unreadable mapping (403 for a key limited to search) leaves the columns to the documents.
   */
  async prepare(
    request: ConsoleRequest,
    response: EngineResponse,
    signal: AbortSignal
  ): Promise<void> {
    const searches = msearchSearches(request, response);
    if (searches) {
      // One fetch per index however many searches name it: the cache shares a fetch in flight.
      await Promise.all(
        searches.map(search =>
          this.prepare(search.request, search.response, signal)
        )
      );
      return;
    }
    const target = searchTarget(request, response);
    if (target) {
      await this.mappings.get(target, signal);
    }
  }

  /** The cached mapping for a search answer, if prepare() could read one. */
  treeFor(
    request: ConsoleRequest,
    response: EngineResponse
  ): FieldTree | undefined {
    const target = searchTarget(request, response);
    return target ? this.mappings.peek(target)?.tree : undefined;
  }

  /** The mapping of a target as a path segment names it (the union for an alias or pattern); undefined when unreadable. */
  async tree(
    target: string,
    signal: AbortSignal
  ): Promise<FieldTree | undefined> {
    return (await this.mappings.get(target, signal))?.tree;
  }

  /** The indices behind a target whose mapping asks for synthetic `_source` (read with its mapping). */
  async syntheticByMapping(
    target: string,
    signal: AbortSignal
  ): Promise<string[]> {
    return (await this.mappings.get(target, signal))
      ? (this.mappedSynthetic.get(target) ?? [])
      : [];
  }

  /** What a grid read of its indices' settings: its edits go by what it was opened on. */
  rememberStorage(storage: StorageByIndex): void {
    for (const [index, known] of storage) {
      this.storage.set(index, Promise.resolve(known));
    }
  }

  /** How one index stores documents, read once until a request may have replaced the index. */
  indexStorage(index: string, signal: AbortSignal): Promise<IndexStorage> {
    let known = this.storage.get(index);
    if (!known) {
      known = readIndexStorage(this.transport, index, signal);
      this.storage.set(index, known);
      known.catch(() => this.storage.delete(index));
    }
    return known;
  }

  async fieldNames(
    target: string,
    signal: AbortSignal,
    options?: FieldNameOptions
  ): Promise<string[]> {
    const structure = await this.mappings.get(target, signal);
    return structure ? fieldNamesOf(structure.tree, '', options) : [];
  }

  /** The listing completion reads, up to half a minute old; a request that changes it clears it. */
  recentTargets(signal: AbortSignal): Promise<TargetListing> {
    return this.names.get(signal);
  }
}
