/**
 * One search against one collection: the preset, parameter checks with the engine's texts,
 * curation rules, stopwords, text match widened by synonyms, filter, sort, grouping, facets
 * and paging. Ordered match lists are cached per collection
 * generation so that paging through a large result costs a slice, not a scan.
 */
import type { Collection, DocRecord } from './collection';
import { ApiError } from './errors';
import { parseFilter, type Predicate } from './filter/parse';
import { indexedMatches } from './indexed-match';
import { RawNumber, type JsonObject } from './json';
import { pruneDocument, scalarsAt } from './paths';
import { baseType } from './schema';
import { groupHits, parseGrouping } from './grouping';
import { UNAVAILABLE, unavailable } from './routes/unavailable';
import {
  applyPreset,
  planCuration,
  stopwordFilter,
  synonymsFor,
  type CurationPlan,
  type SearchSettings
} from './search-rules';
import {
  effectiveSort,
  parseSortBy,
  sortRanked,
  type Ranked,
  type SortClause
} from './sort';
import { expandQuery, type SynonymDef } from './synonyms';
import {
  DEFAULT_HIGHLIGHT,
  highlightHit,
  matchDocument,
  type HighlightStyle,
  type TextMatch,
  textMatchInfo,
  tokenize,
  WILDCARD_MATCH_INFO,
  type QueryField
} from './text';
import { correctedQueries, type TypoSettings } from './typos';
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
  'max_candidates'
];

export interface SearchEnv {
  feat: Features;
  maxPerPage: number;
  cache: ResultCache;
  settings: SearchSettings;
}

/** A few recent ordered result lists, keyed by collection generation and the query's shape. */
export class ResultCache {
  private readonly entries = new Map<string, Ranked[]>();
  constructor(
    private capacity = 16,
    private readonly onLookup: (hit: boolean) => void = () => undefined
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

  /** Search settings outside any collection changed (synonym or curation sets): every answer may differ. */
  clear(): void {
    this.entries.clear();
  }

  resize(capacity: number): void {
    this.capacity = capacity;
    this.set('', []);
    this.entries.delete('');
  }

  set(key: string, value: Ranked[]): void {
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) {
        break;
      }
      this.entries.delete(oldest);
    }
  }
}

function uintParam(params: SearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === undefined) {
    return undefined;
  }
  if (!/^\d+$/.test(raw) || Number(raw) > 4294967295) {
    throw new ApiError(
      400,
      `Parameter \`${name}\` must be an unsigned integer.`
    );
  }
  return Number(raw);
}

function listParam(params: SearchParams, name: string): string[] {
  const raw = params.get(name);
  if (raw === undefined) {
    return [];
  }
  return raw
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '');
}

export interface SearchOutcome {
  /** The response body, ready for sortedJson. */
  body: JsonObject;
  /** The full ordered match list (union search merges these). */
  ranked: Ranked[];
  /** The order the list is in, so a union can merge lists by it. */
  sortClauses: SortClause[];
  /** A hit as this search writes it (document pruned, highlights, text match). */
  hit(r: Ranked): JsonObject;
}

