/**
 * `GET /{index}/_stats[/{metric}]`: per index, and summed under `_all`. Every metric name ES
 * 8.19 takes is accepted, but only `docs` and `search` are answered (the others are left out).
 * A point in time holds one search context on each shard it covers (the sandbox's indices have
 * one shard), so `search.open_contexts` tells whether a client released its points in time.
 */
import { authorizeExplicit, narrow } from './auth';
import type { Context } from './context';
import { illegalArgument } from './errors';
import type { Exchange } from './exchange';
import type { IndexData } from './index-data';
import { optionsFromQuery, resolveIndices } from './resolve';

const METRICS = [
  '_all',
  'docs',
  'store',
  'indexing',
  'get',
  'search',
  'merge',
  'refresh',
  'flush',
  'warmer',
  'query_cache',
  'fielddata',
  'completion',
  'segments',
  'translog',
  'request_cache',
  'recovery',
  'bulk',
  'shard_stats',
  'mappings',
  'dense_vector',
  'sparse_vector'
];

export function indexStats(ex: Exchange, ctx: Context): void {
  const asked = ex.params['metric'] ? ex.params['metric'].split(',') : ['_all'];
  const unknown = asked.filter(m => !METRICS.includes(m));
  if (unknown.length > 0) {
    throw illegalArgument(
      `request [${ex.path}] contains unrecognized metric: [${unknown[0]}]`
    );
  }
  const wants = (metric: string) =>
    asked.includes('_all') || asked.includes(metric);
  const expr = ex.params['index'];
  authorizeExplicit(ex, ctx.state, 'monitor', expr);
  const indices = narrow(
    ex,
    'monitor',
    resolveIndices(ctx.state, expr, optionsFromQuery(ex.query))
  );
  ctx.state.sweepPits();
  const now = Date.now();
  const statsOf = (chosen: IndexData[]) => {
    const stats: Record<string, unknown> = {};
    if (wants('docs')) {
      stats['docs'] = {
        count: chosen.reduce((n, index) => n + index.searchable(now).length, 0),
        deleted: 0
      };
    }
    if (wants('search')) {
      const contexts = [...ctx.state.pits.values()].reduce(
        (n, pit) => n + pit.shards.filter(s => chosen.includes(s.index)).length,
        0
      );
      stats['search'] = { open_contexts: contexts };
    }
    return { primaries: stats, total: stats };
  };
  ex.send(200, {
    _shards: { total: indices.length, successful: indices.length, failed: 0 },
    _all: statsOf(indices),
    indices: Object.fromEntries(
      indices.map(index => [
        index.name,
        {
          uuid: index.uuid,
          health: index.health,
          status: 'open',
          ...statsOf([index])
        }
      ])
    )
  });
}
