/**
 * What the Typesense driver knows about a connection's collections: schemas for grid columns
 * and field completion, cached per connection and dropped when a request changes them
 * (collection create, patch or delete; document writes, which teach auto-schema collections
 * new fields; alias changes), and the listing of collections that completion reads, kept a short while.
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
import { listCollections } from './collection-listing';
import type { Transport } from '../../driver-core/http/transport';
import { structureOfCollection } from './schema';
import { documentsEndpoint, eachSearch, schemaChange } from './targets';

export class TypesenseStructure {
  private readonly schemas: StructureCache;
  private readonly names: NameCache<TargetListing>;

  constructor(transport: Transport) {
    this.schemas = new StructureCache(async (collection, signal) =>
      structureOfCollection(
        await transport.send(
          { method: 'GET', path: `/collections/${collection}`, query: '' },
          signal
        )
      )
    );
    this.names = new NameCache(signal => listCollections(transport, signal));
  }

  /** Called with every request sent: drops the schemas and names it may have changed. */
  noteRequest(request: ConsoleRequest): void {
    const change = schemaChange(request);
    if (change.kind === 'none') {
      return;
    }
    if (change.kind === 'all') {
      this.names.clear();
      this.schemas.clear();
      return;
    }
    if (change.listChanged) {
      this.names.clear();
    }
    const names = change.names.map(decoded);
    this.schemas.invalidate(
      (target, members) =>
        names.includes(decoded(target)) || names.some(n => members.includes(n))
    );
  }

  /** Makes sure the schema of a documents answer is cached; never fails (a scoped key may not read it). */
  async prepare(
    request: ConsoleRequest,
    response: EngineResponse,
    signal: AbortSignal
  ): Promise<void> {
    if (response.status >= 300) {
      return;
    }
    // A multi_search of several searches needs the schema of each search's collection.
    const collections = [request, ...eachSearch(request)].flatMap(
      r => documentsEndpoint(r)?.collection ?? []
    );
    await Promise.all(
      [...new Set(collections)].map(collection =>
        this.schemas.get(collection, signal)
      )
    );
  }

  treeFor(request: ConsoleRequest): FieldTree | undefined {
    const endpoint = documentsEndpoint(request);
    return endpoint ? this.schemas.peek(endpoint.collection)?.tree : undefined;
  }

  /** The schema of a collection (or alias) by name; undefined when the key may not read it. */
  async tree(
    collection: string,
    signal: AbortSignal
  ): Promise<FieldTree | undefined> {
    return (await this.schemas.get(asSegment(collection), signal))?.tree;
  }

  /** `collection` as a path segment, or as a body names it (completion inside multi_search). */
  async fieldNames(
    collection: string,
    signal: AbortSignal,
    options?: FieldNameOptions
  ): Promise<string[]> {
    const structure = await this.schemas.get(asSegment(collection), signal);
    return structure ? fieldNamesOf(structure.tree, '', options) : [];
  }

  /** The listing completion reads, up to half a minute old; a request that changes it clears it. */
  recentTargets(signal: AbortSignal): Promise<TargetListing> {
    return this.names.get(signal);
  }
}

/** A name already percent-encoded (from a path) stays as it is; a plain one (from a body) is encoded. */
function asSegment(name: string): string {
  return /%[0-9A-Fa-f]{2}/.test(name) ? name : encodeURIComponent(name);
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