export function runSearch(
  coll: Collection,
  rawParams: SearchParams,
  env: SearchEnv,
  fullRanking = false
): SearchOutcome {
  const started = process.hrtime.bigint();
  const params = applyPreset(rawParams, env.settings);
  const originalQ = params.get('q');
  if (originalQ === undefined) {
    throw new ApiError(400, 'Parameter `q` is required.');
  }
  if (params.get('conversation') === 'true') {
    throw unavailable(UNAVAILABLE.conversations);
  }
  if (params.get('nl_query') === 'true') {
    throw unavailable(UNAVAILABLE.nlSearch);
  }
  for (const name of UNSIGNED_PARAMS) {
    uintParam(params, name);
  }

  const pageParam = uintParam(params, 'page');
  const offsetParam = uintParam(params, 'offset');
  const perPage =
    uintParam(params, 'limit') ?? uintParam(params, 'per_page') ?? 10;
  const maxFacetValues = uintParam(params, 'max_facet_values') ?? 10;
  const prefix =
    (params.get('prefix') ?? 'true').split(',')[0]?.trim() !== 'false';
  const typos: TypoSettings = {
    numTypos: Number(
      (params.get('num_typos') ?? '2').split(',')[0]?.trim() || 2
    ),
    minLen1: uintParam(params, 'min_len_1typo') ?? 4,
    minLen2: uintParam(params, 'min_len_2typo') ?? 7,
    threshold: uintParam(params, 'typo_tokens_threshold') ?? 1
  };
  const dropTokensThreshold = uintParam(params, 'drop_tokens_threshold') ?? 1;
  const validateFieldNames = !(
    env.feat.validateFieldNames &&
    params.get('validate_field_names') === 'false'
  );
  const curation = planCuration(coll, params, env.settings, env.feat);
  const q = curation.q;

  const queryBy = listParam(params, 'query_by');
  const queryFields: QueryField[] = queryBy.map((name, i) => ({
    name,
    weight: Math.max(15 - i, 0)
  }));
  for (const f of queryBy) {
    const field = coll.field(f);
    if (!field) {
      throw new ApiError(
        404,
        `Could not find a field named \`${f}\` in the schema.`
      );
    }
    if (baseType(field.type) !== 'string') {
      throw new ApiError(
        400,
        `Field \`${f}\` should be a string or a string array.`
      );
    }
  }
  const wildcard = q.trim() === '*' || q.trim() === '';
  if (!wildcard && queryBy.length === 0) {
    throw new ApiError(400, 'No search fields specified for the query.');
  }

  const filterText = curation.filterBy;
  const filter = parseFilter(filterText, {
    field: n => coll.field(n),
    validateFieldNames
  });
  const sortText = curation.sortBy ?? '';
  const sortClauses = effectiveSort(
    sortText.trim() === '' ? [] : parseSortBy(sortText, coll),
    coll,
    wildcard
  );
  const grouping = parseGrouping(params, coll);

  const facetBy = listParam(params, 'facet_by');
  for (const f of facetBy) {
    const field = coll.field(f);
    if (!field || !field.facet) {
      throw new ApiError(
        404,
        `Could not find a facet field named \`${f}\` in the schema.`
      );
    }
  }
  if (perPage > env.maxPerPage) {
    throw new ApiError(
      422,
      `Only upto ${env.maxPerPage} hits can be fetched per page.`
    );
  }

  const page =
    pageParam === undefined || pageParam === 0
      ? offsetParam !== undefined
        ? 0
        : 1
      : pageParam;
  const offset = page > 0 ? (page - 1) * perPage : (offsetParam ?? 0);
  const limitHits = uintParam(params, 'limit_hits');
  if (limitHits !== undefined && offset + perPage > limitHits) {
    throw new ApiError(
      422,
      `Only upto ${limitHits} hits can be fetched. Ensure that \`page\` and \`per_page\` parameters are within this range.`
    );
  }
  const dropStopwords = stopwordFilter(params, env.settings);
  let qTokens = wildcard ? [] : tokenize(q);
  // A query made only of stopwords matches nothing; it does not become a wildcard.
  let onlyStopwords = false;
  if (dropStopwords) {
    onlyStopwords = qTokens.length > 0;
    qTokens = dropStopwords(qTokens);
    onlyStopwords &&= qTokens.length === 0;
  }
  const locale = coll.field(queryBy[0] ?? '')?.locale ?? '';
  const synonyms =
    qTokens.length === 0
      ? []
      : synonymsFor(coll, params, env.settings, env.feat, locale);
  const curated = curation.pinned.length > 0 || curation.hidden.size > 0;

  let found: number;
  let window: Ranked[];
  let ranked: Ranked[] = [];
  const newestFirstOnly =
    sortClauses.length === 1 && !filter && qTokens.length === 0;
  if (
    newestFirstOnly &&
    facetBy.length === 0 &&
    !fullRanking &&
    !curated &&
    !grouping
  ) {
    // Wildcard without filter or sort: the insertion list already is the answer.
    found = coll.numDocuments;
    window = newestSlice(coll.snapshot(), found, offset, perPage);
  } else {
    const synonymKey = synonyms
      .map(d => `${d.rawRoot}>${d.rawSynonyms.join('|')}`)
      .join(',');
    const key = [
      coll.name,
      coll.generation,
      qTokens.join(' '),
      queryBy.join(','),
      filterText,
      sortText,
      prefix,
      validateFieldNames,
      synonymKey,
      JSON.stringify(typos),
      dropTokensThreshold
    ].join('\u0000');
    const cached = env.cache.get(key);
    ranked =
      cached ??
      rank(coll, qTokens, queryFields, prefix, filter, sortClauses, synonyms, {
        typos,
        dropTokensThreshold
      });
    if (!cached) {
      env.cache.set(key, ranked);
    }
    if (curated) {
      ranked = applyCuration(coll, ranked, curation, filter);
    }
    found = ranked.length;
    window = ranked.slice(offset, offset + perPage);
  }
  if (onlyStopwords) {
    ranked = [];
    found = 0;
    window = [];
  }

  const facetQuery = parseFacetQuery(params.get('facet_query'));
  const include = params.has('include_fields')
    ? listParam(params, 'include_fields')
    : null;
  const exclude = params.has('exclude_fields')
    ? listParam(params, 'exclude_fields')
    : null;
  const text: HighlightQuery = {
    tokens: qTokens,
    fields: queryFields,
    prefix,
    style: {
      startTag: params.get('highlight_start_tag') ?? DEFAULT_HIGHLIGHT.startTag,
      endTag: params.get('highlight_end_tag') ?? DEFAULT_HIGHLIGHT.endTag,
      affixTokens:
        uintParam(params, 'highlight_affix_num_tokens') ??
        DEFAULT_HIGHLIGHT.affixTokens,
      snippetThreshold:
        uintParam(params, 'snippet_threshold') ??
        DEFAULT_HIGHLIGHT.snippetThreshold,
      fullFields: new Set(listParam(params, 'highlight_full_fields'))
    }
  };
  const hit = (r: Ranked): JsonObject => hitFor(r, text, include, exclude);

  const body: JsonObject = {
    facet_counts: facetBy.map(f =>
      facetCounts(ranked, f, maxFacetValues, coll, facetQuery)
    ),
    found,
    out_of: coll.numDocuments,
    request_params: {
      collection_name: coll.name,
      first_q: originalQ,
      per_page: perPage,
      q: originalQ
    },
    search_cutoff: false
  };
  if (grouping) {
    const groups = groupHits(ranked, grouping, offset, perPage, hit);
    Object.assign(body, {
      found: groups.found,
      found_docs: ranked.length,
      grouped_hits: groups.page
    });
  } else {
    body.hits = window.map(hit);
  }
  if (curation.metadata) {
    body.metadata = curation.metadata;
  }
  if (page > 0) {
    body.page = page;
  } else {
    body.offset = offset;
  }
  if (exclude?.includes('out_of')) {
    delete body.out_of;
  }
  body.search_time_ms = Number(
    (process.hrtime.bigint() - started) / 1_000_000n
  );
  return { body, ranked, sortClauses, hit };
}

