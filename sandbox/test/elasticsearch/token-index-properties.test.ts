/**
 * The token index must not change a single answer: on random documents, random writes
 * (index, update, delete, refresh) and random text queries, the indexed scorers (per
 * document and listing all matches at once) give exactly what the _source-reading scorers
 * give, on the current snapshot and on older ones (as points in time keep), and search
 * pages (from/size, search_after, through the ranked cache) are the brute-force ranking.
 */
import fc from 'fast-check';
import type { Json, JsonObject } from '../../src/elasticsearch/json-value';
import type { IndexData } from '../../src/elasticsearch/index-data';
import type { StoredDoc } from '../../src/elasticsearch/stored-doc';
import { stringifyJson } from '../../src/elasticsearch/long-json';
import { executeSearch } from '../../src/elasticsearch/search/execute';
import { compileQuery } from '../../src/elasticsearch/search/query';
import { NO_MATCH } from '../../src/elasticsearch/search/scorer';
import { type RankedCache } from '../../src/elasticsearch/search/ranked-cache';
import { parseSort } from '../../src/elasticsearch/search/sort';
import type { SearchRequest } from '../../src/elasticsearch/search/request';
import { FULL_SOURCE } from '../../src/elasticsearch/source-filter';
import { ClusterState } from '../../src/elasticsearch/state';
import { parseVersion } from '../../src/elasticsearch/version';

const VERSION = parseVersion('8.15.0');
const WORDS = [
  'red',
  'blue',
  'widget',
  'gadget',
  'deluxe',
  'the',
  'x1',
  "o'neil"
];

const MAPPING: JsonObject = {
  properties: {
    title: {
      type: 'text',
      fields: { keyword: { type: 'keyword', ignore_above: 256 } }
    },
    body: { type: 'text' },
    tag: { type: 'keyword', fields: { text: { type: 'text' } } },
    n: { type: 'long' },
    price: { type: 'float' },
    when: { type: 'date' },
    flag: { type: 'boolean' },
    meta: { properties: { note: { type: 'text' } } },
    variants: { type: 'nested', properties: { name: { type: 'text' } } }
  }
};

// ---- documents ------------------------------------------------------------------------------

const word = fc.constantFrom(...WORDS, 'Red', 'WIDGET', 'Gadget!');
const phrase = fc
  .tuple(
    fc.array(word, { minLength: 0, maxLength: 6 }),
    fc.constantFrom(' ', ', ', ' - ')
  )
  .map(([ws, sep]) => ws.join(sep));
const textValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 5, arbitrary: phrase },
  { weight: 2, arbitrary: fc.array(phrase, { minLength: 1, maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constant('') }
);

const doc: fc.Arbitrary<JsonObject> = fc.record(
  {
    title: textValue,
    body: textValue,
    tag: fc.constantFrom('sale', 'new', 'Red widget'),
    n: fc.integer({ min: 0, max: 5 }),
    price: fc.oneof(
      fc.constantFrom(0.5, 1, 2.25, -1),
      fc.array(fc.constantFrom(0.5, 1, 3), { maxLength: 3 })
    ),
    when: fc.constantFrom('2024-01-01', '2024-06-30T12:00:00Z', 1700000000000, [
      '2023-01-01',
      '2025-01-01'
    ]),
    flag: fc.constantFrom(true, false, 'true', [true, false]),
    meta: fc.record({ note: textValue }),
    variants: fc.array(fc.record({ name: phrase }), { maxLength: 2 }),
    extra: phrase
  },
  { requiredKeys: ['title'] }
) as fc.Arbitrary<JsonObject>;

type Op =
  | { kind: 'put'; id: string; doc: JsonObject }
  | { kind: 'remove'; id: string }
  | { kind: 'refresh' }
  | { kind: 'keep' };

/** Writes over `ids`: a few ids give many overwrites, many ids larger snapshots. */
function opOver(ids: fc.Arbitrary<string>, puts: number): fc.Arbitrary<Op> {
  return fc.oneof(
    {
      weight: puts,
      arbitrary: fc.record({ kind: fc.constant('put' as const), id: ids, doc })
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('remove' as const), id: ids })
    },
    { weight: 2, arbitrary: fc.constant({ kind: 'refresh' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'keep' as const }) }
  );
}

