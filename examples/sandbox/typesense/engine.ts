/** The state one sandbox instance holds, shared by its route handlers. */
import type { Collection } from './collection';
import { ApiError } from './errors';
import type { KeyStore } from './keys';
import type { Stats } from './metrics';
import type { ResultCache } from './search';
import type { EngineVersion, Features } from './version';

export interface Engine {
  version: EngineVersion;
  feat: Features;
  keys: KeyStore;
  /** In creation order; listings reverse it. */
  collections: Map<string, Collection>;
  stats: Stats;
  cache: ResultCache;
  maxPerPage: number;
  ready: boolean;
}

/** The document, import and export endpoints' text for a missing collection. */
export function documentsCollection(engine: Engine, name: string): Collection {
  const c = engine.collections.get(name);
  if (!c) throw new ApiError(404, engine.feat.collectionNotFoundText ?? 'Not Found');
  return c;
}

/** The search endpoints' text for a missing collection. */
export function searchCollection(engine: Engine, name: string): Collection {
  const c = engine.collections.get(name);
  if (!c) throw new ApiError(404, engine.feat.collectionNotFoundText ?? 'Not found.');
  return c;
}