interface HighlightQuery {
  tokens: string[];
  fields: QueryField[];
  prefix: boolean;
  style: HighlightStyle;
}

/** Hidden hits leave the list; pinned ones (that exist, and pass the filter when asked) go to their 1-based places. */
function applyCuration(
  coll: Collection,
  ranked: Ranked[],
  plan: CurationPlan,
  filter: Predicate | null
): Ranked[] {
  const pinnedIds = new Set(plan.pinned.map(p => p.id));
  const rest = ranked.filter(
    r => !plan.hidden.has(r.rec.id) && !pinnedIds.has(r.rec.id)
  );
  const placed = new Set<string>();
  const pins = [...plan.pinned].sort((a, b) => a.position - b.position);
  for (const pin of pins) {
    if (placed.has(pin.id) || plan.hidden.has(pin.id)) {
      continue;
    }
    const rec = coll.get(pin.id);
    if (!rec || (plan.filterCurated && filter && !filter(rec.doc))) {
      continue;
    }
    placed.add(pin.id);
    rest.splice(Math.min(Math.max(pin.position - 1, 0), rest.length), 0, {
      rec,
      match: null,
      curated: true
    });
  }
  return rest;
}

function newestSlice(
  records: readonly DocRecord[],
  live: number,
  offset: number,
  count: number
): Ranked[] {
  const out: Ranked[] = [];
  if (records.length === live) {
    for (
      let i = records.length - 1 - offset;
      i >= 0 && out.length < count;
      i--
    ) {
      out.push({ rec: records[i] as DocRecord, match: null });
    }
    return out;
  }
  let skipped = 0;
  for (let i = records.length - 1; i >= 0 && out.length < count; i--) {
    const rec = records[i] as DocRecord;
    if (!rec.alive) {
      continue;
    }
    if (skipped < offset) {
      skipped++;
    } else {
      out.push({ rec, match: null });
    }
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
  synonyms: SynonymDef[],
  widen: { typos: TypoSettings; dropTokensThreshold: number }
): Ranked[] {
  let ranked: Ranked[] = [];
  if (qTokens.length === 0) {
    for (const rec of coll.snapshot()) {
      if (rec.alive && (!filter || filter(rec.doc))) {
        ranked.push({ rec, match: null });
      }
    }
  } else {
    ranked = withSynonyms(coll, qTokens, fields, prefix, filter, synonyms);
    if (ranked.length < widen.typos.threshold && widen.typos.numTypos > 0) {
      ranked = withTypos(coll, qTokens, fields, prefix, filter, widen.typos);
    }
    // With fewer found than drop_tokens_threshold (1), drop tokens from the right until something is.
    for (
      let keep = qTokens.length - 1;
      keep >= 1 && ranked.length < widen.dropTokensThreshold;
      keep--
    ) {
      ranked = indexedMatches(
        coll,
        qTokens.slice(0, keep),
        fields,
        prefix,
        filter
      );
      for (const r of ranked) {
        if (r.match) {
          r.match.tokensDropped = qTokens.length - keep;
        }
      }
    }
  }
  return sortRanked(ranked, sortClauses);
}

/** The matches of the query with its typos corrected, each carrying the tokens it matched (for its highlights). */
function withTypos(
  coll: Collection,
  qTokens: string[],
  fields: QueryField[],
  prefix: boolean,
  filter: Predicate | null,
  settings: TypoSettings
): Ranked[] {
  const bySeq = new Map<number, Ranked>();
  for (const tokens of correctedQueries(
    coll,
    qTokens,
    fields,
    prefix,
    settings
  )) {
    for (const r of indexedMatches(coll, tokens, fields, prefix, filter)) {
      if (!bySeq.has(r.rec.seq)) {
        bySeq.set(r.rec.seq, { ...r, tokens });
      }
    }
  }
  return [...bySeq.values()].sort((a, b) => a.rec.seq - b.rec.seq);
}

/**
 * The query's matches plus those of each synonym rewriting. A document found by the query
 * itself keeps that match; one found only through a synonym carries the tokens it matched,
 * for its highlights.
 */
function withSynonyms(
  coll: Collection,
  qTokens: string[],
  fields: QueryField[],
  prefix: boolean,
  filter: Predicate | null,
  synonyms: SynonymDef[]
): Ranked[] {
  const direct = indexedMatches(coll, qTokens, fields, prefix, filter);
  const alternatives = expandQuery(qTokens, synonyms);
  if (alternatives.length === 0) {
    return direct;
  }
  const bySeq = new Map<number, Ranked>();
  for (const r of direct) {
    bySeq.set(r.rec.seq, r);
  }
  for (const tokens of alternatives) {
    for (const r of indexedMatches(coll, tokens, fields, prefix, filter)) {
      const seen = bySeq.get(r.rec.seq);
      const better =
        seen?.tokens !== undefined &&
        r.match !== null &&
        seen.match !== null &&
        r.match.score > seen.match.score;
      if (!seen || better) {
        bySeq.set(r.rec.seq, { ...r, tokens });
      }
    }
  }
  return [...bySeq.values()].sort((a, b) => a.rec.seq - b.rec.seq);
}

function hitFor(
  r: Ranked,
  text: HighlightQuery,
  include: string[] | null,
  exclude: string[] | null
): JsonObject {
  const document = pruneDocument(r.rec.doc, include, exclude);
  if (!r.match) {
    const out: JsonObject = {
      document,
      // A hit pinned into a text search shows each queried field unmarked.
      highlight: r.curated ? unmarked(r.rec.doc, text) : {},
      highlights: [],
      text_match: 100,
      text_match_info: WILDCARD_MATCH_INFO
    };
    if (r.curated) {
      out.curated = true;
    }
    return out;
  }
  // Ranking keeps scores only; the tokens hit are found again for the hits on this page.
  const kept =
    r.tokens ??
    text.tokens.slice(0, text.tokens.length - r.match.tokensDropped);
  // Tokens dropped to find the document are still marked where the document has them.
  const hits =
    r.tokens === undefined && r.match.tokensDropped > 0
      ? everyTokenFound(r.rec.doc, text)
      : matchDocument(r.rec.doc, kept, text.fields, text.prefix);
  const { highlight, highlights } = hits
    ? highlightHit(r.rec.doc, hits, text.style)
    : { highlight: {}, highlights: [] };
  return {
    document,
    highlight,
    highlights,
    text_match: new RawNumber(r.match.score.toString()),
    text_match_info: textMatchInfo(r.match)
  };
}

/** The hits of each query token alone, joined: what a document found with tokens dropped shows marked. */
function everyTokenFound(
  doc: JsonObject,
  text: HighlightQuery
): TextMatch | null {
  let joined: TextMatch | null = null;
  text.tokens.forEach((token, i) => {
    const prefix = text.prefix && i === text.tokens.length - 1;
    const m = matchDocument(doc, [token], text.fields, prefix);
    if (!m) {
      return;
    }
    if (!joined) {
      joined = m;
      return;
    }
    const into: TextMatch = joined;
    for (const [field, hits] of m.fieldHits) {
      const seen = into.fieldHits.get(field);
      into.fieldHits.set(field, new Set([...(seen ?? []), ...hits]));
    }
  });
  return joined;
}

/** Each queried string field's value as it is, for a pinned hit of a text search. */
function unmarked(doc: JsonObject, text: HighlightQuery): JsonObject {
  const out: JsonObject = {};
  if (text.tokens.length === 0) {
    return out;
  }
  for (const f of text.fields) {
    const value = doc[f.name];
    if (typeof value === 'string') {
      out[f.name] = { matched_tokens: [], snippet: value };
    }
  }
  return out;
}

interface FacetQuery {
  field: string;
  tokens: string[];
}

function asDouble(v: number): number | RawNumber {
  return Number.isInteger(v) ? new RawNumber(`${v}.0`) : v;
}

/** `facet_query=brand:gl`: the field, and the words its values must hold (the last as a prefix). */
function parseFacetQuery(raw: string | undefined): FacetQuery | null {
  const colon = raw?.indexOf(':') ?? -1;
  if (raw === undefined || colon < 0) {
    return null;
  }
  return {
    field: raw.slice(0, colon).trim(),
    tokens: tokenize(raw.slice(colon + 1))
  };
}

/** A facet value that holds every word of the facet query, marked; null when it does not. */
function facetMatch(value: string, tokens: string[]): string | null {
  const words = [...value.matchAll(/[\p{L}\p{N}]+/gu)];
  const marks = new Map<number, number>();
  for (const [i, token] of tokens.entries()) {
    const last = i === tokens.length - 1;
    const at = words.findIndex(w => {
      const lower = w[0].toLowerCase();
      return last ? lower.startsWith(token) : lower === token;
    });
    if (at < 0) {
      return null;
    }
    marks.set(at, token.length);
  }
  let out = '';
  let from = 0;
  words.forEach((w, i) => {
    const length = marks.get(i);
    if (length === undefined) {
      return;
    }
    out += `${value.slice(from, w.index)}<mark>${w[0].slice(0, length)}</mark>`;
    from = w.index + length;
  });
  return out + value.slice(from);
}

function facetCounts(
  ranked: Ranked[],
  field: string,
  max: number,
  coll: Collection,
  facetQuery: FacetQuery | null
): JsonObject {
  const query =
    facetQuery?.field === field && facetQuery.tokens.length > 0
      ? facetQuery.tokens
      : null;
  const highlighted = new Map<string, string>();
  const counts = new Map<string, number>();
  const numeric = ['int32', 'int64', 'float'].includes(
    baseType(coll.field(field)?.type ?? '')
  );
  let min = Infinity;
  let maxValue = -Infinity;
  let sum = 0;
  let n = 0;
  for (const r of ranked) {
    for (const v of scalarsAt(r.rec.doc, field)) {
      const key = typeof v === 'string' ? v : String(v);
      if (query) {
        const marked = highlighted.get(key) ?? facetMatch(key, query);
        if (marked === null) {
          continue;
        }
        highlighted.set(key, marked);
      }
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
  if (numeric && n > 0) {
    // The engine keeps facet stats as doubles, which it writes with a fraction even when whole (`119.0`).
    Object.assign(stats, {
      avg: asDouble(sum / n),
      max: asDouble(maxValue),
      min: asDouble(min),
      sum: asDouble(sum)
    });
  }
  return {
    counts: top.map(([value, count]) => ({
      count,
      highlighted: highlighted.get(value) ?? value,
      value
    })),
    field_name: field,
    sampled: false,
    stats
  };
}