// ---- queries --------------------------------------------------------------------------------

const textField = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('title', 'body') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'tag.text',
      'meta.note',
      'extra',
      'variants.name'
    )
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('title.keyword', 'tag', 'n', 'missing')
  }
);
const queryText = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .array(word, { minLength: 1, maxLength: 3 })
      .map(ws => ws.join(' '))
  },
  { weight: 1, arbitrary: fc.constantFrom('', '!!', 'Red widget') }
);

const leafQuery: fc.Arbitrary<Json> = fc.oneof<fc.Arbitrary<Json>[]>(
  fc.record({
    match: fc.dictionary(textField, queryText, { minKeys: 1, maxKeys: 1 })
  }),
  fc
    .tuple(
      textField,
      queryText,
      fc.constantFrom('or', 'and'),
      fc.constantFrom(undefined, '1', '2', '-1', '50%'),
      fc.constantFrom(1, 2, 0.5)
    )
    .map(([f, q, operator, msm, boost]) => ({
      match: {
        [f]: {
          query: q,
          operator,
          boost,
          ...(msm !== undefined ? { minimum_should_match: msm } : {}),
          lenient: true
        }
      }
    })),
  fc
    .tuple(textField, queryText)
    .map(([f, q]) => ({ match_phrase: { [f]: q } })),
  fc
    .tuple(textField, queryText, fc.constantFrom('', 'r', 'wid', 'x'))
    .map(([f, q, tail]) => ({
      match_phrase_prefix: { [f]: `${q} ${tail}`.trim() }
    })),
  fc
    .tuple(
      fc.subarray([
        'title',
        'body^2',
        'meta.note',
        'tag',
        'title.keyword',
        'extra',
        'variants.name'
      ]),
      queryText,
      fc.constantFrom('best_fields', 'most_fields', 'phrase', 'phrase_prefix'),
      fc.constantFrom('or', 'and')
    )
    .map(([fields, q, type, operator]) => ({
      multi_match: { query: q, fields, type, operator, lenient: true }
    })),
  fc.tuple(textField, word, fc.boolean()).map(([f, w, ci]) => ({
    term: { [f]: { value: w, case_insensitive: ci } }
  })),
  fc
    .tuple(
      fc.constantFrom('title', 'body', 'tag'),
      fc.array(word, { minLength: 1, maxLength: 3 })
    )
    .map(([f, ws]) => ({ terms: { [f]: ws } })),
  fc
    .constantFrom(
      'red',
      'red AND widget',
      'title:red OR body:"red widget"',
      'wid*',
      'widget AND NOT deluxe',
      '(red OR blue) AND gadget^2',
      '"the red"',
      '+widget -blue'
    )
    .chain(qs =>
      fc
        .constantFrom(undefined, 'title,body', 'title^3')
        .map((fields): Json => ({
          query_string: {
            query: qs,
            ...(fields ? { fields: fields.split(',') } : {})
          }
        }))
    ),
  fc.constant({ match_all: {} }),
  fc
    .tuple(
      fc.constantFrom('n', 'price', 'when', 'flag'),
      fc.constantFrom(0, 1, 2.25, 3, '2024-03-01', true)
    )
    .chain(([f, v]) =>
      fc.constantFrom<Json>(
        { range: { [f]: { gte: v } } },
        { range: { [f]: { gt: v, lte: 4 } } },
        { term: { [f]: v } },
        { terms: { [f]: [v, 1] } }
      )
    ),
  fc.tuple(queryText).map(([q]) => ({
    nested: { path: 'variants', query: { match: { 'variants.name': q } } }
  }))
);

