/**
 * A search answer read for its documents' shape only (a quiet magic forwards the engine's
 * bytes to Python): whatever the documents hold (any keys, nesting, arrays, escapes, characters
 * past ASCII, numbers a double cannot hold), the grid's columns, the total, the aggregations and
 * the shard failures come out as from the whole answer, the bytes kept are the engine's, and
 * only the documents' sources differ from the whole value. Anything this reading does not
 * follow is read whole.
 */
import fc from 'fast-check';
import {
  decoded,
  decodedShapeOnly,
  wholeResponse
} from '../../kernel/src/driver-core/http/answer-body';
import { presentElasticsearch } from '../../kernel/src/engines/elasticsearch/present';
import { structureOfMapping } from '../../kernel/src/engines/elasticsearch/mapping';
import { elasticsearchPartialFailures } from '../../kernel/src/engines/elasticsearch/partial-failures';
import type { ConsoleRequest } from '../../kernel/src/console/cell';
import type { EngineResponse } from '../../kernel/src/driver-core/driver';
import { answerOf } from '../../kernel/src/execute/cell-runner';
import { readsShapeOnly, toBundle } from '../../kernel/src/render/bundle';
import { DEFAULT_LIMITS } from '../../kernel/src/render/output-limits';

const SOURCES = { at: ['hits', 'hits'], source: '_source' };
const SEARCH: ConsoleRequest = {
  method: 'GET',
  path: '/products/_search',
  query: '',
  body: undefined
} as unknown as ConsoleRequest;

/** Mapped fields of every kind a grid places: leaves, an object, a nested array of objects. */
const TREE = structureOfMapping({
  status: 200,
  headers: {},
  elapsedMs: 0,
  body: {
    kind: 'json',
    value: {
      products: {
        mappings: {
          properties: {
            name: { type: 'text' },
            price: { type: 'float' },
            big: { type: 'long' },
            address: {
              properties: { city: { type: 'keyword' }, zip: { type: 'long' } }
            },
            variants: {
              type: 'nested',
              properties: { sku: { type: 'keyword' }, price: { type: 'float' } }
            }
          }
        }
      }
    }
  }
}).tree;

const raw = (text: string, status = 200) => ({
  status,
  headers: { 'content-type': 'application/json' },
  bytes: Buffer.from(text, 'utf8'),
  elapsedMs: 1
});

/** What a quiet call's bundle is made of: the grid's columns, total, aggregations and layout, and the shard failures of its status line. */
function presented(response: EngineResponse, onlyPresent: boolean) {
  const request = onlyPresent
    ? ({ ...SEARCH, query: 'filter_path=hits.hits._source' } as ConsoleRequest)
    : SEARCH;
  const result = presentElasticsearch(request, response, {
    treeFor: () => TREE
  });
  // A quiet call's bundle reads no row: the payload's rows are rebuilt by Python from the bytes.
  return {
    result:
      result.kind === 'hits'
        ? {
            columns: result.columns,
            total: result.total,
            aggregations: result.aggregations,
            documents: result.documents
          }
        : result,
    failures: elasticsearchPartialFailures(response)
  };
}

const KEYS = [
  'name',
  'price',
  'big',
  'address',
  'variants',
  'extra',
  'a.b',
  'é"\\'
];
const LONG = '__LONG__';
const source = fc.dictionary(
  fc.constantFrom(...KEYS),
  fc.oneof(
    fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }),
    fc.constant(LONG)
  ),
  { maxKeys: 6 }
);
const hit = fc.record({
  _index: fc.constantFrom('products', 'other'),
  _id: fc.string({ unit: 'binary' }),
  _score: fc.oneof(
    fc.constant(null),
    fc.double({ noNaN: true, noDefaultInfinity: true })
  ),
  _source: fc.oneof(
    { weight: 8, arbitrary: source },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }
  )
});
const answer = fc.record({
  took: fc.nat(),
  _shards: fc.oneof(
    fc.constant({ total: 2, successful: 2, failed: 0 }),
    fc.constant({
      total: 2,
      successful: 1,
      failed: 1,
      failures: [
        {
          shard: 1,
          index: 'products',
          reason: { type: 'x', reason: 'lost "it"' }
        }
      ]
    })
  ),
  hits: fc.record({
    total: fc.record({
      value: fc.nat(),
      relation: fc.constantFrom('eq', 'gte')
    }),
    hits: fc.array(hit, { maxLength: 12 })
  }),
  aggregations: fc.constant({
    prices: {
      buckets: [
        { key: LONG, doc_count: 2 },
        { key: 1.5, doc_count: 1 }
      ]
    }
  })
});

/** The answer's text, each LONG placeholder a number no double holds, written as an engine does. */
const textOf = (value: unknown, indent?: number) =>
  JSON.stringify(value, null, indent).replaceAll(
    `"${LONG}"`,
    '-123456789012345678901'
  );

