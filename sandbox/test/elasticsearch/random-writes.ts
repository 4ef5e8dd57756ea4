/**
 * Random writes for the property tests that compare indexed answers with answers read from
 * every document: puts, deletes, refreshes, and snapshots kept along the way as points in
 * time keep them. Plus the numeric and date fields those tests sort and count by.
 */
import fc from 'fast-check';
import type { IndexData } from '../../src/elasticsearch/index-data';
import type { Json, JsonObject } from '../../src/elasticsearch/json-value';
import type { StoredDoc } from '../../src/elasticsearch/stored-doc';

export type Write =
  | { kind: 'put'; shard?: number; id: string; doc: JsonObject }
  | { kind: 'remove'; shard?: number; id: string }
  | { kind: 'refresh' }
  | { kind: 'keep' };

/**
 * Applies the writes (each to its shard's index, the first by default), refreshes every index
 * and returns the snapshots kept on the way, each a list of one snapshot per index.
 */
export function applyWrites(
  indices: IndexData[],
  writes: Write[]
): StoredDoc[][][] {
  const kept: StoredDoc[][][] = [];
  for (const w of writes) {
    if (w.kind === 'put') {
      const index = indices[w.shard ?? 0] as IndexData;
      index.mapping.index(w.doc, w.id);
      index.put(w.id, w.doc);
    } else if (w.kind === 'remove') {
      indices[w.shard ?? 0]?.remove(w.id);
    } else if (w.kind === 'refresh') {
      indices.forEach(i => i.refresh());
    } else {
      kept.push(indices.map(i => i.searchable()));
    }
  }
  indices.forEach(i => i.refresh());
  return kept;
}

/** A number, a double, a date and a keyword field. */
export const NUMBERS_MAPPING: JsonObject = {
  properties: {
    n: { type: 'long' },
    price: { type: 'double' },
    at: { type: 'date' },
    label: { type: 'keyword' }
  }
};

/** Dates as documents write them: days, instants, epoch millis, ties among them. */
export const dateValue = fc.constantFrom<Json>(
  '2024-01-01',
  '2024-01-01T00:00:00.001Z',
  '2024-06-30T12:00:00Z',
  1704067200000,
  '2023-12-31'
);

const numberValue = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -5, max: 5 }) },
  { weight: 2, arbitrary: fc.constantFrom(2.5, -0.5, 4.75) },
  { weight: 1, arbitrary: fc.constantFrom('3', '-2') }
);

/** A field's value: one, null, an empty list, or (when `several`) a list of a few, nulls among them. */
function valueOf(
  one: fc.Arbitrary<Json>,
  several: boolean
): fc.Arbitrary<Json> {
  return fc.oneof(
    { weight: 6, arbitrary: one },
    {
      weight: several ? 3 : 0,
      arbitrary: fc.array(fc.oneof(one, fc.constant(null)), {
        minLength: 1,
        maxLength: 3
      })
    },
    { weight: 1, arbitrary: fc.constantFrom<Json>(null, []) }
  );
}

/** A document of NUMBERS_MAPPING's fields, any of them left out. */
export function numbersDoc(several: boolean): fc.Arbitrary<JsonObject> {
  return fc.record(
    {
      n: valueOf(numberValue, several),
      price: valueOf(numberValue, several),
      at: valueOf(dateValue, several),
      label: fc.constantFrom('a', 'b')
    },
    { requiredKeys: [] }
  ) as fc.Arbitrary<JsonObject>;
}
