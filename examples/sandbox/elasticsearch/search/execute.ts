/**
 * Runs a search over shards (one per index, or a PIT's snapshots): counts, pages, sorts,
 * search_after, aggregations. Index-order requests (match_all by score, `_doc`, `_shard_doc`)
 * jump straight to their page, so deep PIT exports stay cheap on large indices.
 */
import { shardFailure } from '../errors';
import type { Json, JsonObject } from '../exchange';
import type { IndexData, StoredDoc } from '../index-data';
import { makeSourceFilter } from '../source-filter';
import type { EsVersion } from '../version';
import { runAggregations, validateAggs, type AggDoc } from './aggregations';
import { compileQuery, NO_MATCH, type Query, type QueryEnv } from './query';
import type { SearchRequest } from './request';
import { bindSort, checkSearchAfter, compareTuples, type BoundSort, type SortSpec, type SortValue } from './sort';

export interface Shard {
  index: IndexData;
  docs: StoredDoc[];
}

interface Bound extends Shard {
  query: Query;
  post: Query | null;
  sort: BoundSort[];
  /** Global ordinal of this shard's first document: shard number in the high bits, as ES does. */
  base: number;
}

interface Hit {
  shard: Bound;
  pos: number;
  score: number;
  sort?: SortValue[];
}

const SHARD_SPAN = 2 ** 32;

/** Scores are Java floats in ES; print them with float precision, not as doubles. */
function asFloat(n: number | null): number | null {
  return n === null ? null : Number(Math.fround(n).toPrecision(8));
}

export interface SearchOutcome {
  body: JsonObject;
  warnings: string[];
}

