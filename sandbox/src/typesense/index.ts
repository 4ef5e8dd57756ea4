/**
 * An in-memory Typesense (26 to 30) that answers over HTTP as the real engine does, for
 * tests, demos and benchmarks. Put `handler` on a socket with sandbox/src/serve.ts.
 */
import type http from 'node:http';
import { type Collection, type WriteAction } from './collection';
import type { Engine } from './engine';
import { ApiError } from './errors';
import { isPlainObject } from './json';
import { KeyStore } from './keys';
import { Stats } from './metrics';
import { Router } from './router';
import { createHandler } from './handler';
import { createCollection, registerCollections } from './routes/collections';
import { registerDocuments } from './routes/documents';
import { registerImportExport } from './routes/import-export';
import { registerKeys } from './routes/keys';
import { registerOperations } from './routes/operations';
import { registerSearch } from './routes/search';
import { registerAliases } from './routes/aliases';
import { registerCuration } from './routes/curation';
import { registerPresets } from './routes/presets';
import { registerSynonyms } from './routes/synonyms';
import { registerUnavailable } from './routes/unavailable';
import { ResultCache } from './search';
import { features, parseVersion, type EngineVersion } from './version';

export interface TypesenseSandboxOptions {
  /** `26.0` to `30.x`. */
  version: string;
  /** The bootstrap (admin) key. */
  apiKey: string;
  /** 27+ server setting `max-per-page`; 26 always uses 250. */
  maxPerPage?: number;
}

export interface LoadResult {
  loaded: number;
  /** The first few refusals, with the engine's texts. */
  errors: { index: number; status: number; message: string }[];
}

export interface TypesenseSandbox {
  handler: http.RequestListener;
  version: EngineVersion;
  /** Creates a collection as `POST /collections` would; throws on the same refusals. */
  createCollection(schema: Record<string, unknown>): void;
  /** Writes documents without HTTP, through the same validation as import. */
  loadDocuments(
    collection: string,
    docs: Iterable<Record<string, unknown>>,
    action?: WriteAction
  ): LoadResult;
  hasCollection(name: string): boolean;
  /** `false` makes `/health` answer 503 `{"ok":false}`. */
  setReady(ready: boolean): void;
}

export function createTypesenseSandbox(
  opts: TypesenseSandboxOptions
): TypesenseSandbox {
  const version = parseVersion(opts.version);
  const feat = features(version);
  const stats = new Stats();
  const engine: Engine = {
    version,
    feat,
    keys: new KeyStore(opts.apiKey),
    collections: new Map<string, Collection>(),
    aliases: new Map(),
    presets: new Map(),
    stopwords: new Map(),
    synonymSets: new Map(),
    curationSets: new Map(),
    stats,
    cache: new ResultCache(16, hit =>
      hit ? stats.cacheHits++ : stats.cacheMisses++
    ),
    maxPerPage: version.major >= 27 ? (opts.maxPerPage ?? 250) : 250,
    ready: true
  };
  const router = new Router();
  registerOperations(router, engine);
  registerKeys(router, engine);
  registerSearch(router, engine);
  registerImportExport(router, engine);
  registerDocuments(router, engine);
  registerCollections(router, engine);
  registerAliases(router, engine);
  registerSynonyms(router, engine);
  registerCuration(router, engine);
  registerPresets(router, engine);
  registerUnavailable(router);

  return {
    handler: createHandler(engine, router),
    version,
    createCollection(schema) {
      createCollection(engine, schema);
    },
    loadDocuments(collection, docs, action = 'create') {
      const coll = engine.collections.get(collection);
      if (!coll) {
        throw new Error(`No collection named ${collection} in the sandbox.`);
      }
      const result: LoadResult = { loaded: 0, errors: [] };
      let index = 0;
      for (const doc of docs) {
        try {
          if (!isPlainObject(doc)) {
            throw new ApiError(
              400,
              'Bad JSON: not a properly formed document.'
            );
          }
          coll.write(doc, action, coll.defaultDirtyValues);
          result.loaded++;
        } catch (e) {
          if (!(e instanceof ApiError)) {
            throw e;
          }
          if (result.errors.length < 20) {
            result.errors.push({ index, status: e.status, message: e.message });
          }
        }
        index++;
      }
      return result;
    },
    hasCollection(name) {
      return engine.collections.has(name);
    },
    setReady(ready) {
      engine.ready = ready;
    }
  };
}

export type { WriteAction } from './collection';
