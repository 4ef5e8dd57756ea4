/**
 * Every value of a real node's aggregation answers reaches the tables: for each aggregation
 * kind the node serves (metrics of one and several values, top_hits, geo, buckets of every
 * kind, nested, reverse_nested, composite, pipelines), every scalar the engine sent under
 * `aggregations` is a cell of the tables shown (inside a JSON cell counts), a sentence under
 * one, or named under one as left to Raw JSON. Kinds the node does not have (its jars lack
 * some modules) are listed, not counted.
 */
import type { JsonValue } from '../../kernel/src/console/cell';
import type { Connection } from '../../kernel/src/connections/open-connection';
import type { AggregationResult } from '../../kernel/src/driver-core/driver';
import { connect, request } from '../drivers/helpers';
import {
  describeEachTarget,
  elasticsearchTargets,
  REAL_START_TIMEOUT_MS,
  type RunningEsTarget
} from '../support/elasticsearch-targets';

type Json = Record<string, JsonValue>;
const signal = () => new AbortController().signal;

const GEO_INDEX = 'aggs-coverage-geo';

/** One request per aggregation kind (with the sub-aggregations a kind is usually read with). */
const PRODUCTS_AGGREGATIONS: Record<string, unknown> = {
  metrics: {
    avg: { avg: { field: 'price' } },
    min: { min: { field: 'created_at' } },
    max: { max: { field: 'price' } },
    sum: { sum: { field: 'stock' } },
    stats: { stats: { field: 'created_at' } },
    extended: { extended_stats: { field: 'price' } },
    pct: { percentiles: { field: 'price' } },
    pct_list: {
      percentiles: { field: 'price', keyed: false, percents: [10, 90] }
    },
    ranks: { percentile_ranks: { field: 'price', values: [50, 250] } },
    distinct: { cardinality: { field: 'category' } },
    count: { value_count: { field: 'tags' } },
    weighted: {
      weighted_avg: { value: { field: 'price' }, weight: { field: 'rating' } }
    },
    mad: { median_absolute_deviation: { field: 'price' } },
    top: {
      top_hits: {
        size: 2,
        _source: ['name', 'price'],
        sort: [{ price: 'desc' }]
      }
    }
  },
  terms: {
    cats: {
      terms: { field: 'category', size: 3, show_term_doc_count_error: true },
      aggs: {
        avg_price: { avg: { field: 'price' } },
        price_stats: { stats: { field: 'price' } },
        ext: { extended_stats: { field: 'rating' } },
        pct: { percentiles: { field: 'price', percents: [50, 99] } },
        top: { top_hits: { size: 1, _source: ['name'] } },
        brands: {
          terms: { field: 'brand.keyword', size: 2 },
          aggs: { newest: { max: { field: 'created_at' } } }
        }
      }
    }
  },
  significant: {
    sig: { significant_terms: { field: 'tags', min_doc_count: 1 } },
    text: { significant_text: { field: 'name', min_doc_count: 1 } }
  },
  rare: { rare: { rare_terms: { field: 'category', max_doc_count: 3 } } },
  histograms: {
    prices: {
      histogram: { field: 'price', interval: 100 },
      aggs: {
        avg_rating: { avg: { field: 'rating' } },
        running: { cumulative_sum: { buckets_path: '_count' } }
      }
    },
    years: {
      date_histogram: {
        field: 'created_at',
        calendar_interval: 'year',
        format: 'yyyy'
      },
      aggs: {
        sales: { sum: { field: 'price' } },
        diff: { serial_diff: { buckets_path: 'sales' } }
      }
    },
    widths: { variable_width_histogram: { field: 'price', buckets: 3 } },
    best_year: { max_bucket: { buckets_path: 'years>sales' } },
    year_stats: { extended_stats_bucket: { buckets_path: 'years>sales' } },
    year_pct: { percentiles_bucket: { buckets_path: 'years>sales' } },
    year_avg: { avg_bucket: { buckets_path: 'years>sales' } }
  },
  ranges: {
    prices: {
      range: {
        field: 'price',
        ranges: [{ to: 100 }, { from: 100, to: 300 }, { from: 300 }]
      },
      aggs: { s: { stats: { field: 'rating' } } }
    },
    keyed: {
      range: {
        field: 'price',
        keyed: true,
        ranges: [{ to: 200 }, { from: 200 }]
      }
    },
    dates: {
      date_range: {
        field: 'created_at',
        format: 'yyyy-MM',
        ranges: [{ to: '2022-01' }, { from: '2022-01' }]
      }
    }
  },
  filters: {
    stock: {
      filters: {
        filters: {
          in: { term: { in_stock: true } },
          out: { term: { in_stock: false } }
        }
      },
      aggs: { cats: { terms: { field: 'category', size: 2 } } }
    },
    anonymous: {
      filters: {
        filters: [
          { term: { in_stock: true } },
          { range: { price: { gte: 100 } } }
        ]
      }
    },
    cheap: {
      filter: { range: { price: { lt: 100 } } },
      aggs: { avg_price: { avg: { field: 'price' } } }
    },
    no_brand: { missing: { field: 'brand.keyword' } },
    everything: {
      global: {},
      aggs: { avg_price: { avg: { field: 'price' } } }
    },
    sample: {
      sampler: { shard_size: 5 },
      aggs: { cats: { terms: { field: 'category' } } }
    }
  },
  nested: {
    variants: {
      nested: { path: 'variants' },
      aggs: {
        price: { stats: { field: 'variants.price' } },
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
  },
  composite: {
    pages: {
      composite: {
        size: 4,
        sources: [
          { cat: { terms: { field: 'category' } } },
          {
            year: {
              date_histogram: {
                field: 'created_at',
                calendar_interval: 'year',
                format: 'yyyy'
              }
            }
          }
        ]
      },
      aggs: { avg_price: { avg: { field: 'price' } } }
    }
  }
};

const GEO_AGGREGATIONS: Record<string, unknown> = {
  bounds: {
    bounds: { geo_bounds: { field: 'loc' } },
    centre: { geo_centroid: { field: 'loc' } }
  },
  grids: {
    cells: {
      geohash_grid: { field: 'loc', precision: 2 },
      aggs: { centre: { geo_centroid: { field: 'loc' } } }
    },
    tiles: { geotile_grid: { field: 'loc', precision: 3 } }
  },
  ips: {
    nets: {
      ip_range: {
        field: 'ip',
        ranges: [{ to: '10.0.0.5' }, { mask: '10.0.0.0/24' }]
      }
    }
  }
};

/** Every scalar under `aggregations`, with its path (array positions as `[]`) and the object holding it. */
function leaves(
  value: JsonValue,
  path: string,
  holder: Json | undefined,
  key: string,
  into: {
    path: string;
    key: string;
    value: JsonValue;
    holder: Json | undefined;
  }[] = []
): typeof into {
  if (Array.isArray(value)) {
    value.forEach(v => leaves(v, `${path}[]`, undefined, key, into));
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      leaves(v, path ? `${path}.${k}` : k, value as Json, k, into);
    }
  } else {
    into.push({ path, key, value, holder });
  }
  return into;
}

/** The scalars the tables show, counted (a JSON cell shows every scalar in it). */
function shownScalars(tables: AggregationResult[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (v: JsonValue): void => {
    if (Array.isArray(v)) {
      v.forEach(add);
    } else if (typeof v === 'object' && v !== null) {
      Object.values(v).forEach(add);
    } else {
      counts.set(JSON.stringify(v), (counts.get(JSON.stringify(v)) ?? 0) + 1);
    }
  };
  for (const table of tables) {
    for (const row of table.rows) {
      Object.values(row).forEach(add);
    }
  }
  return counts;
}

/** The scalars of an answer that no table, sentence or not-shown name accounts for. */
function unaccounted(
  aggregations: Json,
  tables: AggregationResult[]
): string[] {
  const cells = shownScalars(tables);
  const notes = tables.flatMap(t => t.notes ?? []).join('\n');
  const notShown = tables.flatMap(t => t.notShown ?? []);
  const columns = tables.flatMap(t => t.rows.flatMap(row => Object.keys(row)));
  const take = (v: JsonValue): boolean => {
    const k = JSON.stringify(v);
    const n = cells.get(k) ?? 0;
    if (n === 0) {
      return false;
    }
    cells.set(k, n - 1);
    return true;
  };
  const missing: string[] = [];
  for (const leaf of leaves(aggregations, '', undefined, '')) {
    // A value the engine also sent as text (`key_as_string`, `min_as_string`) is shown as that text.
    const asText = leaf.holder?.[`${leaf.key}_as_string`];
    if (typeof asText === 'string') {
      continue;
    }
    if (take(leaf.value)) {
      continue;
    }
    // The key of a keyed element (`{key: 99, value: ...}` of percentiles, matrix_stats' `name`) names its column.
    if (
      (leaf.key === 'key' || leaf.key === 'name') &&
      leaf.path.endsWith(`[].${leaf.key}`) &&
      columns.some(c => c.split('.').includes(String(leaf.value)))
    ) {
      continue;
    }
    const spoken =
      typeof leaf.value === 'number'
        ? [
            leaf.value.toLocaleString('en-US', { maximumFractionDigits: 20 }),
            String(leaf.value)
          ]
        : [String(leaf.value)];
    if (spoken.some(text => notes.includes(text))) {
      continue;
    }
    if (
      notShown.some(
        name =>
          leaf.path === name ||
          leaf.path.startsWith(`${name}.`) ||
          leaf.path.startsWith(`${name}[`)
      )
    ) {
      continue;
    }
    missing.push(`${leaf.path} = ${JSON.stringify(leaf.value)}`);
  }
  return missing;
}

describeEachTarget(
  elasticsearchTargets(undefined, { newest: true }).filter(
    t => t.engine === 'real'
  ),
  'every value of every aggregation kind reaches the tables',
  target => {
    let engine: RunningEsTarget;
    let es: Connection;
    const credentials = target.canSecure
      ? 'user=elastic password=${env:ES_PASSWORD}'
      : 'auth=none';

    beforeAll(async () => {
      engine = await target.start({ security: target.canSecure });
      es = await connect(`elasticsearch ${engine.url} ${credentials}`);
      await es.driver.console.send(
        request('DELETE', `/${GEO_INDEX}`),
        signal()
      );
      const created = await es.driver.console.send(
        request('PUT', `/${GEO_INDEX}`, '', {
          mappings: {
            properties: { loc: { type: 'geo_point' }, ip: { type: 'ip' } }
          }
        }),
        signal()
      );
      expect(created.status).toBe(200);
      const places = [
        [52.37, 4.89, '10.0.0.1'],
        [48.86, 2.35, '10.0.0.9'],
        [40.71, -74.0, '192.168.1.1'],
        [35.68, 139.69, '10.0.1.3']
      ] as const;
      for (const [i, [lat, lon, ip]] of places.entries()) {
        expect(
          (
            await es.driver.console.send(
              request('PUT', `/${GEO_INDEX}/_doc/${i}`, 'refresh=true', {
                loc: { lat, lon },
                ip
              }),
              signal()
            )
          ).status
        ).toBe(201);
      }
    }, REAL_START_TIMEOUT_MS);
    afterAll(async () => {
      if (es) {
        await es.driver.console.send(
          request('DELETE', `/${GEO_INDEX}`),
          signal()
        );
      }
      await es?.driver.close();
      await engine?.close();
    });

    const cases = [
      ...Object.entries(PRODUCTS_AGGREGATIONS).map(([name, aggs]) => ({
        name,
        index: 'products',
        aggs
      })),
      ...Object.entries(GEO_AGGREGATIONS).map(([name, aggs]) => ({
        name,
        index: GEO_INDEX,
        aggs
      }))
    ];
    it.each(cases)(
      '$name: every scalar of the answer is a cell, a sentence, or named as not shown',
      async ({ index, aggs }) => {
        const req = request('POST', `/${index}/_search`, '', { size: 0, aggs });
        const response = await es.driver.console.send(req, signal());
        const body =
          response.body.kind === 'json' ? (response.body.value as Json) : {};
        expect({
          status: response.status,
          body: response.status === 200 ? 'answered' : body
        }).toEqual({ status: 200, body: 'answered' });
        const result = es.driver.console.present(req, response);
        if (result.kind !== 'hits') {
          throw new Error(`expected a grid, got ${result.kind}`);
        }
        const aggregations = body.aggregations as Json;
        expect(leaves(aggregations, '', undefined, '').length).toBeGreaterThan(
          0
        );
        expect(unaccounted(aggregations, result.aggregations ?? [])).toEqual(
          []
        );
      }
    );
  }
);
