/**
 * The resources capability, optional: named things beside documents that searches use (aliases,
 * synonyms, curation, presets, stopwords) and a collection's schema, listed and changed from the
 * side panel. Exists because engines keep different resources, or none the panel manages.
 */
import type {
  CollectionSchemaView,
  PlannedRequest,
  ResourceChange,
  ResourceEntry,
  ResourceKindInfo,
  ResourceTarget
} from '../../../../contracts/resource-protocol';

export interface ResourceAdmin {
  /** The kinds this server has, and those its version lacks with what brings them. */
  kinds(signal: AbortSignal): Promise<ResourceKindInfo[]>;
  list(target: ResourceTarget, signal: AbortSignal): Promise<ResourceEntry[]>;
  /** The request a change sends; throws, saying what to write instead, when it is refused. */
  plan(change: ResourceChange, signal: AbortSignal): Promise<PlannedRequest>;
  apply(
    change: ResourceChange,
    signal: AbortSignal
  ): Promise<{ request: PlannedRequest; answer: unknown }>;
  schema(
    collection: string,
    signal: AbortSignal
  ): Promise<CollectionSchemaView>;
}
