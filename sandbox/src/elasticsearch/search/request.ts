/** A search request as read from the body and the query string, validated like ES does. */
import { z } from 'zod';
import {
  esError,
  illegalArgument,
  parsingError,
  validationFailed
} from '../errors';
import type { Exchange } from '../exchange';
import { isObject, type Json, type JsonObject } from '../json-value';
import { parseSourceFilter, type SourceFilter } from '../source-filter';
import { parseSlice, type Slice } from './slice';
import { atLeast, type EsVersion } from '../version';
import { parseSort, parseSortParam, type SortSpec } from './sort';
import {
  readDocvalueFields,
  readHighlight,
  type DocvalueSpec,
  type HighlightSpec
} from './hit-extras';

export interface SearchRequest {
  query: Json | undefined;
  postFilter: Json | undefined;
  from: number;
  size: number;
  sort: SortSpec[];
  searchAfter?: Json[];
  /** true = exact, false = none, number = count up to it. */
  trackTotalHits: number | boolean;
  totalAsInt: boolean;
  source: SourceFilter;
  aggs?: JsonObject;
  version: boolean;
  seqNoPrimaryTerm: boolean;
  minScore?: number;
  pit?: { id: string; keepAlive?: string };
  slice?: Slice;
  docvalueFields?: DocvalueSpec[];
  /** The `fields` option (values from _source). */
  fields?: DocvalueSpec[];
  /** collapse: one hit per value of this field. */
  collapse?: string;
  highlight?: HighlightSpec;
  /** indices_boost: index name -> factor. */
  indicesBoost?: Map<string, number>;
  /** stored_fields `_none_`: hits without _id and _source. */
  noStoredFields?: boolean;
  /** Scores (and max_score) even under a field sort. */
  trackScores?: boolean;
}

const KNOWN = new Set([
  'query',
  'post_filter',
  'from',
  'size',
  'sort',
  'search_after',
  'track_total_hits',
  '_source',
  'aggs',
  'aggregations',
  'version',
  'seq_no_primary_term',
  'min_score',
  'pit',
  'timeout',
  'track_scores',
  'highlight',
  'fields',
  'stored_fields',
  'docvalue_fields',
  'explain',
  'profile',
  'terminate_after',
  'runtime_mappings',
  'collapse',
  'indices_boost',
  'ext',
  'stats',
  'slice'
]);

const pitSchema = z.object({
  id: z.string().min(1),
  keep_alive: z.string().optional()
});

function tokenKind(v: Json): string {
  if (Array.isArray(v)) {
    return 'START_ARRAY';
  }
  if (isObject(v)) {
    return 'START_OBJECT';
  }
  if (typeof v === 'number') {
    return 'VALUE_NUMBER';
  }
  if (typeof v === 'boolean') {
    return 'VALUE_BOOLEAN';
  }
  if (v === null) {
    return 'VALUE_NULL';
  }
  return 'VALUE_STRING';
}

function intField(body: JsonObject, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) {
    return undefined;
  }
  const n = typeof v === 'number' ? v : Number(v);
  // A string is read as Java reads an int: its failure is a bare NumberFormatException.
  if (typeof v === 'string' && !Number.isInteger(n)) {
    throw esError(400, {
      type: 'number_format_exception',
      reason: `For input string: "${v}"`
    });
  }
  if (!Number.isInteger(n)) {
    throw parsingError(`[${key}] failed to parse field, expected an integer`);
  }
  return n;
}