test('a search answer read for its shape only presents as the whole answer does, its bytes the engine’s', () => {
  fc.assert(
    fc.property(
      answer,
      fc.constantFrom(undefined, 1),
      fc.boolean(),
      (value, indent, only) => {
        const text = textOf(value, indent);
        const whole = decoded(raw(text));
        const shaped = decodedShapeOnly(raw(text), SOURCES);
        expect(shaped.body.kind).toBe('json');
        if (shaped.body.kind !== 'json' || whole.body.kind !== 'json') {
          return;
        }
        expect(shaped.body.bytes?.equals(Buffer.from(text, 'utf8'))).toBe(true);
        // Read for their shape indeed, whenever there are documents.
        expect(shaped.body.shapeOnly === true).toBe(value.hits.hits.length > 0);
        expect(presented(shaped, only)).toEqual(presented(whole, only));
        // Only the documents' sources differ, and read whole the answer is the whole answer.
        const withoutSources = (v: unknown) =>
          JSON.stringify(v, (key, x: unknown) =>
            key === '_source' ? null : x
          );
        expect(withoutSources(shaped.body.value)).toBe(
          withoutSources(whole.body.value)
        );
        expect(wholeResponse(shaped).body).toEqual(whole.body);
      }
    ),
    { numRuns: 400 }
  );
});

test('the shape of a document keeps what the columns read: nulls, booleans, empty objects, numbers that read exact', () => {
  const text =
    '{"hits":{"hits":[{"_id":"1","_source":{"name":"x","extra":{},"n":null,"t":true,"big":12345678901234567890,"f":1.25e3,"s":"a\\"b\\\\"}}]}}';
  const shaped = decodedShapeOnly(raw(text), SOURCES);
  expect(shaped.body).toMatchObject({ kind: 'json', shapeOnly: true });
  const value = shaped.body.kind === 'json' ? shaped.body.value : undefined;
  const [doc] = (
    value as { hits: { hits: { _source: Record<string, unknown> }[] } }
  ).hits.hits;
  expect(doc?._source).toMatchObject({
    name: '',
    extra: {},
    n: null,
    t: true,
    s: ''
  });
  // Read exact (an object, not a number), as the whole answer reads it; an exponent is no plain number.
  expect(typeof doc?._source.big).toBe('object');
  expect(doc?._source.f).toBe(1250);
});

test('an answer without documents, a failed one, one nested too deep or not JSON is read whole', () => {
  for (const [text, status] of [
    ['{"acknowledged":true}', 200],
    ['[{"index":"products"}]', 200],
    [
      '{"error":{"type":"x","reason":"y"},"hits":{"hits":[{"_source":{"a":"b"}}]}}',
      400
    ],
    [
      `{"hits":{"hits":[{"_source":${'['.repeat(1200)}${']'.repeat(1200)}}]}}`,
      200
    ],
    ['{"hits":{"hits":[{"_source":{"a":01}}]}}', 200],
    ['{"hits":{"hits":[{"_source":{"a":"b"}}]}', 200],
    ['\ufeff{"hits":{"hits":[{"_source":{"a":"b"}}]}}', 200]
  ] as const) {
    expect(decodedShapeOnly(raw(text, status), SOURCES)).toEqual(
      decoded(raw(text, status))
    );
  }
});

const INFO = {
  connection: 'es',
  engine: 'elasticsearch',
  method: 'GET',
  path: '/products/_search',
  status: 200,
  elapsedMs: 1
};

test('a shown grid of an answer read for its shape holds the rows the whole answer gives, each document read alone', () => {
  fc.assert(
    fc.property(
      answer,
      fc.boolean(),
      fc.constantFrom(1, 3, 1000),
      (value, quiet, gridRows) => {
        const text = textOf(value);
        const limits = {
          ...DEFAULT_LIMITS,
          gridRows,
          answerAsBuffer: true,
          ...(quiet ? { valueOnly: true } : {})
        };
        const bundleOf = (response: EngineResponse) => {
          const result = presentElasticsearch(SEARCH, response, {
            treeFor: () => TREE
          });
          const read = answerOf(response);
          if (!read || result.kind === 'searches') {
            throw new Error('a search answer is read as one');
          }
          return { bundle: toBundle(result, INFO, read, limits), result, read };
        };
        const whole = bundleOf(decoded(raw(text)));
        const shaped = bundleOf(decodedShapeOnly(raw(text), SOURCES));
        // Not read for its shape (no documents), or read so and its bundle reads nothing else.
        if (
          !shaped.read.shapeOnly ||
          readsShapeOnly(shaped.result, shaped.read, limits)
        ) {
          expect(shaped.bundle).toEqual(whole.bundle);
        } else {
          // Read whole first (cell-runner.ts): rows past the cap, a document that is no object.
          const read = answerOf(
            wholeResponse(decodedShapeOnly(raw(text), SOURCES))
          );
          expect(read?.shapeOnly).toBeUndefined();
          expect(
            value.hits.hits.length > gridRows ||
              value.hits.hits.some(h => typeof h !== 'object')
          ).toBe(true);
        }
      }
    ),
    { numRuns: 300 }
  );
});