const query: fc.Arbitrary<Json> = fc.letrec(tie => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafQuery,
    tie('bool'),
    tie('wrapped')
  ),
  bool: fc
    .record(
      {
        must: fc.array(tie('q'), { maxLength: 2 }),
        filter: fc.array(tie('q'), { maxLength: 1 }),
        should: fc.array(tie('q'), { maxLength: 3 }),
        must_not: fc.array(tie('q'), { maxLength: 1 }),
        minimum_should_match: fc.constantFrom(0, 1, 2, '50%')
      },
      { requiredKeys: [] }
    )
    .map(b => ({ bool: b })),
  wrapped: fc.oneof(
    tie('q').map(q => ({ constant_score: { filter: q, boost: 2 } })),
    fc
      .array(tie('q'), { minLength: 1, maxLength: 3 })
      .map(qs => ({ dis_max: { queries: qs } }))
  )
})).q as fc.Arbitrary<Json>;

// ---- the reference ----------------------------------------------------------------------------

/** What the scorers give reading _source only: every document scored in turn. */
function bruteForce(
  index: IndexData,
  docs: StoredDoc[],
  q: Json
): { pos: number; score: number }[] {
  const run = compileQuery(q, { index, major: 8, docs }).run;
  const out: { pos: number; score: number }[] = [];
  docs.forEach((d, pos) => {
    const score = run({ source: d.source, id: d.id });
    if (score !== NO_MATCH) {
      out.push({ pos, score });
    }
  });
  return out;
}

function compileError(index: IndexData, q: Json): boolean {
  try {
    compileQuery(q, { index, major: 8 });
    return false;
  } catch {
    return true;
  }
}

function checkScorers(index: IndexData, docs: StoredDoc[], q: Json): void {
  const expected = bruteForce(index, docs, q);
  const indexed = index.fieldIndexes.viewOf(docs);
  if (!indexed) {
    return;
  }
  const compiled = compileQuery(q, { index, major: 8, indexed }).run;
  const perDoc: { pos: number; score: number }[] = [];
  docs.forEach((d, pos) => {
    const score = compiled({ source: d.source, id: d.id, seq: d.seqNo });
    if (score !== NO_MATCH) {
      perDoc.push({ pos, score });
    }
  });
  expect(perDoc).toEqual(expected);
  if (compiled.matches) {
    const m = compiled.matches(indexed);
    expect(
      Array.from(m.positions, (pos, i) => ({ pos, score: m.scores[i] }))
    ).toEqual(expected);
  }
}

const asFloat = (n: number): number => Number(Math.fround(n).toPrecision(8));

function request(
  q: Json,
  from: number,
  size: number,
  searchAfter?: Json[]
): SearchRequest {
  return {
    query: q,
    postFilter: undefined,
    from,
    size,
    sort: [],
    trackTotalHits: true,
    totalAsInt: false,
    source: FULL_SOURCE,
    version: false,
    seqNoPrimaryTerm: false,
    ...(searchAfter ? { searchAfter } : {})
  };
}

function checkPages(
  index: IndexData,
  docs: StoredDoc[],
  q: Json,
  cache: RankedCache
): void {
  const expected = bruteForce(index, docs, q).sort(
    (a, b) => b.score - a.score || a.pos - b.pos
  );
  const ids = expected.map(h => docs[h.pos]?.id);
  const shard = [{ index, docs }];
  const search = (
    from: number,
    size: number,
    after?: Json[]
  ): { ids: unknown[]; scores: unknown[]; total: unknown } => {
    const { body } = executeSearch(
      shard,
      request(q, from, size, after),
      VERSION,
      { tookFrom: Date.now(), cache }
    );
    // As a client reads the answer.
    const hits = JSON.parse(stringifyJson(body['hits'])) as {
      hits: JsonObject[];
      total: { value: number };
    };
    return {
      ids: hits.hits.map(h => h['_id']),
      scores: hits.hits.map(h => h['_score']),
      total: hits.total.value
    };
  };
  const everything = expected.length + 1;
  const all = search(0, everything);
  expect(all.ids).toEqual(ids);
  expect(all.scores).toEqual(expected.map(h => asFloat(h.score)));
  expect(all.total).toBe(expected.length);
  // The next pages come from the ranked cache.
  expect(search(2, 3).ids).toEqual(ids.slice(2, 5));
  if (expected.length > 1) {
    const cut = expected[1] as { score: number };
    const afterScore = search(0, everything, [cut.score]);
    expect(afterScore.ids).toEqual(
      expected.filter(h => h.score < cut.score).map(h => docs[h.pos]?.id)
    );
  }
}

