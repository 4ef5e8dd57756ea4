/**
 * Grid columns from Elasticsearch mappings, over HTTP:
 * objects flatten to dotted names, a nested field gives a JSON column plus one column per leaf
 * (one entry per object, null where an object omits the leaf), an alias or pattern shows the
 * union of its indices' mappings, unmapped document fields still get columns, mappings are
 * cached per connection and refreshed when a cell changes them, and an unreadable mapping
 * falls back to columns from the documents. Against the sandbox and the real nodes alike.
 */
import type { JsonValue } from '../../kernel/src/console/cell';
import type { Connection } from '../../kernel/src/connections/open-connection';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { connect, request } from './helpers';
import { columnSummary, hitsOf, rowById } from './grid-helpers';

const META = ['_id:keyword', '_index:keyword', '_score:float'];
const productColumns = (): string[] => [
  ...META,
  ...[
    'address.city:text',
    'address.country:keyword',
    'brand:text',
    'category:keyword',
    'created_at:date',
    'description:text',
    'in_stock:boolean',
    'name:text',
    'price:float',
    'rating:float',
    'stock:long',
    'tags:keyword',
    'variants:nested',
    'variants.color:keyword',
    'variants.price:float',
    'variants.sku:keyword'
  ]
];

const signal = () => new AbortController().signal;
const send = (
  c: Connection,
  method: 'PUT' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  query = ''
) =>
  c.driver.console
    .send(request(method, path, query, body), signal())
    .then(r => {
      expect(r.status).toBeLessThan(300);
      return r;
    });
const byIds = (...ids: string[]) => ({ query: { ids: { values: ids } } });

// Real Elasticsearch 9.5.3 and OpenSearch 2.19.1 too (real-node-differences.ts says where they answer unlike 8.19).
const TARGETS = elasticsearchTargets(undefined, { newest: true });

