/**
 * Aggregation answers shown whole, over HTTP against the sandbox and the real nodes: metrics
 * with several values become columns, bucket aggregations inside buckets get tables of their
 * own led by the parent keys, the engine's text forms of keys and values are shown, what a
 * terms aggregation says about its other buckets is said under its table, and the text and
 * HTML fallbacks carry the same tables and sentences.
 */
import type { JsonValue } from '../../kernel/src/console/cell';
import type { Connection } from '../../kernel/src/connections/open-connection';
import type { AggregationResult } from '../../kernel/src/driver-core/driver';
import { toBundle } from '../../kernel/src/render/bundle';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';
import { expectFor } from '../support/sandbox-differences';
import { connect, request } from './helpers';

type Json = Record<string, JsonValue>;
const signal = () => new AbortController().signal;
const obj = (v: JsonValue | undefined): Json => v as Json;

/** The engine's aggregations and the tables shown for them. */
async function aggregate(
  es: Connection,
  aggs: unknown,
  query: unknown = { match_all: {} }
): Promise<{
  raw: Json;
  tables: AggregationResult[];
  status: number;
  body: JsonValue;
}> {
  const req = request('POST', '/products/_search', '', {
    size: 0,
    query,
    aggs
  });
  const response = await es.driver.console.send(req, signal());
  const body = response.body.kind === 'json' ? response.body.value : null;
  if (response.status >= 300) {
    return { raw: {}, tables: [], status: response.status, body };
  }
  const result = es.driver.console.present(req, response);
  if (result.kind !== 'hits') {
    throw new Error(`expected a grid, got ${result.kind}`);
  }
  return {
    raw: obj(obj(body).aggregations),
    tables: result.aggregations ?? [],
    status: response.status,
    body
  };
}

const table = (
  tables: AggregationResult[],
  name: string
): AggregationResult => {
  const found = tables.find(t => t.name === name);
  if (!found) {
    throw new Error(
      `no table ${name} among ${tables.map(t => t.name).join(', ')}`
    );
  }
  return found;
};
const buckets = (agg: JsonValue | undefined): Json[] =>
  obj(agg).buckets as Json[];

// Real Elasticsearch 9.5.3 and OpenSearch 2.19.1 too (real-node-differences.ts says where they answer unlike 8.19).
const TARGETS = elasticsearchTargets(undefined, { newest: true });