/** Explicit sorts read doc-values columns: the same hits, scores and sort values as an unindexed copy of the snapshot. */
const SORTS: Json[] = [
  [{ n: 'desc' }],
  [{ n: { order: 'asc', missing: '_first' } }, { _score: 'desc' }],
  [{ price: { order: 'desc', mode: 'avg' } }],
  [{ price: { order: 'asc', mode: 'sum', missing: 0 } }, { when: 'desc' }],
  [{ flag: 'asc' }, { 'title.keyword': 'desc' }, { _doc: 'asc' }]
];

function checkSorted(
  index: IndexData,
  docs: StoredDoc[],
  q: Json,
  cache: RankedCache
): void {
  for (const sortJson of SORTS) {
    const sort = parseSort(sortJson);
    const run = (
      snapshot: StoredDoc[],
      withCache: boolean,
      after?: Json[]
    ): { id: unknown; score: unknown; sort: unknown }[] => {
      const req = { ...request(q, 0, docs.length + 1, after), sort };
      const { body } = executeSearch(
        [{ index, docs: snapshot }],
        req,
        VERSION,
        { tookFrom: Date.now(), ...(withCache ? { cache } : {}) }
      );
      const hits = JSON.parse(stringifyJson(body['hits'])) as {
        hits: JsonObject[];
      };
      return hits.hits.map(h => ({
        id: h['_id'],
        score: h['_score'],
        sort: h['sort']
      }));
    };
    const indexed = run(docs, true);
    // A copy of the array is a snapshot no index knows: every scorer and sort reads _source.
    expect(indexed).toEqual(run(docs.slice(), false));
    const second = indexed[1];
    if (second) {
      expect(run(docs, true, second.sort as Json[])).toEqual(
        run(docs.slice(), false, second.sort as Json[])
      );
    }
  }
}

// ---- the property ---------------------------------------------------------------------------

function checkAll(ops: Op[], queries: Json[]): void {
  const state = new ClusterState(VERSION);
  const index = state.createIndex('t', MAPPING, { refresh_interval: '-1' });
  const kept: StoredDoc[][] = [];
  for (const o of ops) {
    if (o.kind === 'put') {
      index.mapping.index(o.doc, o.id);
      index.put(o.id, o.doc);
    } else if (o.kind === 'remove') {
      index.remove(o.id);
    } else if (o.kind === 'refresh') {
      index.refresh();
    } else {
      kept.push(index.searchable());
    }
  }
  index.refresh();
  const snapshots = [index.searchable(), ...kept];
  for (const q of queries) {
    if (compileError(index, q)) {
      continue;
    }
    for (const docs of snapshots) {
      checkScorers(index, docs, q);
    }
    checkPages(index, index.searchable(), q, state.rankedCache);
    checkSorted(index, index.searchable(), q, state.rankedCache);
  }
}

it('indexed text scoring equals scoring from _source, across writes, refreshes and old snapshots', () => {
  const ops = fc.array(
    opOver(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), 6),
    { minLength: 4, maxLength: 40 }
  );
  fc.assert(
    fc.property(ops, fc.array(query, { minLength: 1, maxLength: 6 }), checkAll),
    { numRuns: 400 }
  );
});

it('the same on larger snapshots, where a bool evaluates few candidates per document', () => {
  const ops = fc.array(
    opOver(fc.integer({ min: 0, max: 299 }).map(String), 40),
    { minLength: 100, maxLength: 250 }
  );
  fc.assert(
    fc.property(ops, fc.array(query, { minLength: 1, maxLength: 6 }), checkAll),
    { numRuns: 40 }
  );
});
