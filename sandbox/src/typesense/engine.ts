/** The state one sandbox instance holds, shared by its route handlers. */
import type { Collection } from './collection';
import type { CurationSet } from './curation';
import { ApiError } from './errors';
import type { KeyStore } from './keys';
import type { Stats } from './metrics';
import type { ResultCache } from './search';
import type { StopwordSet } from './stopwords';
import type { SynonymSet } from './synonyms';
import type { EngineVersion, Features } from './version';

export interface Engine {
  version: EngineVersion;
  feat: Features;
  keys: KeyStore;
  /** In creation order; listings reverse it. */
  collections: Map<string, Collection>;
  /** Alias name → collection name; the target need not exist (the engine does not check). */
  aliases: Map<string, string>;
  /** Preset name → its stored value (an object of search parameters, or `{searches: [...]}`). */
  presets: Map<string, unknown>;
  stopwords: Map<string, StopwordSet>;
  /** 30: global synonym and curation sets, attached to collections by name. */
  synonymSets: Map<string, SynonymSet>;
  curationSets: Map<string, CurationSet>;
  stats: Stats;
  cache: ResultCache;
  maxPerPage: number;
  ready: boolean;
}

/**
 * A collection by its name, or through an alias. A real collection's name wins over an alias
 * of the same name, as in the engine.
 */
export function findCollection(
  engine: Engine,
  name: string
): Collection | undefined {
  const direct = engine.collections.get(name);
  if (direct) {
    return direct;
  }
  const target = engine.aliases.get(name);
  return target === undefined ? undefined : engine.collections.get(target);
}

/** The document, import and export endpoints' text for a missing collection. */
export function documentsCollection(engine: Engine, name: string): Collection {
  const c = findCollection(engine, name);
  if (!c) {
    throw new ApiError(404, engine.feat.collectionNotFoundText ?? 'Not Found');
  }
  return c;
}

/** The search endpoints' text for a missing collection. */
export function searchCollection(engine: Engine, name: string): Collection {
  const c = findCollection(engine, name);
  if (!c) {
    throw new ApiError(404, engine.feat.collectionNotFoundText ?? 'Not found.');
  }
  return c;
}
