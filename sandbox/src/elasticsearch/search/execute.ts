/**
 * Runs a search over shards (one per index, or a PIT's snapshots): counts, pages, sorts,
 * search_after, aggregations. Index-order requests (match_all by score, `_doc`, `_shard_doc`)
 * jump straight to their page, so deep PIT exports stay cheap on large indices. Other
 * requests rank all their hits once per snapshot (kept in the ranked cache) and slice pages.
 */
import { shardFailure } from '../errors';
import type { Json, JsonObject } from '../json-value';
import type { Shard } from '../index-data';
import type { StoredDoc } from '../stored-doc';
import type { EsVersion } from '../version';
import { numberOf } from '../long-json';
import { runAggregations, validateAggs, type AggDoc } from './aggregations';
import { compileQuery } from './query';
import { countedAggregations } from './counted-aggregations';
import { pageInColumnOrder } from './column-sorted-page';
import type { Query, QueryEnv } from './query-scorers';
import { NO_MATCH } from './scorer';
import {
  pageOf,
  rankHits,
  shardOf,
  tupleAt,
  type CollectedHits,
  type RankedHits
} from './rank';
import { topHits } from './top-hits';
import type { RankedCache } from './ranked-cache';
import { MatchesBuilder, withMatches, type DocMatches } from './scorer';
import { collapseKey } from './hit-extras';
import { asFloat, printedHits } from './hit-json';
import { luceneDocIds, type DocIds } from './lucene-doc-ids';
import type { SearchRequest } from './request';
import {
  bindSort,
  checkSearchAfter,
  type BoundSort,
  type SortSpec,
  type SortValue
} from './sort';
import type { IndexedView } from './field-indexes';
import type { DocView } from './values';

