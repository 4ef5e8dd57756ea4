/**
 * Counting from sorted doc values must not change a single answer: on random documents
 * (values missing, null, several to a document, numbers written as text), random writes
 * (index, delete, refresh) and old snapshots kept as points in time keep them, the
 * aggregations a sorted grid's far jump asks for (min, max, an `exists` filter, `filters` of
 * one-sided ranges) and their neighbours (two-sided ranges, value_count), under no query or a
 * filtering one, give exactly what reading every document gives, over one shard or two.
 */
import fc from 'fast-check';
import type { IndexData } from '../../src/elasticsearch/index-data';
import type { Json, JsonObject } from '../../src/elasticsearch/json-value';
import type { StoredDoc } from '../../src/elasticsearch/stored-doc';
import { countedAggregations } from '../../src/elasticsearch/search/counted-aggregations';
import { executeSearch } from '../../src/elasticsearch/search/execute';
import { compileQuery } from '../../src/elasticsearch/search/query';
import { NO_MATCH } from '../../src/elasticsearch/search/scorer';
import type { SearchRequest } from '../../src/elasticsearch/search/request';
import { stringifyJson } from '../../src/elasticsearch/long-json';
import { FULL_SOURCE } from '../../src/elasticsearch/source-filter';
import { ClusterState } from '../../src/elasticsearch/state';
import { parseVersion } from '../../src/elasticsearch/version';
import {
  applyWrites,
  numbersDoc,
  NUMBERS_MAPPING,
  type Write
} from './random-writes';

const VERSION = parseVersion('8.15.0');

const shard = fc.integer({ min: 0, max: 1 });
const op: fc.Arbitrary<Write> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('put' as const),
      shard,
      id: fc.integer({ min: 0, max: 30 }).map(String),
      doc: numbersDoc(true)
    })
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('remove' as const),
      shard,
      id: fc.integer({ min: 0, max: 30 }).map(String)
    })
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'refresh' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'keep' as const }) }
);

const field = fc.constantFrom('n', 'price', 'at');
const threshold = (f: string): fc.Arbitrary<Json> =>
  f === 'at'
    ? fc.oneof(
        fc.constantFrom<Json>(1704067200000, 1704067200001, 1719748800000),
        fc.constantFrom<Json>('2024-01-01', '2024-06-30T12:00:00Z')
      )
    : fc.oneof(
        fc.integer({ min: -6, max: 6 }),
        fc.constantFrom(2.5, -0.5, 4.75)
      );
const side = fc.constantFrom('gt', 'gte', 'lt', 'lte');

/** A range as the grid's counts send it: one bound, dates as epoch millis. */
const oneSided: fc.Arbitrary<Json> = field.chain(f =>
  fc.tuple(side, threshold(f)).map(([s, t]) => ({
    range: {
      [f]: {
        [s]: t,
        ...(f === 'at' && typeof t === 'number'
          ? { format: 'epoch_millis' }
          : {})
      }
    }
  }))
);
const twoSided: fc.Arbitrary<Json> = field.chain(f =>
  fc
    .tuple(
      fc.constantFrom('gt', 'gte'),
      threshold(f),
      fc.constantFrom('lt', 'lte'),
      threshold(f)
    )
    .map(([a, low, b, high]) => ({ range: { [f]: { [a]: low, [b]: high } } }))
);

/** The aggregations of a far jump, and a few around them. */
const aggs: fc.Arbitrary<JsonObject> = fc.oneof(
  field.map(f => ({
    low: { min: { field: f } },
    high: { max: { field: f } },
    present: { filter: { exists: { field: f } } }
  })),
  fc
    .array(fc.oneof({ weight: 4, arbitrary: oneSided }, twoSided), {
      minLength: 1,
      maxLength: 5
    })
    .map(parts => ({
      parts: {
        filters: {
          filters: Object.fromEntries(parts.map((p, i) => [`p${i}`, p]))
        }
      }
    })),
  field.map(f => ({ values: { value_count: { field: f } } }))
);

const query = fc.constantFrom<Json | undefined>(
  undefined,
  { match_all: {} },
  { term: { label: 'a' } },
  { range: { n: { gte: 0 } } },
  { bool: { must_not: [{ range: { price: { lt: 1 } } }] } }
);

function request(q: Json | undefined, a: JsonObject): SearchRequest {
  return {
    query: q,
    postFilter: undefined,
    from: 0,
    size: 0,
    sort: [],
    trackTotalHits: false,
    totalAsInt: false,
    source: FULL_SOURCE,
    version: false,
    seqNoPrimaryTerm: false,
    aggs: a
  };
}

function aggregated(
  shards: { index: IndexData; docs: StoredDoc[] }[],
  q: Json | undefined,
  a: JsonObject
): Json | undefined {
  return wire(
    executeSearch(shards, request(q, a), VERSION, {
      tookFrom: Date.now()
    }).body['aggregations']
  );
}

/** An answer as a client reads it (-0 prints as 0). */
function wire(value: unknown): Json | undefined {
  return value === undefined
    ? undefined
    : (JSON.parse(stringifyJson(value)) as Json);
}

function checkAll(ops: Write[], asked: [Json | undefined, JsonObject][]): void {
  const state = new ClusterState(VERSION);
  const indices = ['t', 'u'].map(name =>
    state.createIndex(name, NUMBERS_MAPPING, { refresh_interval: '-1' })
  );
  const kept = applyWrites(indices, ops);
  const current = indices.map(i => i.searchable());
  for (const views of [current, ...kept]) {
    const shards = indices.map((index, i) => ({
      index,
      docs: views[i] as StoredDoc[]
    }));
    for (const some of [shards, shards.slice(0, 1)]) {
      for (const [q, a] of asked) {
        // A copy of a snapshot is one no index knows: every document is read.
        const read = aggregated(
          some.map(s => ({ ...s, docs: s.docs.slice() })),
          q,
          a
        );
        expect(aggregated(some, q, a)).toEqual(read);
        const counted = countedAggregations(
          a,
          some.map(s => ({
            ...s,
            indexed: s.index.fieldIndexes.viewOf(s.docs),
            among: matchedPositions(s.index, s.docs, q)
          })),
          VERSION
        );
        if (counted !== undefined) {
          expect(wire(counted)).toEqual(read);
        }
        // The far jump's own aggregations, on the refreshed snapshot, are counted, not read.
        if (views === current && !hasTwoBounds(a)) {
          expect(counted).toBeDefined();
        }
      }
    }
  }
}

/** Where the query matches, by reading every document; undefined when it matches all. */
function matchedPositions(
  index: IndexData,
  docs: StoredDoc[],
  q: Json | undefined
): Int32Array | undefined {
  const query = compileQuery(q, { index, major: VERSION.major, docs });
  if (query.matchAll) {
    return undefined;
  }
  const out: number[] = [];
  docs.forEach((d, pos) => {
    if (query.run({ source: d.source, id: d.id }) !== NO_MATCH) {
      out.push(pos);
    }
  });
  return Int32Array.from(out);
}

function hasTwoBounds(a: JsonObject): boolean {
  const parts = JSON.stringify(a).match(/"range":\{"\w+":\{[^}]*\}/g) ?? [];
  return parts.some(p => /"(gt|gte)":/.test(p) && /"(lt|lte)":/.test(p));
}

it('counts and extremes from sorted doc values equal those read from every document', () => {
  fc.assert(
    fc.property(
      fc.array(op, { minLength: 1, maxLength: 60 }),
      fc.array(fc.tuple(query, aggs), { minLength: 1, maxLength: 5 }),
      checkAll
    ),
    { numRuns: 300 }
  );
});
