/**
 * The notebook keeps the engine's answer instead of the grid's rows; the grid rebuilds the
 * rows from it. Whatever documents and mappings an answer has, the rebuilt rows are the rows
 * the kernel's grid shows, and every value of every document is in a column the grid declares.
 */
import fc from 'fast-check';
import type { JsonValue } from '../../kernel/src/console/cell';
import type { EngineResponse } from '../../kernel/src/driver-core/driver';
import { structureOfMapping } from '../../kernel/src/engines/elasticsearch/mapping';
import { treeOfSchema } from '../../kernel/src/engines/typesense/schema';
import type { FieldTree } from '../../kernel/src/driver-core/field-tree';
import { documentGrid } from '../../kernel/src/driver-core/grid-columns';
import { documentRows, valueAt } from '../../contracts/answer-rows';
import { ownValue } from '../../contracts/own-fields';

const LAYOUT = {
  at: ['hits', 'hits'],
  source: ['_source'],
  meta: { _id: ['_id'] }
};
const LEADING = [
  {
    name: '_id',
    type: 'keyword',
    readOnly: true,
    json: false,
    origin: 'meta' as const,
    primaryKey: true
  }
];
const answer = (value: JsonValue): EngineResponse => ({
  status: 200,
  headers: {},
  body: { kind: 'json', value },
  elapsedMs: 1
});
const esTree = (properties: Record<string, JsonValue>): FieldTree =>
  structureOfMapping(answer({ i: { mappings: { properties } } })).tree;

const TREES: (FieldTree | undefined)[] = [
  undefined,
  esTree({
    name: { type: 'text' },
    address: {
      properties: { city: { type: 'keyword' }, zip: { type: 'keyword' } }
    }
  }),
  esTree({
    v: {
      type: 'nested',
      properties: {
        sku: { type: 'keyword' },
        sizes: { type: 'nested', properties: { code: { type: 'keyword' } } }
      }
    },
    flat: { type: 'flattened' }
  }),
  esTree({
    a: { properties: { b: { type: 'long' } } },
    blob: { type: 'object', enabled: false }
  }),
  treeOfSchema(
    [
      { name: 'v', type: 'object[]' },
      { name: 'v.sku', type: 'string[]' },
      { name: 'address', type: 'object' },
      { name: 'address.city', type: 'string' }
    ],
    true
  )
];

/** Each value a document holds, with its keys from the document down: objects are walked, anything else is a value. */
function valuesOf(
  value: JsonValue,
  keys: string[] = []
): [string[], JsonValue][] {
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    Object.keys(value).length === 0
  ) {
    return [[keys, value]];
  }
  return Object.keys(value).flatMap(key =>
    valuesOf((value as Record<string, JsonValue>)[key] as JsonValue, [
      ...keys,
      key
    ])
  );
}

/** Rebuilt and built rows, compared on what the grid shows (its columns); and no value without a column. */
function check(tree: FieldTree | undefined, sources: JsonValue[]): void {
  const documents = sources.map((source, i) => ({
    meta: { _id: String(i) },
    source
  }));
  const { columns, rows } = documentGrid({ tree, leading: LEADING, documents });
  const engineAnswer = {
    hits: {
      hits: sources.map((source, i) => ({ _id: String(i), _source: source }))
    }
  };
  const rebuilt = documentRows(engineAnswer, LAYOUT, columns);
  const shown = (list: Record<string, JsonValue>[]) =>
    list.map(row =>
      Object.fromEntries(columns.map(c => [c.name, ownValue(row, c.name)]))
    );
  expect(shown(rebuilt)).toEqual(shown(rows));
  const names = new Set(columns.map(c => c.name));
  sources.forEach((source, i) => {
    const row = rebuilt[i] as Record<string, JsonValue>;
    if (
      typeof source !== 'object' ||
      source === null ||
      Array.isArray(source)
    ) {
      return void expect(row.value).toEqual(source);
    }
    for (const [keys, value] of valuesOf(source)) {
      if (keys.length === 0) {
        continue;
      }
      // The value's own column, or a column that holds an object around it whole.
      const holders = keys
        .map((_, k) => keys.slice(0, k + 1))
        .filter(
          head =>
            names.has(head.join('.')) && Object.hasOwn(row, head.join('.'))
        );
      const found = holders.some(
        head =>
          JSON.stringify(
            valueAt(row[head.join('.')], keys.slice(head.length))
          ) === JSON.stringify(value)
      );
      expect({ document: i, field: keys, found }).toEqual({
        document: i,
        field: keys,
        found: true
      });
    }
  });
}

