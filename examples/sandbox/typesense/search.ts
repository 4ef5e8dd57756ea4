/**
 * One search against one collection: parameter checks with the engine's texts, text match,
 * filter, sort, facets and paging. Ordered match lists are cached per collection
 * generation so that paging through a large result costs a slice, not a scan.
 */
import type { Collection, DocRecord } from './collection';
import { ApiError } from './errors';
import { parseFilter, type Predicate } from './filter/parse';
import { indexedMatches } from './indexed-match';
import { RawNumber, type JsonObject } from './json';
import { pruneDocument, scalarsAt } from './paths';
import { baseType } from './schema';
import { effectiveSort, parseSortBy, sortRanked, type Ranked } from './sort';
import { highlightHit, matchDocument, textMatchInfo, tokenize, WILDCARD_MATCH_INFO, type QueryField } from './text';
import type { Features } from './version';

export type SearchParams = Map<string, string>;

const UNSIGNED_PARAMS = [
  'min_len_1typo',
  'min_len_2typo',
  'drop_tokens_threshold',
  'typo_tokens_threshold',
  'max_facet_values',
  'limit_hits',
  'snippet_threshold',
  'highlight_affix_num_tokens',
  'page',
  'offset',
  'per_page',
  'limit',
  'group_limit',
  'search_cutoff_ms',
  'max_candidates',
];

export interface SearchEnv {
  feat: Features;
  maxPerPage: number;
  cache: ResultCache;
}

/** A few recent ordered result lists, keyed by collection generation and the query's shape. */
export class ResultCache {
  private readonly entries = new Map<string, Ranked[]>();
  constructor(
    private readonly capacity = 16,
    private readonly onLookup: (hit: boolean) => void = () => undefined,
  ) {}

  get(key: string): Ranked[] | undefined {
    const hit = this.entries.get(key);
    this.onLookup(hit !== undefined);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: Ranked[]): void {
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

function uintParam(params: SearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) > 4294967295) {
    throw new ApiError(400, `Parameter \`${name}\` must be an unsigned integer.`);
  }
  return Number(raw);
}