describeEachTarget(TARGETS, 'grid columns', target => {
  let engine: RunningEsTarget;
  let es: Connection;
  const credentials = target.canSecure
    ? 'user=elastic password=${env:ES_PASSWORD}'
    : 'auth=none';
  const PRODUCT_COLUMNS = productColumns();

  beforeAll(async () => {
    engine = await target.start({ security: target.canSecure });
    es = await connect(`elasticsearch ${engine.url} ${credentials}`);
  }, REAL_START_TIMEOUT_MS);
  afterAll(async () => {
    // A real node is shared by the run: leave products and catalog as they were.
    if (es) {
      for (const index of ['products_archive', 'loose', 'again']) {
        await es.driver.console.send(request('DELETE', `/${index}`), signal());
      }
    }
    await es?.driver.close();
    await engine?.close();
  });

  describe('one index: products', () => {
    it('columns follow the mapping: _id, _index, _score lead, objects flatten, nested gives a JSON column and its leaves', async () => {
      const hits = await hitsOf(
        es,
        request('GET', '/products/_search', '', byIds('1', '8', '10'))
      );
      expect(columnSummary(hits.columns)).toEqual(PRODUCT_COLUMNS);
      const byName = new Map(hits.columns.map(c => [c.name, c]));
      for (const meta of ['_id', '_index', '_score']) {
        expect(byName.get(meta)).toMatchObject({
          readOnly: true,
          origin: 'meta'
        });
      }
      expect(byName.get('_id')?.primaryKey).toBe(true);
      expect(byName.get('name')).toMatchObject({
        readOnly: false,
        json: false,
        origin: 'mapping'
      });
      expect(byName.get('variants')).toMatchObject({
        readOnly: false,
        json: true,
        origin: 'mapping'
      });
      // Edits typed into a nested leaf are not sent: a nested array is edited through its JSON parent column.
      expect(byName.get('variants.sku')).toMatchObject({
        readOnly: true,
        json: true,
        arrayParent: 'variants'
      });
      expect(byName.get('tags')?.json).toBe(true);
      expect(byName.has('address')).toBe(false);
    });

    it('cells: leaf arrays have one entry per nested object and null where one omits the leaf', async () => {
      const hits = await hitsOf(
        es,
        request('GET', '/products/_search', '', byIds('1', '8', '10'))
      );
      const eight = rowById(hits.rows, '_id', '8');
      expect(eight['variants.sku']).toEqual(['SKU-8-1', 'SKU-8-2', 'SKU-8-3']);
      expect(eight['variants.price']).toEqual([null, 467.24, 374.78]);
      expect((eight.variants as JsonValue[])[0]).not.toHaveProperty('price');
      expect(eight).toMatchObject({
        _index: 'products',
        'address.city': 'San Francisco',
        'address.country': 'US'
      });
      expect(eight).not.toHaveProperty('brand');
      const ten = rowById(hits.rows, '_id', '10');
      expect(ten).toMatchObject({ 'address.country': 'US' });
      expect(ten).not.toHaveProperty('address.city');
      // A document without variants has no cells for them (empty, not an empty array).
      expect(rowById(hits.rows, '_id', '1')).not.toHaveProperty('variants.sku');
    });

    it('an empty answer still shows the mapped columns (no _score: no hit has one)', async () => {
      const hits = await hitsOf(
        es,
        request('GET', '/products/_search', '', byIds('nope'))
      );
      expect(hits.rows).toEqual([]);
      expect(columnSummary(hits.columns)).toEqual(
        PRODUCT_COLUMNS.filter(c => !c.startsWith('_score:'))
      );
    });

    it('a search without an index in the path takes the mapping of the indices its hits came from', async () => {
      const hits = await hitsOf(
        es,
        request('POST', '/_search', '', byIds('8'))
      );
      expect(columnSummary(hits.columns)).toEqual(PRODUCT_COLUMNS);
    });

    it('a search that picks _source fields shows only the columns its hits hold', async () => {
      const hits = await hitsOf(
        es,
        request('GET', '/products/_search', '', {
          ...byIds('8'),
          _source: ['name', 'variants.sku']
        })
      );
      expect(hits.columns.map(c => c.name)).toEqual([
        '_id',
        '_index',
        '_score',
        'name',
        'variants',
        'variants.sku'
      ]);
    });
    it('a search sorted by a field scores nothing: no _score column; a ranked search keeps it', async () => {
      const sorted = await hitsOf(
        es,
        request('GET', '/products/_search', '', {
          ...byIds('8', '9'),
          sort: [{ price: 'asc' }]
        })
      );
      expect(sorted.columns.map(c => c.name)).not.toContain('_score');
      expect(sorted.rows.every(r => !('_score' in r))).toBe(true);
      const ranked = await hitsOf(
        es,
        request('GET', '/products/_search', '', byIds('8', '9'))
      );
      expect(ranked.columns.map(c => c.name)).toContain('_score');
    });
  });

  describe('an alias and a pattern over several indices', () => {
    beforeAll(async () => {
      await send(es, 'PUT', '/products_archive', {
        mappings: {
          properties: {
            name: { type: 'text' },
            price: { type: 'long' },
            address: { properties: { zip: { type: 'keyword' } } },
            variants: {
              type: 'nested',
              properties: {
                sku: { type: 'keyword' },
                size: { type: 'keyword' }
              }
            },
            discontinued: { type: 'date' }
          }
        }
      });
      await send(
        es,
        'PUT',
        '/products_archive/_doc/a1',
        {
          name: 'Old Lamp',
          price: 12,
          address: { zip: '10115' },
          variants: [{ sku: 'OLD-1', size: 'L' }, { size: 'S' }],
          discontinued: '2020-01-01'
        },
        'refresh=true'
      );
      await send(es, 'POST', '/_aliases', {
        actions: [{ add: { index: 'products_archive', alias: 'catalog' } }]
      });
    });

    const UNION = [
      ...META,
      ...[
        'address.city:text',
        'address.country:keyword',
        'address.zip:keyword',
        'brand:text',
        'category:keyword',
        'created_at:date',
        'description:text',
        'in_stock:boolean',
        'name:text',
        'price:float | long',
        'rating:float',
        'stock:long',
        'tags:keyword',
        'variants:nested',
        'variants.color:keyword',
        'variants.price:float',
        'variants.sku:keyword',
        'variants.size:keyword'
      ],
      'discontinued:date'
    ];

    it.each(['catalog', 'prod*', 'products,products_archive'])(
      '%s shows the union of the mappings, in index-name order',
      async searched => {
        const hits = await hitsOf(
          es,
          request('GET', `/${searched}/_search`, '', byIds('8', 'a1'))
        );
        expect(columnSummary(hits.columns)).toEqual(UNION);
        const archived = rowById(hits.rows, '_id', 'a1');
        expect(archived).toMatchObject({
          _index: 'products_archive',
          'address.zip': '10115',
          'variants.sku': ['OLD-1', null],
          'variants.size': ['L', 'S'],
          'variants.color': [null, null]
        });
        expect(rowById(hits.rows, '_id', '8')['variants.size']).toEqual([
          null,
          null,
          null
        ]);
      }
    );
  });

  describe('fields the mapping lacks', () => {
    beforeAll(async () => {
      await send(es, 'PUT', '/loose', {
        mappings: {
          dynamic: false,
          properties: {
            title: { type: 'text' },
            meta: { properties: { a: { type: 'keyword' } } }
          }
        }
      });
      await send(
        es,
        'PUT',
        '/loose/_doc/1',
        {
          title: 'T',
          extra: 1,
          meta: { a: 'x', b: 'y' },
          blob: { deep: { k: true } }
        },
        'refresh=true'
      );
    });

    it('still get columns, typed from their values, after the mapped fields of the object holding them', async () => {
      const hits = await hitsOf(es, request('GET', '/loose/_search'));
      const mapped = ['meta.a:keyword', 'meta.b:string', 'title:text'];
      expect(columnSummary(hits.columns)).toEqual([
        ...META,
        ...mapped,
        'extra:number',
        'blob.deep.k:boolean'
      ]);
      expect(hits.columns.find(c => c.name === 'extra')?.origin).toBe(
        'documents'
      );
      expect(hits.rows[0]).toMatchObject({
        title: 'T',
        'meta.a': 'x',
        'meta.b': 'y',
        extra: 1,
        'blob.deep.k': true
      });
    });

    it('are cached per connection: a change made elsewhere shows after a cell changes the mapping', async () => {
      const other = await connect(`elasticsearch ${engine.url} ${credentials}`);
      try {
        await send(other, 'PUT', '/loose/_mapping', {
          properties: { extra: { type: 'long' } }
        });
        // This connection cached the mapping before the other one changed it.
        const cached = await hitsOf(es, request('GET', '/loose/_search'));
        expect(columnSummary(cached.columns)).toContain('extra:number');
        await send(es, 'PUT', '/loose/_mapping', {
          properties: { added: { type: 'keyword' } }
        });
        const fresh = await hitsOf(es, request('GET', '/loose/_search'));
        expect(columnSummary(fresh.columns)).toEqual([
          ...META,
          ...[
            'added:keyword',
            'extra:long',
            'meta.a:keyword',
            'meta.b:string',
            'title:text'
          ],
          'blob.deep.k:boolean'
        ]);
      } finally {
        await other.driver.close();
      }
    });

    it('an index deleted and created again with another mapping shows the new one', async () => {
      await hitsOf(es, request('GET', '/again/_search')).catch(() => undefined);
      await send(es, 'PUT', '/again', {
        mappings: { properties: { one: { type: 'keyword' } } }
      });
      expect(
        columnSummary(
          (await hitsOf(es, request('GET', '/again/_search'))).columns
        )
      ).toContain('one:keyword');
      await send(es, 'DELETE', '/again');
      await send(es, 'PUT', '/again', {
        mappings: { properties: { two: { type: 'integer' } } }
      });
      const hits = await hitsOf(es, request('GET', '/again/_search'));
      // No hits, so no score: no _score column.
      expect(columnSummary(hits.columns)).toEqual([
        '_id:keyword',
        '_index:keyword',
        'two:integer'
      ]);
    });
  });

  // API keys need security: the real 7.17 node runs open (its x-pack-security is not on Central).
  if (target.canSecure) {
    describe('a key that may search but not read mappings', () => {
      it('gets the search, with columns from the documents', async () => {
        const created = await es.driver.console.send(
          request('POST', '/_security/api_key', '', {
            name: 'search-only',
            role_descriptors: {
              reader: {
                cluster: ['monitor'],
                indices: [{ names: ['products'], privileges: ['read'] }]
              }
            }
          }),
          signal()
        );
        const key =
          created.body.kind === 'json'
            ? (created.body.value as { encoded: string }).encoded
            : '';
        const limited = await connect(
          `elasticsearch ${engine.url} auth=apikey key=\${env:LIMITED}`,
          { LIMITED: key }
        );
        try {
          const refused = await limited.driver.console.send(
            request('GET', '/products/_mapping'),
            signal()
          );
          expect(refused.status).toBe(403);
          const hits = await hitsOf(
            limited,
            request('GET', '/products/_search', '', byIds('8'))
          );
          const names = hits.columns.map(c => c.name);
          expect(names.slice(0, 4)).toEqual([
            '_id',
            '_index',
            '_score',
            'name'
          ]);
          expect(names).toEqual(
            expect.arrayContaining([
              'address.city',
              'address.country',
              'variants'
            ])
          );
          expect(names).not.toContain('variants.sku');
          expect(
            hits.columns.slice(3).every(c => c.origin === 'documents')
          ).toBe(true);
          expect(hits.columns.find(c => c.name === 'price')?.type).toBe(
            'number'
          );
          expect(rowById(hits.rows, '_id', '8').variants).toHaveLength(3);
        } finally {
          await limited.driver.close();
        }
      });
    });
  }
});