describeEachTarget(TARGETS, 'aggregation tables', target => {
  let engine: RunningEsTarget;
  let es: Connection;
  const credentials = target.canSecure
    ? 'user=elastic password=${env:ES_PASSWORD}'
    : 'auth=none';

  beforeAll(async () => {
    engine = await target.start({ security: target.canSecure });
    es = await connect(`elasticsearch ${engine.url} ${credentials}`);
  }, REAL_START_TIMEOUT_MS);
  afterAll(async () => {
    await es?.driver.close();
    await engine?.close();
  });

  it('a stats metric inside terms buckets becomes one column per value, beside the single-value avg; date stats show as dates', async () => {
    const { raw, tables } = await aggregate(es, {
      brands: {
        terms: { field: 'brand.keyword' },
        aggs: {
          avg_price: { avg: { field: 'price' } },
          price_stats: { stats: { field: 'price' } },
          dates: { stats: { field: 'created_at' } }
        }
      }
    });
    const brands = table(tables, 'brands');
    // The bucket's key and count lead; the sub-aggregations follow in the engine's order.
    expect(Object.keys(brands.rows[0] ?? {}).slice(0, 2)).toEqual([
      'key',
      'doc_count'
    ]);
    expect(Object.keys(brands.rows[0] ?? {}).sort()).toEqual(
      [
        'key',
        'doc_count',
        'avg_price',
        'price_stats.count',
        'price_stats.min',
        'price_stats.max',
        'price_stats.avg',
        'price_stats.sum',
        'dates.count',
        'dates.min',
        'dates.max',
        'dates.avg',
        'dates.sum'
      ].sort()
    );
    buckets(raw.brands).forEach((bucket, i) => {
      const row = brands.rows[i] ?? {};
      const stats = obj(bucket.price_stats);
      expect(row).toMatchObject({
        key: bucket.key,
        doc_count: bucket.doc_count,
        avg_price: obj(bucket.avg_price).value,
        'price_stats.max': stats.max,
        'price_stats.count': stats.count
      });
      // The engine prints a date field's stats as dates too: those are shown.
      expect(row['dates.min']).toBe(obj(bucket.dates).min_as_string);
      expect(String(row['dates.min'])).toMatch(/^\d{4}-\d\d-\d\dT/);
    });
  });

  it('extended_stats, percentiles, percentile_ranks, cardinality, value_count and top_hits become columns', async () => {
    const { raw, tables, status, body } = await aggregate(es, {
      cats: {
        terms: { field: 'category', size: 3 },
        aggs: {
          ext: { extended_stats: { field: 'price' } },
          pct: { percentiles: { field: 'price', percents: [50, 99] } },
          ranks: { percentile_ranks: { field: 'price', values: [100] } },
          brands: { cardinality: { field: 'brand.keyword' } },
          priced: { value_count: { field: 'price' } },
          top: {
            top_hits: { size: 1, _source: ['name'], sort: [{ price: 'desc' }] }
          }
        }
      }
    });
    const served = expectFor(target, 'aggregations-beyond-the-basic-metrics', {
      sandbox: false,
      elasticsearch: true
    });
    if (!served) {
      expect(status).toBe(400);
      expect(JSON.stringify(body)).toContain(
        'Unknown aggregation type [extended_stats]'
      );
      return;
    }
    const cats = table(tables, 'cats');
    buckets(raw.cats).forEach((bucket, i) => {
      const row = cats.rows[i] ?? {};
      const ext = obj(bucket.ext);
      expect(row['ext.std_deviation']).toBe(ext.std_deviation);
      expect(row['ext.std_deviation_bounds.upper']).toBe(
        obj(ext.std_deviation_bounds).upper
      );
      expect(row['pct.99.0']).toBe(obj(obj(bucket.pct).values)['99.0']);
      expect(row['pct.50.0']).toBe(obj(obj(bucket.pct).values)['50.0']);
      expect(row['ranks.100.0']).toBe(obj(obj(bucket.ranks).values)['100.0']);
      expect(row.brands).toBe(obj(bucket.brands).value);
      expect(row.priced).toBe(obj(bucket.priced).value);
      const hits = obj(obj(bucket.top).hits);
      expect(row['top.total']).toBe(obj(hits.total).value);
      expect(row['top.hits']).toEqual(hits.hits);
    });
    expect(cats.notShown).toBeUndefined();
  });

  it("a terms inside terms is a table of its own, led by the parent key, with each parent's other documents said under it", async () => {
    const { raw, tables } = await aggregate(es, {
      cats: {
        terms: { field: 'category', size: 3 },
        aggs: { brand: { terms: { field: 'brand.keyword', size: 1 } } }
      }
    });
    expect(tables.map(t => t.name)).toEqual(['cats', 'cats > brand']);
    const inner = table(tables, 'cats > brand');
    const expected = buckets(raw.cats).flatMap(parent =>
      buckets(parent.brand).map(b => ({
        cats: parent.key,
        key: b.key,
        doc_count: b.doc_count
      }))
    );
    expect(inner.rows).toEqual(expected);
    expect(inner.keyColumns).toEqual(['cats', 'key']);
    // Each category's own count of documents in other brands (size 1 leaves most out).
    const others = buckets(raw.cats).map(
      parent =>
        `${String(parent.key)}: ${Number(obj(parent.brand).sum_other_doc_count).toLocaleString('en-US')}`
    );
    expect(
      inner.notes?.find(n =>
        n.startsWith(
          'documents in other buckets (sum_other_doc_count), per cats bucket:'
        )
      )
    ).toBe(
      `documents in other buckets (sum_other_doc_count), per cats bucket: ${others.join('; ')}`
    );
  });

  it('filters, range and date_histogram inside buckets: tables with the parent key, range bounds and dates as the engine prints them', async () => {
    const { raw, tables } = await aggregate(es, {
      stock: {
        filters: {
          filters: {
            in: { term: { in_stock: true } },
            out: { term: { in_stock: false } }
          }
        },
        aggs: {
          prices: {
            range: {
              field: 'price',
              ranges: [{ to: 100 }, { from: 100, to: 300 }, { from: 300 }]
            }
          },
          years: {
            date_histogram: { field: 'created_at', calendar_interval: 'year' }
          }
        }
      }
    });
    // The parent's table first, its children's in the engine's order.
    expect(tables[0]?.name).toBe('stock');
    expect(tables.map(t => t.name).sort()).toEqual([
      'stock',
      'stock > prices',
      'stock > years'
    ]);
    expect(table(tables, 'stock').rows).toEqual(
      ['in', 'out'].map(k => ({
        key: k,
        doc_count: obj(obj(obj(raw.stock).buckets)[k]).doc_count
      }))
    );
    const prices = table(tables, 'stock > prices');
    const inPrices = buckets(obj(obj(obj(raw.stock).buckets).in).prices);
    expect(prices.rows.slice(0, 3)).toEqual(
      inPrices.map(b => ({ stock: 'in', ...b }))
    );
    const years = table(tables, 'stock > years');
    const inYears = buckets(obj(obj(obj(raw.stock).buckets).in).years);
    expect(years.rows.slice(0, inYears.length)).toEqual(
      inYears.map(b => ({
        stock: 'in',
        key: b.key_as_string,
        doc_count: b.doc_count
      }))
    );
    expect(years.keyColumns).toEqual(['stock', 'key']);
  });

  it('nested and reverse_nested holding buckets: tables through them, led by every parent key', async () => {
    const { raw, tables } = await aggregate(es, {
      variants: {
        nested: { path: 'variants' },
        aggs: {
          colors: {
            terms: { field: 'variants.color', size: 3 },
            aggs: {
              back: {
                reverse_nested: {},
                aggs: { cats: { terms: { field: 'category', size: 2 } } }
              }
            }
          }
        }
      }
    });
    expect(tables.map(t => t.name)).toEqual([
      'variants',
      'variants > colors',
      'variants > colors > back.cats'
    ]);
    expect(table(tables, 'variants').rows).toEqual([
      { doc_count: obj(raw.variants).doc_count }
    ]);
    const colors = buckets(obj(raw.variants).colors);
    expect(table(tables, 'variants > colors').rows).toEqual(
      colors.map(c => ({
        key: c.key,
        doc_count: c.doc_count,
        'back.doc_count': obj(c.back).doc_count
      }))
    );
    const cats = table(tables, 'variants > colors > back.cats');
    expect(cats.rows).toEqual(
      colors.flatMap(c =>
        buckets(obj(c.back).cats).map(b => ({
          colors: c.key,
          key: b.key,
          doc_count: b.doc_count
        }))
      )
    );
  });

  it('a value whose column name is taken (a sub-aggregation named s.max beside stats s) is named under the table, not dropped silently', async () => {
    const { raw, tables } = await aggregate(es, {
      cats: {
        terms: { field: 'category', size: 2 },
        aggs: {
          s: { stats: { field: 'price' } },
          's.max': { max: { field: 'rating' } }
        }
      }
    });
    const cats = table(tables, 'cats');
    // The engine's order decides which of the two gets the column; the other is named.
    const first = Object.keys(buckets(raw.cats)[0] ?? {}).find(
      k => k === 's' || k === 's.max'
    );
    const named =
      first === 's' ? 'cats.buckets[].s.max.value' : 'cats.buckets[].s.max';
    expect(cats.notShown).toEqual([named]);
    buckets(raw.cats).forEach((bucket, i) => {
      expect(cats.rows[i]?.['s.max']).toBe(
        first === 's' ? obj(bucket.s).max : obj(bucket['s.max']).value
      );
    });
    const info = {
      connection: 'es',
      engine: 'elasticsearch' as const,
      method: 'POST',
      path: '/products/_search',
      status: 200,
      elapsedMs: 1
    };
    const plain = String(
      toBundle(
        { kind: 'hits', columns: [], rows: [], aggregations: tables },
        info,
        undefined
      )['text/plain']
    );
    expect(plain).toContain(
      `Not shown in this table (read them in Raw JSON, the engine's answer): ${named}.`
    );
  });

  it('composite: one column per source, and the after_key to page on said under the table', async () => {
    const { raw, tables } = await aggregate(es, {
      pages: {
        composite: {
          size: 3,
          sources: [
            { cat: { terms: { field: 'category' } } },
            { stock: { terms: { field: 'in_stock' } } }
          ]
        }
      }
    });
    const pages = table(tables, 'pages');
    expect(pages.rows).toEqual(
      buckets(raw.pages).map(b => ({
        'key.cat': obj(b.key).cat,
        'key.stock': obj(b.key).stock,
        doc_count: b.doc_count
      }))
    );
    expect(pages.keyColumns).toEqual(['key.cat', 'key.stock']);
    expect(pages.notes).toEqual([
      `after_key (the next page starts after it): ${JSON.stringify(obj(raw.pages).after_key)}`
    ]);
  });

  it('sum_other_doc_count and doc_count_error_upper_bound are said under a top-10 table, and the fallbacks carry the tables and sentences', async () => {
    const req = request('POST', '/products/_search', '', {
      size: 0,
      aggs: {
        cats: {
          terms: { field: 'category', size: 2 },
          aggs: { price_stats: { stats: { field: 'price' } } }
        }
      }
    });
    const response = await es.driver.console.send(req, signal());
    const raw = obj(
      obj(response.body.kind === 'json' ? response.body.value : null)
        .aggregations
    );
    const other = obj(raw.cats).sum_other_doc_count as number;
    expect(other).toBeGreaterThan(0);
    const result = es.driver.console.present(req, response);
    if (result.kind !== 'hits') {
      throw new Error('expected a grid');
    }
    const cats = table(result.aggregations ?? [], 'cats');
    expect(cats.notes).toEqual([
      `and ${other.toLocaleString('en-US')} documents in other buckets (sum_other_doc_count)`,
      `doc_count_error_upper_bound (how far a count may be too low): ${String(obj(raw.cats).doc_count_error_upper_bound)}`
    ]);
    const info = {
      connection: 'es',
      engine: 'elasticsearch' as const,
      method: 'POST',
      path: '/products/_search',
      status: 200,
      elapsedMs: 1
    };
    const bundle = toBundle(result, info, undefined);
    const plain = String(bundle['text/plain']);
    const html = String(bundle['text/html']);
    const first = buckets(raw.cats)[0] ?? {};
    expect(plain).toContain('Aggregation cats');
    expect(plain).toContain('price_stats.max');
    expect(plain).toContain(String(obj(first.price_stats).max));
    expect(plain).toContain(
      `and ${other.toLocaleString('en-US')} documents in other buckets (sum_other_doc_count)`
    );
    expect(html).toContain('<th>price_stats.max</th>');
    expect(html).toContain(
      `<p>and ${other.toLocaleString('en-US')} documents in other buckets (sum_other_doc_count)</p>`
    );
  });

  it('a bucket aggregation the engine answered with no buckets says so in place of an empty table, in the fallbacks too', async () => {
    const req = request('POST', '/products/_search', '', {
      size: 0,
      aggs: {
        cats: {
          terms: { field: 'category', size: 2 },
          aggs: { none: { terms: { field: 'no_such_field' } } }
        }
      }
    });
    const response = await es.driver.console.send(req, signal());
    const raw = obj(
      obj(response.body.kind === 'json' ? response.body.value : null)
        .aggregations
    );
    expect(buckets(raw.cats).every(b => buckets(b.none).length === 0)).toBe(
      true
    );
    const result = es.driver.console.present(req, response);
    if (result.kind !== 'hits') {
      throw new Error('expected a grid');
    }
    expect(table(result.aggregations ?? [], 'cats > none').rows).toEqual([]);
    const info = {
      connection: 'es',
      engine: 'elasticsearch' as const,
      method: 'POST',
      path: '/products/_search',
      status: 200,
      elapsedMs: 1
    };
    const bundle = toBundle(result, info, undefined);
    const noBuckets =
      'No buckets: the engine answered this aggregation with none.';
    expect(String(bundle['text/plain'])).toMatch(
      new RegExp(
        `Aggregation cats > none\\n[\\s\\S]*?${noBuckets.replace(/[.:]/g, '\\$&')}`
      )
    );
    expect(String(bundle['text/html'])).toContain(`<p>${noBuckets}</p>`);
  });
});
