/**
 * The hits payload's column schema, shared with the extension: the fields added with columns
 * from mappings pass through toBundle, and payloads written before them (older notebooks) still parse.
 */
import type { ConsoleResult } from '../../kernel/src/driver-core/driver';
import { toBundle } from '../../kernel/src/render/bundle';
import { HITS_MIME, HitsPayloadSchema } from '../../contracts/mime-types';

const info = {
  connection: 'es-local',
  engine: 'elasticsearch' as const,
  method: 'GET',
  path: '/catalog/_search',
  status: 200,
  elapsedMs: 3
};

test('origin, primaryKey and arrayParent reach the payload as the driver set them', () => {
  const result: ConsoleResult = {
    kind: 'hits',
    columns: [
      {
        name: '_id',
        type: 'keyword',
        readOnly: true,
        json: false,
        origin: 'meta',
        primaryKey: true
      },
      {
        name: 'price',
        type: 'float | long',
        readOnly: false,
        json: false,
        origin: 'mapping'
      },
      {
        name: 'variants',
        type: 'nested',
        readOnly: false,
        json: true,
        origin: 'mapping'
      },
      {
        name: 'variants.sku',
        type: 'keyword',
        readOnly: true,
        json: true,
        origin: 'mapping',
        arrayParent: 'variants'
      },
      {
        name: 'extra',
        type: 'number',
        readOnly: false,
        json: false,
        origin: 'documents'
      }
    ],
    rows: [
      {
        _id: '1',
        price: 2,
        variants: [{ sku: 'a' }, {}],
        'variants.sku': ['a', null],
        extra: 1
      }
    ]
  };
  const payload = HitsPayloadSchema.parse(
    toBundle(result, info, undefined)[HITS_MIME]
  );
  expect(payload.columns).toEqual(result.columns);
  expect(payload.rows?.[0]?.['variants.sku']).toEqual(['a', null]);
});

test('a payload without the optional column fields still parses', () => {
  const old = {
    info,
    columns: [{ name: '_id', type: 'keyword', readOnly: true, json: false }],
    rows: [{ _id: '1' }],
    omittedRows: 0
  };
  const payload = HitsPayloadSchema.parse(old);
  expect(payload.columns[0]).toEqual({
    name: '_id',
    type: 'keyword',
    readOnly: true,
    json: false
  });
  expect(payload.cut).toEqual([]);
});

test('an unknown origin is refused', () => {
  const bad = {
    info,
    columns: [
      { name: 'a', type: 'x', readOnly: false, json: false, origin: 'guess' }
    ],
    rows: [],
    omittedRows: 0
  };
  expect(HitsPayloadSchema.safeParse(bad).success).toBe(false);
});