function listParam(params: SearchParams, name: string): string[] {
  const raw = params.get(name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export interface SearchOutcome {
  /** The response body, ready for sortedJson. */
  body: JsonObject;
  /** The full ordered match list (union search merges these). */
  ranked: Ranked[];
}

export function runSearch(coll: Collection, params: SearchParams, env: SearchEnv, fullRanking = false): SearchOutcome {
  const started = process.hrtime.bigint();
  const q = params.get('q');
  if (q === undefined) throw new ApiError(400, 'Parameter `q` is required.');
  for (const name of UNSIGNED_PARAMS) uintParam(params, name);

  const pageParam = uintParam(params, 'page');
  const offsetParam = uintParam(params, 'offset');
  const perPage = uintParam(params, 'limit') ?? uintParam(params, 'per_page') ?? 10;
  const maxFacetValues = uintParam(params, 'max_facet_values') ?? 10;
  const prefix = (params.get('prefix') ?? 'true').split(',')[0]?.trim() !== 'false';
  const validateFieldNames = !(env.feat.validateFieldNames && params.get('validate_field_names') === 'false');

  const wildcard = q.trim() === '*' || q.trim() === '';
  const queryBy = listParam(params, 'query_by');
  const queryFields: QueryField[] = queryBy.map((name, i) => ({ name, weight: Math.max(15 - i, 0) }));
  for (const f of queryBy) {
    const field = coll.field(f);
    if (!field) throw new ApiError(404, `Could not find a field named \`${f}\` in the schema.`);
    if (baseType(field.type) !== 'string') {
      throw new ApiError(400, `Field \`${f}\` should be a string or a string array.`);
    }
  }
  if (!wildcard && queryBy.length === 0) throw new ApiError(400, 'No search fields specified for the query.');

  const filterText = params.get('filter_by') ?? '';
  const filter = parseFilter(filterText, { field: (n) => coll.field(n), validateFieldNames });
  const sortText = params.get('sort_by') ?? '';
  const sortClauses = effectiveSort(sortText.trim() === '' ? [] : parseSortBy(sortText, coll), coll, wildcard);

  const facetBy = listParam(params, 'facet_by');
  for (const f of facetBy) {
    const field = coll.field(f);
    if (!field || !field.facet) throw new ApiError(404, `Could not find a facet field named \`${f}\` in the schema.`);
  }
  if (perPage > env.maxPerPage) throw new ApiError(422, `Only upto ${env.maxPerPage} hits can be fetched per page.`);

  const page = pageParam === undefined || pageParam === 0 ? (offsetParam !== undefined ? 0 : 1) : pageParam;
  const offset = page > 0 ? (page - 1) * perPage : (offsetParam ?? 0);
  const qTokens = wildcard ? [] : tokenize(q);

  let found: number;
  let window: Ranked[];
  let ranked: Ranked[] = [];
  const newestFirstOnly = sortClauses.length === 1 && !filter && wildcard;
  if (newestFirstOnly && facetBy.length === 0 && !fullRanking) {
    // Wildcard without filter or sort: the insertion list already is the answer.
    found = coll.numDocuments;
    window = newestSlice(coll.snapshot(), found, offset, perPage);
  } else {
    const key = [coll.name, coll.generation, q, queryBy.join(','), filterText, sortText, prefix, validateFieldNames].join('\u0000');
    const cached = env.cache.get(key);
    ranked = cached ?? rank(coll, qTokens, queryFields, prefix, filter, sortClauses);
    if (!cached) env.cache.set(key, ranked);
    found = ranked.length;
    window = ranked.slice(offset, offset + perPage);
  }

  const include = params.has('include_fields') ? listParam(params, 'include_fields') : null;
  const exclude = params.has('exclude_fields') ? listParam(params, 'exclude_fields') : null;
  const text: HighlightQuery = { tokens: qTokens, fields: queryFields, prefix };
  const hits = window.map((r) => hitFor(r, text, include, exclude));

  const body: JsonObject = {
    facet_counts: facetBy.map((f) => facetCounts(ranked, f, maxFacetValues, coll)),
    found,
    hits,
    out_of: coll.numDocuments,
    request_params: { collection_name: coll.name, first_q: q, per_page: perPage, q },
    search_cutoff: false,
    search_time_ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
  };
  if (page > 0) body.page = page;
  else body.offset = offset;
  if (exclude?.includes('out_of')) delete body.out_of;
  return { body, ranked };
}

interface HighlightQuery {
  tokens: string[];
  fields: QueryField[];
  prefix: boolean;
}

function newestSlice(records: readonly DocRecord[], live: number, offset: number, count: number): Ranked[] {
  const out: Ranked[] = [];
  if (records.length === live) {
    for (let i = records.length - 1 - offset; i >= 0 && out.length < count; i--) {
      out.push({ rec: records[i] as DocRecord, match: null });
    }
    return out;
  }
  let skipped = 0;
  for (let i = records.length - 1; i >= 0 && out.length < count; i--) {
    const rec = records[i] as DocRecord;
    if (!rec.alive) continue;
    if (skipped < offset) skipped++;
    else out.push({ rec, match: null });
  }
  return out;
}

function rank(
  coll: Collection,
  qTokens: string[],
  fields: QueryField[],
  prefix: boolean,
  filter: Predicate | null,
  sortClauses: ReturnType<typeof effectiveSort>,
): Ranked[] {
  let ranked: Ranked[] = [];
  if (qTokens.length === 0) {
    for (const rec of coll.snapshot()) if (rec.alive && (!filter || filter(rec.doc))) ranked.push({ rec, match: null });
  } else {
    // drop_tokens_threshold=1: with nothing found, drop tokens from the right until something is.
    for (let keep = qTokens.length; keep >= 1 && ranked.length === 0; keep--) {
      ranked = indexedMatches(coll, qTokens.slice(0, keep), fields, prefix, filter);
      for (const r of ranked) if (r.match) r.match.tokensDropped = qTokens.length - keep;
    }
  }
  return sortRanked(ranked, sortClauses);
}

function hitFor(r: Ranked, text: HighlightQuery, include: string[] | null, exclude: string[] | null): JsonObject {
  const document = pruneDocument(r.rec.doc, include, exclude);
  if (!r.match) {
    return { document, highlight: {}, highlights: [], text_match: 100, text_match_info: WILDCARD_MATCH_INFO };
  }
  // Ranking keeps scores only; the tokens hit are found again for the hits on this page.
  const kept = text.tokens.slice(0, text.tokens.length - r.match.tokensDropped);
  const hits = matchDocument(r.rec.doc, kept, text.fields, text.prefix);
  const { highlight, highlights } = hits ? highlightHit(r.rec.doc, hits) : { highlight: {}, highlights: [] };
  return {
    document,
    highlight,
    highlights,
    text_match: new RawNumber(r.match.score.toString()),
    text_match_info: textMatchInfo(r.match),
  };
}

function facetCounts(ranked: Ranked[], field: string, max: number, coll: Collection): JsonObject {
  const counts = new Map<string, number>();
  const numeric = ['int32', 'int64', 'float'].includes(baseType(coll.field(field)?.type ?? ''));
  let min = Infinity;
  let maxValue = -Infinity;
  let sum = 0;
  let n = 0;
  for (const r of ranked) {
    for (const v of scalarsAt(r.rec.doc, field)) {
      const key = typeof v === 'string' ? v : String(v);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (numeric && typeof v === 'number') {
        min = Math.min(min, v);
        maxValue = Math.max(maxValue, v);
        sum += v;
        n++;
      }
    }
  }
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, max);
  const stats: JsonObject = { total_values: counts.size };
  if (numeric && n > 0) Object.assign(stats, { avg: sum / n, max: maxValue, min, sum });
  return {
    counts: top.map(([value, count]) => ({ count, highlighted: value, value })),
    field_name: field,
    sampled: false,
    stats,
  };
}
