/**
 * The column rules on shapes the sandbox data does not hold: arrays of objects under a plain
 * object mapping, nested inside nested, a single object where nested is mapped, conflicting
 * mappings across indices, Typesense schemas without nested fields; and which requests make
 * cached mappings and schemas stale.
 */
import type { ConsoleRequest, JsonValue } from '../../kernel/src/console/cell';
import type { EngineResponse } from '../../kernel/src/driver-core/driver';
import { structureOfMapping } from '../../kernel/src/engines/elasticsearch/mapping';
import {
  filtersFields,
  mappingChange
} from '../../kernel/src/engines/elasticsearch/targets';
import type { FieldTree } from '../../kernel/src/driver-core/field-tree';
import { documentGrid } from '../../kernel/src/driver-core/grid-columns';
import { treeOfSchema } from '../../kernel/src/engines/typesense/schema';
import {
  filtersFields as typesenseFiltersFields,
  schemaChange
} from '../../kernel/src/engines/typesense/targets';
import { columnSummary } from './grid-helpers';
import { request } from './helpers';

const answer = (value: JsonValue): EngineResponse => ({
  status: 200,
  headers: {},
  body: { kind: 'json', value },
  elapsedMs: 1
});
const esTree = (mappings: Record<string, JsonValue>): FieldTree =>
  structureOfMapping(answer(mappings)).tree;
const grid = (tree: FieldTree | undefined, ...sources: JsonValue[]) =>
  documentGrid({
    tree,
    leading: [],
    documents: sources.map(source => ({ meta: {}, source }))
  });

describe('Elasticsearch mappings', () => {
  it('an array of objects under a plain object mapping: the whole array, and each leaf per element', () => {
    const tree = esTree({
      i: {
        mappings: {
          properties: {
            address: {
              properties: {
                city: { type: 'keyword' },
                country: { type: 'keyword' }
              }
            }
          }
        }
      }
    });
    const { columns, rows } = grid(
      tree,
      { address: [{ city: 'A' }, { city: 'B', country: 'X' }] },
      { address: { city: 'C' } }
    );
    expect(columnSummary(columns)).toEqual([
      'address.city:keyword',
      'address.country:keyword',
      'address:array'
    ]);
    expect(rows[0]).toMatchObject({
      'address.city': ['A', 'B'],
      'address.country': [null, 'X']
    });
    expect(rows[1]).toEqual({ 'address.city': 'C' });
  });

  it('nested inside nested is one leaf of the outer array; a single object where nested is mapped is an array of one', () => {
    const tree = esTree({
      i: {
        mappings: {
          properties: {
            v: {
              type: 'nested',
              properties: {
                sku: { type: 'keyword' },
                sizes: {
                  type: 'nested',
                  properties: { code: { type: 'keyword' } }
                }
              }
            }
          }
        }
      }
    });
    const { columns, rows } = grid(
      tree,
      {
        v: [{ sku: 'a', sizes: [{ code: 'S' }, { code: 'M' }] }, { sku: 'b' }]
      },
      { v: { sku: 'c' } }
    );
    expect(columnSummary(columns)).toEqual([
      'v:nested',
      'v.sku:keyword',
      'v.sizes:nested'
    ]);
    expect(columns.find(c => c.name === 'v.sizes')).toMatchObject({
      readOnly: true,
      arrayParent: 'v'
    });
    expect(rows[0]?.['v.sizes']).toEqual([
      [{ code: 'S' }, { code: 'M' }],
      null
    ]);
    expect(rows[1]).toMatchObject({
      v: { sku: 'c' },
      'v.sku': ['c'],
      'v.sizes': [null]
    });
  });

  it('the union of indices: types that differ show both, an object beats a leaf, nested beats object', () => {
    const tree = esTree({
      b: {
        mappings: {
          properties: {
            n: { type: 'keyword' },
            o: { type: 'keyword' },
            p: { properties: { x: { type: 'long' } } }
          }
        }
      },
      a: {
        mappings: {
          properties: {
            n: { type: 'long' },
            o: { properties: { y: { type: 'long' } } },
            p: { type: 'nested', properties: { z: { type: 'long' } } }
          }
        }
      }
    });
    expect(columnSummary(grid(tree).columns)).toEqual([
      'n:long | keyword',
      'o.y:long',
      'p:nested | object',
      'p.z:long',
      'p.x:long'
    ]);
  });

  it('field aliases and multi-fields are no columns; enabled:false objects show what the documents hold', () => {
    const tree = esTree({
      i: {
        mappings: {
          properties: {
            t: { type: 'text', fields: { raw: { type: 'keyword' } } },
            other: { type: 'alias', path: 't' },
            blob: { type: 'object', enabled: false }
          }
        }
      }
    });
    expect(
      columnSummary(
        grid(tree, { t: 'x', blob: { k: 1, deep: { j: 'y' } } }).columns
      )
    ).toEqual(['t:text', 'blob.k:number', 'blob.deep.j:string']);
  });

  it('a document-only column takes the type of its first non-null value', () => {
    expect(
      columnSummary(
        grid(undefined, { a: null }, { a: 'x' }, { b: null }).columns
      )
    ).toEqual(['a:string', 'b:null']);
  });

  it('a malformed _mapping answer is no structure', () => {
    expect(() =>
      structureOfMapping(answer({ i: { mappings: { properties: { a: 5 } } } }))
    ).toThrow(/unexpected shape/);
    expect(() => structureOfMapping({ ...answer({}), status: 403 })).toThrow(
      /403/
    );
  });
});

