/**
 * What the Elasticsearch driver knows about a connection's indices: mappings for grid columns
 * and field completion, cached per connection and dropped when a request changes them, and
 * the listing of indices that completion reads, kept a short while.
 */
import type { ConsoleRequest } from '../../console/cell';
import type { EngineResponse } from '../../engine/capabilities/console';
import type {
  FieldNameOptions,
  TargetListing
} from '../../engine/capabilities/catalog';
import { fieldNamesOf, type FieldTree } from '../../engine/field-tree';
import { NameCache } from '../../engine/name-cache';
import { StructureCache } from '../../engine/structure-cache';
import { listIndices } from './index-listing';
import type { Transport } from '../../engine/http/transport';
import { structureOfMapping } from './mapping';
import { msearchSearches } from './msearch';
import { isStale, mappingChange, searchTarget } from './targets';

export class ElasticsearchStructure {
  private readonly mappings: StructureCache;
  private readonly names: NameCache<TargetListing>;

  constructor(transport: Transport) {
    this.mappings = new StructureCache(async (target, signal) =>
      structureOfMapping(
        await transport.send(
          { method: 'GET', path: `/${target}/_mapping`, query: '' },
          signal
        )
      )
    );
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
