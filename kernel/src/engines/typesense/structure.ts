/**
 * What the Typesense driver knows about a connection's collections: schemas for grid columns
 * and field completion, cached per connection and dropped when a request changes them
 * (collection create, patch or delete; document writes, which teach auto-schema collections
 * new fields; alias changes), and collection and alias names for completion.
 */
import { z } from 'zod';
import type { ConsoleRequest } from '../../console/cell';
import type { EngineResponse } from '../../engine/driver';
import { type FieldNameOptions, fieldNamesOf, type FieldTree } from '../../engine/field-tree';
import { NameCache } from '../../engine/name-cache';
import { StructureCache, StructureUnavailable } from '../../engine/structure-cache';
import type { Transport } from '../../engine/http/transport';
import { structureOfCollection } from './schema';
import { documentsEndpoint, eachSearch, schemaChange } from './targets';

const CollectionNames = z.array(z.object({ name: z.string() }).loose());
const AliasNames = z.object({ aliases: z.array(z.object({ name: z.string() }).loose()) }).loose();

export class TypesenseStructure {
  private readonly schemas: StructureCache;
  private readonly names: NameCache;

  constructor(private readonly transport: Transport) {
    this.schemas = new StructureCache(async (collection, signal) =>
      structureOfCollection(await transport.send({ method: 'GET', path: `/collections/${collection}`, query: '' }, signal)),
    );
    this.names = new NameCache((signal) => this.loadNames(signal));
  }

  /** Called with every request sent: drops the schemas and names it may have changed. */
  noteRequest(request: ConsoleRequest): void {
    const change = schemaChange(request);
    if (change.kind === 'none') return;
    if (change.kind === 'all') {
      this.names.clear();
      this.schemas.clear();
      return;
    }
    if (change.listChanged) this.names.clear();
    const names = change.names.map(decoded);
    this.schemas.invalidate((target, members) => names.includes(decoded(target)) || names.some((n) => members.includes(n)));
  }

  /** Makes sure the schema of a documents answer is cached; never fails (a scoped key may not read it). */
  async prepare(request: ConsoleRequest, response: EngineResponse, signal: AbortSignal): Promise<void> {
    if (response.status >= 300) return;
    // A multi_search of several searches needs the schema of each search's collection.
    const collections = [request, ...eachSearch(request)].flatMap((r) => documentsEndpoint(r)?.collection ?? []);
    await Promise.all([...new Set(collections)].map((collection) => this.schemas.get(collection, signal)));
  }

  treeFor(request: ConsoleRequest): FieldTree | undefined {
    const endpoint = documentsEndpoint(request);
    return endpoint ? this.schemas.peek(endpoint.collection)?.tree : undefined;
  }

  /** The schema of a collection (or alias) by name; undefined when the key may not read it. */
  async tree(collection: string, signal: AbortSignal): Promise<FieldTree | undefined> {
    return (await this.schemas.get(asSegment(collection), signal))?.tree;
  }

  /** `collection` as a path segment, or as a body names it (completion inside multi_search). */
  async fieldNames(collection: string, signal: AbortSignal, options?: FieldNameOptions): Promise<string[]> {
    const structure = await this.schemas.get(asSegment(collection), signal);
    return structure ? fieldNamesOf(structure.tree, '', options) : [];
  }

  targetNames(signal: AbortSignal): Promise<string[]> {
    return this.names.get(signal);
  }

  private async loadNames(signal: AbortSignal): Promise<string[]> {
    const [collections, aliases] = await Promise.all([
      this.transport.send({ method: 'GET', path: '/collections', query: '' }, signal),
      this.transport.send({ method: 'GET', path: '/aliases', query: '' }, signal),
    ]);
    const listed = CollectionNames.safeParse(collections.status < 300 && collections.body.kind === 'json' ? collections.body.value : undefined);
    if (!listed.success) throw new StructureUnavailable(`GET /collections answered ${collections.status}`);
    // A key without aliases:list still completes collection names.
    const aliased = AliasNames.safeParse(aliases.status < 300 && aliases.body.kind === 'json' ? aliases.body.value : undefined);
    const names = [...listed.data.map((c) => c.name), ...(aliased.success ? aliased.data.aliases.map((a) => a.name) : [])];
    return [...new Set(names)].sort();
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
