import { searchCollection, type Engine } from '../engine';
import { ApiError } from '../errors';
import { json } from '../http-io';
import { isPlainObject, RawNumber, sortedJson, type JsonObject } from '../json';
import type { RequestContext, Router } from '../router';
import { runSearch, type SearchParams } from '../search';
import type { Ranked } from '../sort';
import { parseJsonBody } from './body';

export const MAX_QUERY_STRING = 4000;
const LIMIT_MULTI_SEARCHES = 50;
/** Query-string parameters that steer the request rather than the searches. */
const NOT_SEARCH_PARAMS = new Set(['x-typesense-api-key', 'limit_multi_searches']);

function asParam(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map((x) => String(x)).join(',');
  return undefined;
}

export function searchParamsFrom(common: Map<string, string>, body: JsonObject): SearchParams {
  const params: SearchParams = new Map();
  for (const [k, v] of common) if (!NOT_SEARCH_PARAMS.has(k)) params.set(k, v);
  for (const [k, v] of Object.entries(body)) {
    const s = asParam(v);
    if (s !== undefined) params.set(k, s);
  }
  return params;
}

/** Collection names a multi_search body reaches, for authorisation before anything runs. */
export function multiSearchCollections(body: string, query: Map<string, string>): string[] {
  try {
    const parsed: unknown = JSON.parse(body);
    if (!isPlainObject(parsed) || !Array.isArray(parsed.searches)) return [''];
    const names = parsed.searches.map((s) =>
      isPlainObject(s) && typeof s.collection === 'string' ? s.collection : (query.get('collection') ?? ''),
    );
    return names.length === 0 ? [''] : names;
  } catch {
    return [''];
  }
}

export function registerSearch(router: Router, engine: Engine): void {
  const env = { feat: engine.feat, maxPerPage: engine.maxPerPage, cache: engine.cache };

  router.add(
    'GET',
    '/collections/:collection/documents/search',
    (ctx: RequestContext) => {
      const rawQuery = ctx.req.url?.split('?')[1] ?? '';
      if (rawQuery.length > MAX_QUERY_STRING) {
        throw new ApiError(
          400,
          'Query string exceeds max allowed length of 4000. Use the /multi_search end-point for larger payloads.',
        );
      }
      const coll = searchCollection(engine, ctx.params.collection ?? '');
      const params = new Map(ctx.query);
      return json(200, sortedJson(runSearch(coll, params, env).body));
    },
    { kind: 'search' },
  );

  router.add(
    'POST',
    '/multi_search',
    (ctx) => {
      const body = parseJsonBody(ctx.body);
      if (!isPlainObject(body) || !Array.isArray(body.searches)) throw new ApiError(400, 'Missing `searches` array.');
      const limitRaw = ctx.query.get('limit_multi_searches');
      const limit = limitRaw !== undefined && /^\d+$/.test(limitRaw) ? Number(limitRaw) : LIMIT_MULTI_SEARCHES;
      if (body.searches.length > limit) {
        throw new ApiError(400, 'Number of multi searches exceeds `limit_multi_searches` parameter.');
      }
      const union = engine.feat.unionSearch && body.union === true;
      const outcomes: ({ body: JsonObject; ranked: Ranked[]; collection: string } | { code: number; error: string })[] =
        body.searches.map((search) => {
          try {
            const params = searchParamsFrom(ctx.query, isPlainObject(search) ? search : {});
            const coll = searchCollection(engine, params.get('collection') ?? '');
            return { ...runSearch(coll, params, env, union), collection: coll.name };
          } catch (e) {
            if (!(e instanceof ApiError)) throw e;
            return { code: e.status, error: e.message };
          }
        });
      if (union) return json(200, sortedJson(unionResult(outcomes, ctx.query, body)));
      return json(200, sortedJson({ results: outcomes.map((o) => ('body' in o ? o.body : o)) }));
    },
    { kind: 'search' },
  );
}

/** 28+ `union: true`: every search's matches in one ranked list, paged once. */
function unionResult(
  outcomes: ({ body: JsonObject; ranked: Ranked[]; collection: string } | { code: number; error: string })[],
  query: Map<string, string>,
  body: JsonObject,
): JsonObject {
  const failed = outcomes.find((o) => 'code' in o);
  if (failed && 'code' in failed) throw new ApiError(failed.code, failed.error);
  const ok = outcomes as { body: JsonObject; ranked: Ranked[]; collection: string }[];
  const perPage = Number(asParam(body.per_page) ?? query.get('per_page') ?? 10);
  const page = Math.max(1, Number(asParam(body.page) ?? query.get('page') ?? 1));
  const merged = ok.flatMap((o, searchIndex) => o.ranked.map((r) => ({ r, searchIndex, collection: o.collection })));
  merged.sort((a, b) => {
    const x = a.r.match?.score ?? 100n;
    const y = b.r.match?.score ?? 100n;
    return x === y ? 0 : x > y ? -1 : 1;
  });
  const window = merged.slice((page - 1) * perPage, page * perPage);
  return {
    found: merged.length,
    hits: window.map((m) => ({
      collection: m.collection,
      document: m.r.rec.doc,
      highlight: {},
      highlights: [],
      search_index: m.searchIndex,
      text_match: m.r.match ? new RawNumber(m.r.match.score.toString()) : 100,
    })),
    out_of: ok.reduce((n, o) => n + Number(o.body.out_of ?? 0), 0),
    page,
    search_cutoff: false,
    search_time_ms: 0,
    union_request_params: ok.map((o) => ({ ...(o.body.request_params as JsonObject), found: o.body.found })),
  };
}