export function readSearchRequest(
  ex: Exchange,
  body: JsonObject,
  version: EsVersion
): SearchRequest {
  const major = version.major;
  for (const [k, v] of Object.entries(body)) {
    if (!KNOWN.has(k)) {
      const err = parsingError(`Unknown key for a ${tokenKind(v)} in [${k}].`);
      err.locate = { key: k, at: 'value' };
      throw err;
    }
  }
  const q = ex.query;
  const from = ex.int('from') ?? intField(body, 'from') ?? 0;
  const size = ex.int('size') ?? intField(body, 'size') ?? 10;
  const sortParam = q.get('sort');
  const sort = sortParam ? parseSortParam(sortParam) : parseSort(body['sort']);
  let query = body['query'];
  const qParam = q.get('q');
  if (qParam !== null) {
    const qs: JsonObject = { query: qParam };
    if (q.get('df')) {
      qs['default_field'] = q.get('df');
    }
    if (q.get('default_operator')) {
      qs['default_operator'] = q.get('default_operator');
    }
    if (q.get('lenient')) {
      qs['lenient'] = q.get('lenient') === 'true';
    }
    query = { query_string: qs };
  }
  const totalAsInt = ex.flag('rest_total_hits_as_int');
  let trackTotalHits: number | boolean = 10_000;
  const tth =
    q.get('track_total_hits') ??
    (body['track_total_hits'] !== undefined
      ? String(body['track_total_hits'])
      : null);
  if (tth !== null) {
    if (tth === 'true') {
      trackTotalHits = true;
    } else if (tth === 'false') {
      trackTotalHits = false;
    } else if (/^-?\d+$/.test(tth)) {
      trackTotalHits = Number(tth);
    } else {
      throw parsingError(
        `[track_total_hits] failed to parse, expected a boolean or an integer but got [${tth}]`
      );
    }
  }
  if (totalAsInt && trackTotalHits !== false) {
    trackTotalHits = true;
  }

  const errors: string[] = [];
  // 7.x reads -1 as "not set"; 8.x refuses any negative from.
  if (from < 0 && major >= 8) {
    throw illegalArgument(
      `[from] parameter cannot be negative but was [${from}]`
    );
  }
  if (from < -1) {
    errors.push('[from] parameter cannot be negative');
  }
  if (size < 0) {
    errors.push(`[size] parameter cannot be negative, found [${size}]`);
  }
  const req: SearchRequest = {
    query,
    postFilter: body['post_filter'],
    from: Math.max(from, 0),
    size,
    sort,
    trackTotalHits,
    totalAsInt,
    source: parseSourceFilter(body['_source'], q),
    version: body['version'] === true || ex.flag('version'),
    seqNoPrimaryTerm:
      body['seq_no_primary_term'] === true || ex.flag('seq_no_primary_term'),
    trackScores: body['track_scores'] === true
  };
  // stored_fields: no field is stored, so none comes back; _source only when asked for as well.
  const stored = body['stored_fields'] ?? q.get('stored_fields');
  if (stored !== undefined && stored !== null) {
    if (stored === '_none_') {
      req.noStoredFields = true;
    }
    if (body['_source'] === undefined && q.get('_source') === null) {
      req.source = { ...req.source, enabled: false };
    }
  }
  const fieldsOpt = readDocvalueFields(body['fields']);
  if (fieldsOpt.length > 0) {
    req.fields = fieldsOpt;
  }
  const collapse = body['collapse'];
  if (isObject(collapse) && typeof collapse['field'] === 'string') {
    req.collapse = collapse['field'];
  }
  const docvalues = readDocvalueFields(body['docvalue_fields']);
  if (docvalues.length > 0) {
    req.docvalueFields = docvalues;
  }
  const highlight = readHighlight(body['highlight']);
  if (highlight) {
    req.highlight = highlight;
  }
  const boosts = body['indices_boost'];
  if (boosts !== undefined) {
    const pairs = Array.isArray(boosts)
      ? boosts.filter(isObject).flatMap(o => Object.entries(o))
      : isObject(boosts)
        ? Object.entries(boosts)
        : [];
    req.indicesBoost = new Map(pairs.map(([k, v]) => [k, Number(v)]));
  }
  const aggs = body['aggs'] ?? body['aggregations'];
  if (aggs !== undefined) {
    if (!isObject(aggs)) {
      throw parsingError(
        'Expected [START_OBJECT] under [aggs], but got a [VALUE_STRING]'
      );
    }
    req.aggs = aggs;
  }
  if (typeof body['min_score'] === 'number') {
    req.minScore = body['min_score'];
  }
  const after = body['search_after'];
  if (after !== undefined) {
    if (!Array.isArray(after)) {
      throw parsingError(
        '[search_after] failed to parse field, expected an array'
      );
    }
    req.searchAfter = after;
    if (from > 0) {
      errors.push(
        '[from] parameter must be set to 0 when [search_after] is used'
      );
    }
  }
  if (body['pit'] !== undefined) {
    const parsed = pitSchema.safeParse(body['pit']);
    if (!parsed.success) {
      throw parsingError('[pit] failed to parse field [id]');
    }
    req.pit = {
      id: parsed.data.id,
      ...(parsed.data.keep_alive !== undefined
        ? { keepAlive: parsed.data.keep_alive }
        : {})
    };
    if (ex.params['index'] !== undefined) {
      errors.push(
        '[indices] cannot be used with point in time. Do not specify any index with point in time.'
      );
    }
  } else if (
    sort.some(s => s.name === '_shard_doc') &&
    !atLeast(version, 8, 19)
  ) {
    // A real 8.19 node sorts by _shard_doc without a point in time; earlier versions refuse it.
    errors.push(
      '[_shard_doc] sort field cannot be used without [point in time]'
    );
  }
  if (body['slice'] !== undefined) {
    req.slice = parseSlice(body['slice']);
  }
  if (errors.length > 0) {
    throw validationFailed(errors);
  }
  return req;
}