export function executeSearch(shards: Shard[], req: SearchRequest, version: EsVersion, extra: { pitId?: string; tookFrom: number }): SearchOutcome {
  const warnings: string[] = [];
  const window = Math.min(...shards.map((s) => s.index.maxResultWindow), 10_000_000);
  if (shards.length > 0 && req.from + req.size > window) {
    const first = shards.find((s) => s.index.maxResultWindow === window) as Shard;
    throw shardFailure(400, {
      type: 'illegal_argument_exception',
      reason: `Result window is too large, from + size must be less than or equal to: [${window}] but was [${req.from + req.size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
    }, first.index);
  }
  validateAggs(req.aggs);
  const specs: SortSpec[] = req.sort.length > 0 ? req.sort : [{ name: '_score', order: -1, missing: '_last' }];
  const bound: Bound[] = shards.map((s, i) => {
    const env: QueryEnv = { index: s.index, major: version.major };
    const b: Bound = {
      ...s,
      query: compileQuery(req.query, env),
      post: req.postFilter !== undefined ? compileQuery(req.postFilter, env) : null,
      sort: bindSort(specs, s.index, version, env, (w) => warnings.push(w)),
      base: i * SHARD_SPAN,
    };
    if (req.searchAfter) checkSearchAfter(req.searchAfter, specs, s.index);
    return b;
  });

  const explicitSort = req.sort.length > 0;
  const allMatchAll = bound.every((b) => b.query.matchAll && !b.post) && req.minScore === undefined;
  const indexOrder =
    (specs.length === 1 && (specs[0]?.name === '_doc' || specs[0]?.name === '_shard_doc') && specs[0].order === 1) ||
    (!explicitSort && allMatchAll);

  const limit = req.trackTotalHits === true ? Infinity : req.trackTotalHits === false ? 0 : req.trackTotalHits;
  let total = 0;
  let hits: Hit[];
  let maxScore: number | null = null;

  const scoreOf = (b: Bound, doc: StoredDoc): number => {
    const view = { source: doc.source, id: doc.id };
    const s = b.query.run(view);
    if (s === NO_MATCH) return NO_MATCH;
    if (b.post && b.post.run(view) === NO_MATCH) return NO_MATCH;
    if (req.minScore !== undefined && s < req.minScore) return NO_MATCH;
    return s;
  };

  if (indexOrder) {
    if (allMatchAll) {
      total = bound.reduce((n, b) => n + b.docs.length, 0);
      maxScore = total > 0 ? (bound[0]?.query.run({ source: {} }) ?? 1) : null;
    } else if (limit > 0) {
      outer: for (const b of bound) {
        for (const doc of b.docs) {
          if (scoreOf(b, doc) !== NO_MATCH && ++total > limit) break outer;
        }
      }
    }
    const after = req.searchAfter?.[0];
    const startOrdinal = typeof after === 'number' ? after + 1 : 0;
    hits = [];
    let skip = req.from;
    for (const b of bound) {
      if (hits.length >= req.size) break;
      if (b.base + b.docs.length <= startOrdinal) continue;
      for (let pos = Math.max(0, startOrdinal - b.base); pos < b.docs.length && hits.length < req.size; pos++) {
        const doc = b.docs[pos] as StoredDoc;
        const score = allMatchAll ? (maxScore ?? 1) : scoreOf(b, doc);
        if (score === NO_MATCH) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
        hits.push({ shard: b, pos, score, ...(explicitSort ? { sort: [b.base + pos] } : {}) });
        if (!explicitSort && (maxScore === null || score > maxScore)) maxScore = score;
      }
    }
  } else {
    const matches: Hit[] = [];
    for (const b of bound) {
      for (let pos = 0; pos < b.docs.length; pos++) {
        const doc = b.docs[pos] as StoredDoc;
        const score = scoreOf(b, doc);
        if (score === NO_MATCH) continue;
        const view = { source: doc.source, id: doc.id };
        const sort = b.sort.map((k) => (k.kind === 'score' ? score : k.kind === 'doc' ? b.base + pos : (k.value as (v: typeof view) => SortValue)(view)));
        matches.push({ shard: b, pos, score, sort });
        if (maxScore === null || score > maxScore) maxScore = score;
      }
    }
    total = matches.length;
    const ordered = matches.sort((x, y) => compareTuples(specs, x.sort as SortValue[], y.sort as SortValue[]) || x.shard.base + x.pos - (y.shard.base + y.pos));
    let page = ordered;
    if (req.searchAfter) {
      const after = req.searchAfter.map((v) => (v === null || typeof v === 'number' || typeof v === 'string' ? v : String(v)));
      page = ordered.filter((h) => compareTuples(specs, h.sort as SortValue[], after) > 0);
    }
    hits = page.slice(req.from, req.from + req.size);
    if (!explicitSort) for (const h of hits) delete h.sort;
  }
  const scoresShown = !explicitSort || specs.some((s) => s.name === '_score');
  if (explicitSort && !specs.some((s) => s.name === '_score')) maxScore = null;

  const project = req.source.enabled ? makeSourceFilter(req.source) : null;
  const hitsJson = hits.map((h) => {
    const doc = h.shard.docs[h.pos] as StoredDoc;
    const out: JsonObject = { _index: h.shard.index.name };
    if (version.major === 7) out['_type'] = '_doc';
    out['_id'] = doc.id;
    if (req.version) out['_version'] = doc.version;
    if (req.seqNoPrimaryTerm) {
      out['_seq_no'] = doc.seqNo;
      out['_primary_term'] = 1;
    }
    out['_score'] = scoresShown ? asFloat(h.score) : null;
    if (req.source.enabled) out['_source'] = project ? project(doc.source) : doc.source;
    if (h.sort) out['sort'] = h.sort as Json[];
    return out;
  });

  const body: JsonObject = {};
  if (extra.pitId) body['pit_id'] = extra.pitId;
  body['took'] = Date.now() - extra.tookFrom;
  body['timed_out'] = false;
  body['_shards'] = { total: shards.length, successful: shards.length, skipped: 0, failed: 0 };
  const hitsBody: JsonObject = {};
  if (req.trackTotalHits !== false) {
    const capped = total > limit;
    hitsBody['total'] = req.totalAsInt ? total : { value: capped ? limit : total, relation: capped ? 'gte' : 'eq' };
  }
  hitsBody['max_score'] = asFloat(maxScore);
  hitsBody['hits'] = hitsJson;
  body['hits'] = hitsBody;
  if (req.aggs) {
    const docs: AggDoc[] = [];
    for (const b of bound) {
      for (const doc of b.docs) {
        const view = { source: doc.source, id: doc.id };
        if (b.query.matchAll || b.query.run(view) !== NO_MATCH) docs.push({ view, index: b.index });
      }
    }
    body['aggregations'] = runAggregations(req.aggs, docs, version);
  }
  return { body, warnings };
}

/** Counts matches for `_count` and delete_by_query. */
export function matchingDocs(shard: Shard, query: Json | undefined, version: EsVersion): StoredDoc[] {
  const q = compileQuery(query, { index: shard.index, major: version.major });
  if (q.matchAll) return shard.docs;
  return shard.docs.filter((d) => q.run({ source: d.source, id: d.id }) !== NO_MATCH);
}
