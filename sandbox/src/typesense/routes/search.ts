import { findCollection, searchCollection, type Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { isPlainObject, sortedJson, type JsonObject } from '../json';
import type { RequestContext, Router } from '../router';
import {
  runSearch,
  type SearchEnv,
  type SearchOutcome,
  type SearchParams
} from '../search';
import { paramText } from '../search-rules';
import { compareKeys } from '../sort';
import { parseJsonBody } from './body';

export const MAX_QUERY_STRING = 4000;
const LIMIT_MULTI_SEARCHES = 50;
/** Query-string parameters that steer the request rather than the searches. */
const NOT_SEARCH_PARAMS = new Set([
  'x-typesense-api-key',
  'limit_multi_searches'
]);

export function searchParamsFrom(
  common: Map<string, string>,
  body: JsonObject
): SearchParams {
  const params: SearchParams = new Map();
  for (const [k, v] of common) {
    if (!NOT_SEARCH_PARAMS.has(k)) {
      params.set(k, v);
    }
  }
  for (const [k, v] of Object.entries(body)) {
    const s = paramText(v);
    if (s !== undefined) {
      params.set(k, s);
    }
  }
  return params;
}

/** Collection names a multi_search body reaches, for authorisation before anything runs. */
export function multiSearchCollections(
  body: string,
  query: Map<string, string>
): string[] {
  try {
    const parsed: unknown = JSON.parse(body);
    if (!isPlainObject(parsed) || !Array.isArray(parsed.searches)) {
      return [''];
    }
    const names = parsed.searches.map(s =>
      isPlainObject(s) && typeof s.collection === 'string'
        ? s.collection
        : (query.get('collection') ?? '')
    );
    return names.length === 0 ? [''] : names;
  } catch {
    return [''];
  }
}

export function registerSearch(router: Router, engine: Engine): void {
  const env: SearchEnv = {
    feat: engine.feat,
    maxPerPage: engine.maxPerPage,
    cache: engine.cache,
    settings: engine
  };

  router.add(
    'GET',
    '/collections/:collection/documents/search',
    (ctx: RequestContext) => {
      const rawQuery = ctx.req.url?.split('?')[1] ?? '';
      if (rawQuery.length > MAX_QUERY_STRING) {
        throw new ApiError(
          400,
          'Query string exceeds max allowed length of 4000. Use the /multi_search end-point for larger payloads.'
        );
      }
      const coll = searchCollection(engine, ctx.params.collection ?? '');
      const params = new Map(ctx.query);
      return json(200, sortedJson(runSearch(coll, params, env).body));
    },
    { kind: 'search' }
  );

  router.add(
    'POST',
    '/multi_search',
    ctx => {
      // `?preset=` whose value holds `searches` stands for the whole body, as in the engine.
      const presetName = ctx.query.get('preset');
      const body =
        presetName !== undefined
          ? (engine.presets.get(presetName) ?? {})
          : parseJsonBody(ctx.body);
      if (!isPlainObject(body) || !Array.isArray(body.searches)) {
        throw new ApiError(400, 'Missing `searches` array.');
      }
      const limitRaw = ctx.query.get('limit_multi_searches');
      const limit =
        limitRaw !== undefined && /^\d+$/.test(limitRaw)
          ? Number(limitRaw)
          : LIMIT_MULTI_SEARCHES;
      if (body.searches.length > limit) {
        throw new ApiError(
          400,
          'Number of multi searches exceeds `limit_multi_searches` parameter.'
        );
      }
      const union = engine.feat.unionSearch && body.union === true;
      const searches = body.searches.map(search =>
        searchParamsFrom(ctx.query, isPlainObject(search) ? search : {})
      );
      if (union) {
        return json(200, sortedJson(unionResult(engine, env, searches, body)));
      }
      const results = searches.map(params => {
        try {
          const coll = searchCollection(engine, collectionOf(engine, params));
          return runSearch(coll, params, env).body;
        } catch (e) {
          if (!(e instanceof ApiError)) {
            throw e;
          }
          return { code: e.status, error: e.message };
        }
      });
      return json(200, sortedJson({ results }));
    },
    { kind: 'search' }
  );
}

/** A search's collection, or its preset's when the search names none (the preset is the weakest source). */
function collectionOf(engine: Engine, params: SearchParams): string {
  const named = params.get('collection');
  if (named !== undefined) {
    return named;
  }
  const preset = engine.presets.get(params.get('preset') ?? '');
  return isPlainObject(preset) && typeof preset.collection === 'string'
    ? preset.collection
    : '';
}

/**
 * 28+ `union: true`: every search's matches in one list ordered by the first search's sort
 * (text match, then its sort_by), paged once. Any failing search fails the union, answered
 * as the engine does: 200 with `{code, error}`.
 */
function unionResult(
  engine: Engine,
  env: SearchEnv,
  searches: SearchParams[],
  body: JsonObject
): JsonObject {
  const ok: { outcome: SearchOutcome; collection: string }[] = [];
  for (const params of searches) {
    const name = collectionOf(engine, params);
    const coll = findCollection(engine, name);
    if (!coll) {
      return { code: 404, error: `\`${name}\` collection not found.` };
    }
    try {
      ok.push({
        outcome: runSearch(coll, params, env, true),
        collection: coll.name
      });
    } catch (e) {
      if (!(e instanceof ApiError)) {
        throw e;
      }
      return { code: e.status, error: e.message };
    }
  }
  const perPage = Number(
    paramText(body.per_page) ?? searches[0]?.get('per_page') ?? 10
  );
  const page = Math.max(
    1,
    Number(paramText(body.page) ?? searches[0]?.get('page') ?? 1)
  );
  // Each search sorts by its own fields; the union compares their values position by position.
  const merged = ok.flatMap((o, searchIndex) => {
    const clauses = o.outcome.sortClauses.filter(c => c.name !== '_seq_id');
    return o.outcome.ranked.map(r => ({
      r,
      searchIndex,
      o,
      keys: clauses.map(c => c.key(r))
    }));
  });
  const desc = (ok[0]?.outcome.sortClauses ?? [])
    .filter(c => c.name !== '_seq_id')
    .map(c => c.desc);
  merged.sort((a, b) => {
    for (let i = 0; i < desc.length; i++) {
      const cmp = compareKeys(a.keys[i], b.keys[i], desc[i] ?? false);
      if (cmp !== 0) {
        return cmp;
      }
    }
    return a.searchIndex - b.searchIndex;
  });
  const window = merged.slice((page - 1) * perPage, page * perPage);
  return {
    found: merged.length,
    hits: window.map(m => ({
      ...m.o.outcome.hit(m.r),
      collection: m.o.collection,
      search_index: m.searchIndex
    })),
    out_of: ok.reduce((n, o) => n + Number(o.outcome.body.out_of ?? 0), 0),
    page,
    search_cutoff: false,
    search_time_ms: 0,
    union_request_params: ok.map(o => ({
      ...(o.outcome.body.request_params as JsonObject),
      found: o.outcome.body.found
    }))
  };
}
