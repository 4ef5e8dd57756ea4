/**
 * Pages read from a field's sorted order must not change a single answer: on random documents
 * (values missing, null, several to a document, ties), random writes and kept snapshots, a
 * search sorted by a number or a date (then by `_shard_doc`, or by nothing), under no query or
 * the part of the order a sorted grid's far jump asks for (a range or its negation) or another
 * filter, from any offset and after any hit's sort values, gives exactly the hits, sort values
 * and total that ranking every match gives.
 */
import fc from 'fast-check';
import type { IndexData } from '../../src/elasticsearch/index-data';
import type { Json, JsonObject } from '../../src/elasticsearch/json-value';
import { stringifyJson } from '../../src/elasticsearch/long-json';
import type { StoredDoc } from '../../src/elasticsearch/stored-doc';
import { executeSearch } from '../../src/elasticsearch/search/execute';
import type { SearchRequest } from '../../src/elasticsearch/search/request';
import { parseSort } from '../../src/elasticsearch/search/sort';
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

const ops = (several: boolean): fc.Arbitrary<Write[]> =>
  fc.array(
    fc.oneof<fc.Arbitrary<Write>[]>(
      fc.record({
        kind: fc.constant('put' as const),
        id: fc.integer({ min: 0, max: 40 }).map(String),
        doc: numbersDoc(several)
      }),
      fc.record({
        kind: fc.constant('remove' as const),
        id: fc.integer({ min: 0, max: 40 }).map(String)
      }),
      fc.constant({ kind: 'refresh' as const }),
      fc.constant({ kind: 'keep' as const })
    ),
    { minLength: 1, maxLength: 60 }
  );

const field = fc.constantFrom('n', 'price', 'at');
const sortOf = fc
  .tuple(
    field,
    fc.constantFrom('asc', 'desc'),
    fc.constantFrom<Json[]>([], [{ _shard_doc: 'asc' }], [{ _doc: 'asc' }])
  )
  .map(([f, order, tie]): Json => [{ [f]: { order } }, ...tie]);

const bound = (f: string): fc.Arbitrary<Json> =>
  f === 'at'
    ? fc.constantFrom<Json>(1704067200000, 1719748800000, '2024-01-01')
    : fc.constantFrom<Json>(-4, -1, 0, 1, 2.5, 6);
const range: fc.Arbitrary<Json> = fc
  .tuple(field, fc.constantFrom('gt', 'gte', 'lt', 'lte'))
  .chain(([f, side]) =>
    bound(f).map((t): Json => ({ range: { [f]: { [side]: t } } }))
  );
const query = fc.oneof<fc.Arbitrary<Json | undefined>[]>(
  fc.constant(undefined),
  fc.constant({ match_all: {} }),
  range.map(r => ({ bool: { must_not: [r] } })),
  range.map(r => ({ bool: { filter: [r] } })),
  range,
  fc.constant({ term: { label: 'a' } })
);

interface Shown {
  total: unknown;
  hits: { id: unknown; score: unknown; sort: unknown }[];
}

function search(
  index: IndexData,
  docs: StoredDoc[],
  q: Json | undefined,
  sort: Json,
  from: number,
  size: number,
  after?: Json[]
): Shown {
  const req: SearchRequest = {
    query: q,
    postFilter: undefined,
    from,
    size,
    sort: parseSort(sort),
    trackTotalHits: true,
    totalAsInt: false,
    source: FULL_SOURCE,
    version: false,
    seqNoPrimaryTerm: false,
    ...(after ? { searchAfter: after } : {})
  };
  const { body } = executeSearch([{ index, docs }], req, VERSION, {
    tookFrom: Date.now()
  });
  // As a client reads the answer: -0 prints as 0, a missing long as Long.MAX_VALUE.
  const hits = JSON.parse(stringifyJson(body['hits'])) as {
    total: { value: number };
    hits: JsonObject[];
  };
  return {
    total: hits.total.value,
    hits: hits.hits.map(h => ({
      id: h['_id'],
      score: h['_score'],
      sort: h['sort']
    }))
  };
}

function checkAll(
  list: Write[],
  asked: [Json | undefined, Json, number, number, number][]
): void {
  const state = new ClusterState(VERSION);
  const index = state.createIndex('t', NUMBERS_MAPPING, {
    refresh_interval: '-1'
  });
  const kept = applyWrites([index], list).map(views => views[0] ?? []);
  for (const docs of [index.searchable(), ...kept]) {
    for (const [q, sort, from, size, afterHit] of asked) {
      // A copy of a snapshot is one no index knows: every match is ranked.
      const copy = docs.slice();
      const ranked = search(index, copy, q, sort, 0, docs.length + 1);
      expect(search(index, docs, q, sort, from, size)).toEqual(
        search(index, copy, q, sort, from, size)
      );
      const cut = ranked.hits[afterHit % Math.max(1, ranked.hits.length)];
      if (cut) {
        const after = cut.sort as Json[];
        expect(search(index, docs, q, sort, from, size, after)).toEqual(
          search(index, copy, q, sort, from, size, after)
        );
      }
    }
  }
}

const asked = fc.array(
  fc.tuple(
    query,
    sortOf,
    fc.integer({ min: 0, max: 5 }),
    fc.integer({ min: 1, max: 8 }),
    fc.nat()
  ),
  { minLength: 1, maxLength: 5 }
);

it('sorted pages read from the field order equal ranking every match, one value to a document', () => {
  fc.assert(fc.property(ops(false), asked, checkAll), { numRuns: 300 });
});

it('the same when some documents hold several values (then every match is ranked)', () => {
  fc.assert(fc.property(ops(true), asked, checkAll), { numRuns: 100 });
});