const key = fc.constantFrom(
  'a',
  'b',
  'v',
  'sku',
  'sizes',
  'code',
  'name',
  'address',
  'city',
  'x.y',
  'flat',
  'blob'
);
const documentArb = fc.letrec<{ doc: JsonValue; value: JsonValue }>(tie => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom<JsonValue>(null, 1, 'x', true),
    fc.array(tie('value'), { maxLength: 3 }),
    tie('doc')
  ),
  doc: fc.dictionary(key, tie('value'), {
    maxKeys: 4
  }) as fc.Arbitrary<JsonValue>
})).doc;

test('rows rebuilt from the answer are the rows the kernel built, and hold every value, for any documents under the sample mappings', () => {
  fc.assert(
    fc.property(
      fc.nat(TREES.length - 1),
      fc.array(documentArb, { maxLength: 5 }),
      (tree, sources) => check(TREES[tree], sources)
    ),
    { numRuns: 400 }
  );
});

test('the shapes the column rules name rebuild exactly', () => {
  check(TREES[2], [
    { v: [{ sku: 'a', sizes: [{ code: 'S' }] }, { sku: 'b' }] },
    { v: { sku: 'c' } },
    { v: 5 }
  ]);
  check(TREES[1], [
    { address: [{ city: 'A' }, { city: 'B', zip: '1' }] },
    { address: { city: 'C' } }
  ]);
  check(undefined, [{ 'a.b': 1 }, { a: { b: 2 } }, { a: {} }, 'not an object']);
});

test('a column named like an object that holds other columns: the object flattens in the rows rebuilt from the answer, as in the grid', () => {
  // `a` is a column (one document holds a number there) beside `a.b` (another holds an object).
  const sources: JsonValue[] = [{ a: 1 }, { a: { b: 1 } }, { a: {} }];
  const { columns } = documentGrid({
    tree: undefined,
    leading: LEADING,
    documents: sources.map((source, i) => ({
      meta: { _id: String(i) },
      source
    }))
  });
  expect(columns.map(c => c.name)).toEqual(['_id', 'a', 'a.b']);
  const rebuilt = documentRows(
    {
      hits: {
        hits: sources.map((source, i) => ({ _id: String(i), _source: source }))
      }
    },
    LAYOUT,
    columns
  );
  expect(rebuilt.map(row => ({ ...row }))).toEqual([
    { _id: '0', a: 1 },
    { _id: '1', 'a.b': 1 },
    { _id: '2', a: {} }
  ]);
  // An array of objects where the mapping has a plain object: the array whole, its mapped leaves one entry per element.
  const tree = TREES[1];
  const mapped: JsonValue[] = [
    { address: [{ city: 'A' }, { zip: '1' }] },
    { address: { city: 'C' } }
  ];
  const grid = documentGrid({
    tree,
    leading: LEADING,
    documents: mapped.map((source, i) => ({ meta: { _id: String(i) }, source }))
  });
  const rows = documentRows(
    {
      hits: {
        hits: mapped.map((source, i) => ({ _id: String(i), _source: source }))
      }
    },
    LAYOUT,
    grid.columns
  );
  expect(rows.map(row => ({ ...row }))).toEqual([
    {
      _id: '0',
      address: [{ city: 'A' }, { zip: '1' }],
      'address.city': ['A', null],
      'address.zip': [null, '1']
    },
    { _id: '1', 'address.city': 'C' }
  ]);
});
