/**
 * The notebook keeps the engine's answer instead of the grid's rows; the grid rebuilds the
 * rows from it. Whatever documents and mappings an answer has, the rebuilt rows must be the
 * rows the driver built, or the kernel must keep the rows instead (columnsNestOddly).
 */
import fc from 'fast-check';
import type { JsonValue } from '../../kernel/src/console/cell';
import type { EngineResponse } from '../../kernel/src/engine/driver';
import { structureOfMapping } from '../../kernel/src/engines/elasticsearch/mapping';
import type { FieldTree } from '../../kernel/src/engine/field-tree';
import { documentGrid } from '../../kernel/src/engine/grid-columns';
import { columnsNestOddly, documentRows } from '../../contracts/answer-rows';

const LAYOUT = { at: ['hits', 'hits'], source: ['_source'], meta: { _id: ['_id'] } };
const LEADING = [{ name: '_id', type: 'keyword', readOnly: true, json: false, origin: 'meta' as const, primaryKey: true }];
const answer = (value: JsonValue): EngineResponse => ({ status: 200, headers: {}, body: { kind: 'json', value }, elapsedMs: 1 });
const esTree = (properties: Record<string, JsonValue>): FieldTree => structureOfMapping(answer({ i: { mappings: { properties } } })).tree;

const TREES: (FieldTree | undefined)[] = [
  undefined,
  esTree({ name: { type: 'text' }, address: { properties: { city: { type: 'keyword' }, zip: { type: 'keyword' } } } }),
  esTree({ v: { type: 'nested', properties: { sku: { type: 'keyword' }, sizes: { type: 'nested', properties: { code: { type: 'keyword' } } } } }, flat: { type: 'flattened' } }),
  esTree({ a: { properties: { b: { type: 'long' } } }, blob: { type: 'object', enabled: false } }),
];

/** Rebuilt and built rows, compared on what the grid shows: its columns. */
function check(tree: FieldTree | undefined, sources: JsonValue[]): void {
  const documents = sources.map((source, i) => ({ meta: { _id: String(i) }, source }));
  const { columns, rows } = documentGrid({ tree, leading: LEADING, documents });
  if (columnsNestOddly(columns)) return;
  const engineAnswer = { hits: { hits: sources.map((source, i) => ({ _id: String(i), _source: source })) } };
  const rebuilt = documentRows(engineAnswer, LAYOUT, columns);
  const shown = (list: Record<string, JsonValue>[]) => list.map((row) => Object.fromEntries(columns.map((c) => [c.name, row[c.name]])));
  expect(shown(rebuilt)).toEqual(shown(rows));
}

const key = fc.constantFrom('a', 'b', 'v', 'sku', 'sizes', 'code', 'name', 'address', 'city', 'x.y', 'flat', 'blob');
const documentArb = fc.letrec<{ doc: JsonValue; value: JsonValue }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constantFrom<JsonValue>(null, 1, 'x', true), fc.array(tie('value'), { maxLength: 3 }), tie('doc')),
  doc: fc.dictionary(key, tie('value'), { maxKeys: 4 }) as fc.Arbitrary<JsonValue>,
})).doc;

test('rows rebuilt from the answer are the rows the driver built, for any documents under the sample mappings', () => {
  fc.assert(
    fc.property(fc.nat(TREES.length - 1), fc.array(documentArb, { maxLength: 5 }), (tree, sources) => check(TREES[tree], sources)),
    { numRuns: 400 },
  );
});

test('the shapes the column rules name rebuild exactly, or keep their rows', () => {
  check(TREES[2], [{ v: [{ sku: 'a', sizes: [{ code: 'S' }] }, { sku: 'b' }] }, { v: { sku: 'c' } }, { v: 5 }]);
  check(TREES[1], [{ address: [{ city: 'A' }, { city: 'B', zip: '1' }] }, { address: { city: 'C' } }]);
  check(undefined, [{ 'a.b': 1 }, { a: { b: 2 } }, { a: {} }, 'not an object']);
  expect(columnsNestOddly(documentGrid({ tree: undefined, leading: [], documents: [{ meta: {}, source: { a: 1 } }, { meta: {}, source: { a: { b: 1 } } }] }).columns)).toBe(true);
});