describe('Typesense schemas', () => {
  it('without nested fields a dotted name is one flat field', () => {
    const tree = treeOfSchema(
      [
        { name: 'a.b', type: 'string' },
        { name: '.*', type: 'auto' },
        { name: 'num_.*', type: 'int32' }
      ],
      false
    );
    const { columns, rows } = grid(tree, { 'a.b': 'x' });
    expect(columnSummary(columns)).toEqual(['a.b:string']);
    expect(rows[0]).toEqual({ 'a.b': 'x' });
  });

  it("leaves listed before their parent stay under it, in the parent's place", () => {
    const tree = treeOfSchema(
      [
        { name: 'first', type: 'string' },
        { name: 'items.sku', type: 'string[]' },
        { name: 'items', type: 'object[]' },
        { name: 'geo', type: 'geopoint' }
      ],
      true
    );
    expect(
      grid(tree).columns.map(c => `${c.name}:${c.type}:${c.json}`)
    ).toEqual([
      'first:string:false',
      'items:object[]:true',
      'items.sku:string[]:true',
      'geo:geopoint:true'
    ]);
  });
});

describe('which requests make cached structures stale', () => {
  const es = (method: ConsoleRequest['method'], path: string) =>
    mappingChange(request(method, path));

  it('Elasticsearch: reads none; index writes their index; alias and cluster-wide changes all', () => {
    expect(es('GET', '/products/_mapping')).toEqual({ kind: 'none' });
    expect(es('POST', '/products/_search')).toEqual({ kind: 'none' });
    expect(es('DELETE', '/_pit')).toEqual({ kind: 'none' });
    expect(es('PUT', '/products')).toEqual({
      kind: 'names',
      names: ['products']
    });
    expect(es('DELETE', '/a,b')).toEqual({ kind: 'names', names: ['a', 'b'] });
    expect(es('PUT', '/products/_mapping')).toEqual({
      kind: 'names',
      names: ['products']
    });
    expect(es('PUT', '/products/_settings')).toEqual({
      kind: 'names',
      names: ['products']
    });
    expect(es('POST', '/products/_doc')).toEqual({
      kind: 'names',
      names: ['products']
    });
    for (const path of [
      '/_aliases',
      '/_bulk',
      '/_reindex',
      '/_index_template/t'
    ]) {
      expect(es('POST', path)).toEqual({ kind: 'all' });
    }
    for (const path of [
      '/products/_alias/x',
      '/products/_rollover',
      '/products/_clone/copy'
    ]) {
      expect(es('PUT', path)).toEqual({ kind: 'all' });
    }
  });

  it('Typesense: collection create, patch and delete, document writes, alias changes', () => {
    const ts = (
      method: ConsoleRequest['method'],
      path: string,
      body?: unknown
    ) => schemaChange(request(method, path, '', body));
    expect(ts('GET', '/collections/books')).toEqual({ kind: 'none' });
    expect(ts('POST', '/collections', { name: 'new one' })).toEqual({
      kind: 'names',
      names: ['new%20one'],
      listChanged: true
    });
    expect(ts('PATCH', '/collections/books')).toEqual({
      kind: 'names',
      names: ['books'],
      listChanged: false
    });
    expect(ts('DELETE', '/collections/books')).toEqual({
      kind: 'names',
      names: ['books'],
      listChanged: true
    });
    expect(ts('POST', '/collections/books/documents/import')).toEqual({
      kind: 'names',
      names: ['books'],
      listChanged: false
    });
    expect(ts('DELETE', '/collections/books/documents')).toEqual({
      kind: 'none'
    });
    expect(ts('PUT', '/aliases/current')).toEqual({ kind: 'all' });
    expect(ts('POST', '/multi_search')).toEqual({ kind: 'none' });
  });
});

describe('requests that pick fields', () => {
  it('Elasticsearch: _source in the body or the query, stored_fields, filter_path', () => {
    expect(
      filtersFields(request('GET', '/i/_search', '', { _source: ['a'] }))
    ).toBe(true);
    expect(
      filtersFields(request('GET', '/i/_search', '', { _source: true }))
    ).toBe(false);
    expect(
      filtersFields(request('GET', '/i/_search', '_source_includes=a'))
    ).toBe(true);
    expect(
      filtersFields(request('GET', '/i/_search', '_source=true&size=1'))
    ).toBe(false);
    expect(filtersFields(request('GET', '/i/_search', 'size=1'))).toBe(false);
  });

  it('Typesense: include_fields or exclude_fields in the query or the one search', () => {
    expect(
      typesenseFiltersFields(
        request(
          'GET',
          '/collections/b/documents/search',
          'q=*&include_fields=a'
        )
      )
    ).toBe(true);
    expect(
      typesenseFiltersFields(
        request('POST', '/multi_search', '', {
          searches: [{ collection: 'b', exclude_fields: 'a' }]
        })
      )
    ).toBe(true);
    expect(
      typesenseFiltersFields(request('GET', '/collections/b/documents/export'))
    ).toBe(false);
  });
});