interface Bound extends Shard {
  indexed: IndexedView | undefined;
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
/** A page reaching past this many hits is sliced from a full ranking, not selected. */
const TOP_HITS_AT_MOST = 10_000;

export interface SearchOutcome {
  body: JsonObject;
  warnings: string[];
}

export function executeSearch(
  shards: Shard[],
  req: SearchRequest,
  version: EsVersion,
  extra: {
    pitId?: string;
    tookFrom: number;
    cache?: RankedCache;
    scroll?: boolean;
  }
): SearchOutcome {
  const warnings: string[] = [];
  const window = Math.min(
    ...shards.map(s => s.index.maxResultWindow),
    10_000_000
  );
  // A scroll's later pages lie past the window: only its first page is held to it.
  if (
    shards.length > 0 &&
    req.from + req.size > window &&
    !(extra.scroll && req.from > 0)
  ) {
    const first = shards.find(s => s.index.maxResultWindow === window) as Shard;
    throw shardFailure(
      400,
      {
        type: 'illegal_argument_exception',
        reason: `Result window is too large, from + size must be less than or equal to: [${window}] but was [${req.from + req.size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`
      },
      first.index
    );
  }
  validateAggs(req.aggs);
  // Under a point in time ES appends the implicit `_shard_doc` tie-breaker to an explicit sort (its value shows in each hit's sort).
  const pitTieBreaker =
    extra.pitId !== undefined &&
    req.sort.length > 0 &&
    !req.sort.some(s => s.name === '_shard_doc' || s.name === '_doc');
  const specs: SortSpec[] =
    req.sort.length > 0
      ? pitTieBreaker
        ? [...req.sort, { name: '_shard_doc', order: 1, missing: '_last' }]
        : req.sort
      : [{ name: '_score', order: -1, missing: '_last' }];
  const scoresRead =
    req.sort.length === 0 ||
    specs.some(s => s.name === '_score') ||
    req.minScore !== undefined;
  const bound: Bound[] = shards.map((s, i) => {
    const indexed = s.index.fieldIndexes.viewOf(s.docs);
    const env: QueryEnv = {
      index: s.index,
      major: version.major,
      docs: s.docs,
      scores: scoresRead,
      ...(indexed ? { indexed } : {})
    };
    const boost =
      req.indicesBoost?.get(s.index.name) ??
      [...s.index.aliases.keys()]
        .map(a => req.indicesBoost?.get(a))
        .find(v => v !== undefined) ??
      1;
    const compiled = compileQuery(req.query, env);
    const b: Bound = {
      ...s,
      query: boost === 1 ? compiled : boosted(compiled, boost),
      post:
        req.postFilter !== undefined
          ? compileQuery(req.postFilter, { ...env, scores: false })
          : null,
      sort: bindSort(specs, s.index, version, env, w => warnings.push(w)),
      base: i * SHARD_SPAN,
      indexed
    };
    if (req.searchAfter) {
      checkSearchAfter(req.searchAfter, specs, s.index);
    }
    return b;
  });

  // `_doc` / `_shard_doc` values are Lucene document ids on the wire, ordinals (shard base + position) inside.
  const docKeys = specs
    .map((s, k) => (s.name === '_doc' || s.name === '_shard_doc' ? k : -1))
    .filter(k => k >= 0);
  const idsOf =
    docKeys.length > 0 ? bound.map(b => luceneDocIds(b.index, b.docs)) : [];
  if (req.searchAfter && docKeys.length > 0) {
    req = {
      ...req,
      searchAfter: req.searchAfter.map((v, k) => {
        if (!docKeys.includes(k) || typeof v !== 'number') {
          return v;
        }
        const shardNo = Math.floor(v / SHARD_SPAN);
        const ids = idsOf[shardNo];
        return ids
          ? shardNo * SHARD_SPAN + ids.posAtOrBefore(v - shardNo * SHARD_SPAN)
          : v;
      })
    };
  }
  const explicitSort = req.sort.length > 0;
  const allMatchAll =
    bound.every(b => b.query.matchAll && !b.post) && req.minScore === undefined;
  // search_after names an ordinal only under a _doc sort; under match_all's score it is a score.
  const indexOrder =
    (specs.length === 1 &&
      (specs[0]?.name === '_doc' || specs[0]?.name === '_shard_doc') &&
      specs[0].order === 1) ||
    (!explicitSort && allMatchAll && !req.searchAfter && !req.collapse);
  const reversedIndexOrder =
    specs.length === 1 &&
    (specs[0]?.name === '_doc' || specs[0]?.name === '_shard_doc') &&
    specs[0].order === -1 &&
    !req.collapse;

  const limit =
    req.trackTotalHits === true
      ? Infinity
      : req.trackTotalHits === false
        ? 0
        : req.trackTotalHits;
  let total = 0;
  let hits: Hit[];
  let maxScore: number | null = null;

  const scoreOf = (b: Bound, doc: StoredDoc): number => {
    const view = viewOf(doc);
    const s = b.query.run(view);
    if (s === NO_MATCH) {
      return NO_MATCH;
    }
    if (b.post && b.post.run(view) === NO_MATCH) {
      return NO_MATCH;
    }
    if (req.minScore !== undefined && s < req.minScore) {
      return NO_MATCH;
    }
    return s;
  };

  if (indexOrder || reversedIndexOrder) {
    if (allMatchAll) {
      total = bound.reduce((n, b) => n + b.docs.length, 0);
      maxScore = total > 0 ? (bound[0]?.query.run({ source: {} }) ?? 1) : null;
    } else if (limit > 0) {
      outer: for (const b of bound) {
        for (const doc of b.docs) {
          if (scoreOf(b, doc) !== NO_MATCH && ++total > limit) {
            break outer;
          }
        }
      }
    }
    const after = req.searchAfter?.[0];
    hits = [];
    let skip = req.from;
    const take = (b: Bound, pos: number): void => {
      const doc = b.docs[pos] as StoredDoc;
      const score = allMatchAll ? (maxScore ?? 1) : scoreOf(b, doc);
      if (score === NO_MATCH) {
        return;
      }
      if (skip > 0) {
        skip--;
        return;
      }
      (hits as Hit[]).push({
        shard: b,
        pos,
        score,
        ...(explicitSort ? { sort: [b.base + pos] } : {})
      });
      if (!explicitSort && (maxScore === null || score > maxScore)) {
        maxScore = score;
      }
    };
    if (reversedIndexOrder) {
      // From the last document back: the reversed index order needs no sort either.
      const startOrdinal = typeof after === 'number' ? after - 1 : Infinity;
      for (let s = bound.length - 1; s >= 0; s--) {
        const b = bound[s] as Bound;
        for (
          let pos = Math.min(b.docs.length - 1, startOrdinal - b.base);
          pos >= 0 && hits.length < req.size;
          pos--
        ) {
          take(b, pos);
        }
      }
    } else {
      const startOrdinal = typeof after === 'number' ? after + 1 : 0;
      for (const b of bound) {
        for (
          let pos = Math.max(0, startOrdinal - b.base);
          pos < b.docs.length && hits.length < req.size;
          pos++
        ) {
          take(b, pos);
        }
      }
    }
  } else {
    const key = extra.cache?.keyOf(shards, {
      query: req.query,
      postFilter: req.postFilter,
      ...(req.minScore !== undefined ? { minScore: req.minScore } : {}),
      sort: specs
    });
    // A document without the value is printed with Long.MAX_VALUE or Long.MIN_VALUE in its `sort`;
    // sent back in search_after, that stands for "missing", which then ties with every other
    // missing value and the tie-breaker decides, as in Elasticsearch.
    const after = req.searchAfter?.map((v, k) => {
      const shown = bound.find(b => b.sort[k]?.missingShown)?.sort[k]
        ?.missingShown;
      if (
        shown !== undefined &&
        v !== null &&
        numberOf(v) === numberOf(shown)
      ) {
        return null;
      }
      return v === null || typeof v === 'number' || typeof v === 'string'
        ? v
        : String(v);
    });
    // Sorted by one numeric or date field on one shard: the page is read from the field's order.
    const only = bound.length === 1 ? bound[0] : undefined;
    const columnPage =
      only &&
      !only.post &&
      !req.collapse &&
      !req.trackScores &&
      req.minScore === undefined
        ? pageInColumnOrder(
            only,
            specs,
            {
              json: req.query,
              run: only.query.run,
              matched: () =>
                only.query.matchAll ? undefined : queryMatches(only).positions
            },
            after,
            req.from,
            req.size
          )
        : undefined;
    let ranked =
      key !== undefined && !columnPage ? extra.cache?.get(key) : undefined;
    const collected =
      ranked || columnPage ? undefined : collectBound(bound, req.minScore);
    if (columnPage && only) {
      total = columnPage.total;
      hits = columnPage.hits.map(h => ({
        shard: only,
        pos: h.pos,
        score: 1,
        sort: h.sort
      }));
    } else if (
      // A search's first page, or any page of one too large to keep ranked, is a top-k selection;
      // the same search asked again (its next page) is ranked once and kept for the pages after.
      collected &&
      !req.collapse &&
      req.from + req.size <= TOP_HITS_AT_MOST &&
      (key === undefined ||
        !extra.cache?.askedBefore(key) ||
        !extra.cache.holds(collected.hits.length))
    ) {
      const { hits: all, kinds, fieldValue } = collected;
      const top = topHits(
        all,
        specs,
        kinds,
        bound.map(b => b.base),
        fieldValue,
        after,
        req.from + req.size
      );
      total = all.length;
      for (let i = 0; i < all.length; i++) {
        const s = all.score[i] as number;
        if (maxScore === null || s > maxScore) {
          maxScore = s;
        }
      }
      hits = top.order.slice(req.from).map((i, r) => ({
        shard: bound[shardOf(all, i)] as Bound,
        pos: all.pos[i] as number,
        score: all.score[i] as number,
        ...(explicitSort
          ? { sort: top.tuples[req.from + r] as SortValue[] }
          : {})
      }));
    } else {
      if (!ranked) {
        const {
          hits: all,
          kinds,
          fieldValue
        } = collected as NonNullable<typeof collected>;
        ranked = rankHits(
          all,
          specs,
          kinds,
          bound.map(b => b.base),
          fieldValue
        );
        if (key !== undefined) {
          extra.cache?.set(key, ranked);
        }
      }
      total = ranked.length;
      maxScore = ranked.maxScore;
      const r = ranked;
      const page = req.collapse
        ? collapsedPage(r, bound, req.collapse, req.from, req.size)
        : pageOf(r, specs, after, req.from, req.size);
      hits = page.map(i => ({
        shard: bound[shardOf(r, i)] as Bound,
        pos: r.pos[i] as number,
        score: r.score[i] as number,
        ...(explicitSort ? { sort: tupleAt(r, i) } : {})
      }));
    }
  }
  const scoresShown = !explicitSort || specs.some(s => s.name === '_score');
  // No page collected (size 0), or any explicit sort (ES tracks max_score only for its default score order): no max_score.
  const scoreOrder =
    specs.length === 1 && specs[0]?.name === '_score' && specs[0].order === -1;
  // 7.x reports no max_score for a collapsed search (7.17.29 gives null, 8.19.21 the score).
  if (
    (explicitSort && !scoreOrder && !req.trackScores) ||
    req.size === 0 ||
    total === 0 ||
    (req.collapse && version.major === 7)
  ) {
    maxScore = null;
  }
  // No shard searched at all (every index unavailable and ignored): ES reports 0.
  if (shards.length === 0 && !explicitSort) {
    maxScore = 0;
  }

  const hitsJson = printedHits(hits, {
    req,
    major: version.major,
    scoresShown,
    docKeys,
    idsOf: shard => idsOf[bound.indexOf(shard as Bound)] as DocIds
  });

  const body: JsonObject = {};
  if (extra.pitId) {
    body['pit_id'] = extra.pitId;
  }
  body['took'] = Date.now() - extra.tookFrom;
  body['timed_out'] = false;
  body['_shards'] = {
    total: shards.length,
    successful: shards.length,
    skipped: 0,
    failed: 0
  };
  const hitsBody: JsonObject = {};
  if (req.trackTotalHits !== false) {
    const capped = total > limit;
    hitsBody['total'] = req.totalAsInt
      ? total
      : { value: capped ? limit : total, relation: capped ? 'gte' : 'eq' };
  }
  hitsBody['max_score'] = asFloat(maxScore);
  hitsBody['hits'] = hitsJson as unknown as Json;
  body['hits'] = hitsBody;
  if (req.aggs) {
    // Where each shard's query matched (undefined: everywhere), for counts read from doc values.
    const searched = bound.map(b => ({
      ...b,
      among: b.query.matchAll ? undefined : queryMatches(b).positions
    }));
    const counted = countedAggregations(req.aggs, searched, version);
    const docs: AggDoc[] = [];
    for (const b of counted ? [] : searched) {
      // Aggregations see every document the query matches (match_all whatever its boost).
      if (b.among === undefined) {
        for (const doc of b.docs) {
          docs.push({ view: viewOf(doc), index: b.index });
        }
        continue;
      }
      for (let i = 0; i < b.among.length; i++) {
        docs.push({
          view: viewOf(b.docs[b.among[i] as number] as StoredDoc),
          index: b.index
        });
      }
    }
    body['aggregations'] =
      counted ??
      runAggregations(
        req.aggs,
        docs,
        version,
        bound.map(b => b.index)
      );
  }
  return { body, warnings };
}

/** collapse: the first hit (in rank order) of each value of the field, then from/size over those. */
function collapsedPage(
  r: RankedHits,
  bound: Bound[],
  field: string,
  from: number,
  size: number
): number[] {
  const seen = new Set<string>();
  const kept: number[] = [];
  for (let i = 0; i < r.length && kept.length < from + size; i++) {
    const b = bound[shardOf(r, i)] as Bound;
    const key = collapseKey(
      field,
      b.index,
      viewOf(b.docs[r.pos[i] as number] as StoredDoc)
    );
    if (seen.has(key)) {
      continue;
    }
    seen.add(key);
    kept.push(i);
  }
  return kept.slice(from, from + size);
}

/** indices_boost: the index's scores times its factor (as a float, like every score). */
function boosted(query: Query, boost: number): Query {
  const run = query.run;
  const times = (s: number): number =>
    s === NO_MATCH ? NO_MATCH : Math.fround(s * boost);
  const matches = run.matches;
  // Not matchAll any more: index-order paging would give every index the first one's score.
  return {
    matchAll: false,
    run: withMatches(
      view => times(run(view)),
      matches
        ? snapshot => {
            const m = matches(snapshot);
            return {
              positions: m.positions,
              scores: Float64Array.from(m.scores, times)
            };
          }
        : undefined
    )
  };
}

function viewOf(doc: StoredDoc): DocView {
  return { source: doc.source, id: doc.id, seq: doc.seqNo };
}

/** Every document of the shard the query matches, ascending, with its score. */
function queryMatches(b: {
  docs: StoredDoc[];
  query: Query;
  indexed: IndexedView | undefined;
}): DocMatches {
  if (b.query.matchAll) {
    const out = new MatchesBuilder(b.docs.length);
    const score = b.query.run({ source: {} });
    for (let pos = 0; pos < b.docs.length; pos++) {
      out.push(pos, score);
    }
    return out.build();
  }
  const fromIndex = b.indexed && b.query.run.matches;
  if (fromIndex) {
    return fromIndex(b.indexed as IndexedView);
  }
  const out = new MatchesBuilder();
  for (let pos = 0; pos < b.docs.length; pos++) {
    out.push(pos, b.query.run(viewOf(b.docs[pos] as StoredDoc)));
  }
  return out.build();
}

/** All hits of the search (post_filter and min_score applied), in global ordinal order, and how to read their sort values. */
function collectBound(
  bound: Bound[],
  minScore: number | undefined
): {
  hits: CollectedHits;
  kinds: BoundSort['kind'][];
  fieldValue: (k: number, i: number) => SortValue;
} {
  const perShard = bound.map(b => keptHits(b, queryMatches(b), minScore));
  const length = perShard.reduce((n, m) => n + m.positions.length, 0);
  let hits: CollectedHits;
  if (perShard.length === 1) {
    // One shard: its matches are the hits as they are (no copy of arrays that can be millions long).
    const only = perShard[0] as DocMatches;
    hits = { shard: null, pos: only.positions, score: only.scores, length };
  } else {
    const shard = new Uint16Array(length);
    const pos = new Int32Array(length);
    const score = new Float64Array(length);
    let at = 0;
    perShard.forEach((m, shardNo) => {
      shard.fill(shardNo, at, at + m.positions.length);
      pos.set(m.positions, at);
      score.set(m.scores, at);
      at += m.positions.length;
    });
    hits = { shard, pos, score, length };
  }
  return {
    hits,
    kinds: (bound[0]?.sort ?? []).map(k => k.kind),
    fieldValue: (k, i) => {
      const b = bound[shardOf(hits, i)] as Bound;
      const read = (b.sort[k] as BoundSort).value as (
        view: DocView
      ) => SortValue;
      return read(viewOf(b.docs[hits.pos[i] as number] as StoredDoc));
    }
  };
}

/** The query's matches that pass post_filter and min_score. */
function keptHits(
  b: Bound,
  m: DocMatches,
  minScore: number | undefined
): DocMatches {
  if (!b.post && minScore === undefined) {
    return m;
  }
  const out = new MatchesBuilder(m.positions.length);
  for (let i = 0; i < m.positions.length; i++) {
    const p = m.positions[i] as number;
    const s = m.scores[i] as number;
    if (b.post && b.post.run(viewOf(b.docs[p] as StoredDoc)) === NO_MATCH) {
      continue;
    }
    if (minScore !== undefined && s < minScore) {
      continue;
    }
    out.push(p, s);
  }
  return out.build();
}

/** Matching documents for `_count` and delete_by_query. */
export function matchingDocs(
  shard: Shard,
  query: Json | undefined,
  version: EsVersion
): StoredDoc[] {
  const indexed = shard.index.fieldIndexes.viewOf(shard.docs);
  const q = compileQuery(query, {
    index: shard.index,
    major: version.major,
    docs: shard.docs,
    scores: false,
    ...(indexed ? { indexed } : {})
  });
  if (q.matchAll) {
    return shard.docs;
  }
  const m = queryMatches({ docs: shard.docs, query: q, indexed });
  return Array.from(m.positions, p => shard.docs[p] as StoredDoc);
}
