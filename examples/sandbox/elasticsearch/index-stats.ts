/**
 * `GET /{index}/_stats[/{metric}]`, the `docs` and `search` metrics only: per index, and summed
 * under `_all`. A point in time holds one search context on each shard it covers (the sandbox's
 * indices have one shard), so `search.open_contexts` tells whether a client released its PITs.
 */
import { authorizeExplicit, narrow } from './auth';
import type { Context } from './context';
import { illegalArgument } from './errors';
import type { Exchange } from './exchange';
import type { IndexData } from './index-data';
import { optionsFromQuery, resolveIndices } from './resolve';

const METRICS = ['_all', 'docs', 'search'];

export function indexStats(ex: Exchange, ctx: Context): void {
  const asked = ex.params['metric'] ? ex.params['metric'].split(',') : ['_all'];
  const unknown = asked.filter((m) => !METRICS.includes(m));
  if (unknown.length > 0) throw illegalArgument(`request [${ex.path}] contains unrecognized metric: [${unknown[0]}]`);
  const wants = (metric: string) => asked.includes('_all') || asked.includes(metric);
  const expr = ex.params['index'];
  authorizeExplicit(ex, ctx.state, 'monitor', expr);
  const indices = narrow(ex, 'monitor', resolveIndices(ctx.state, expr, optionsFromQuery(ex.query)));
  ctx.state.sweepPits();
  const now = Date.now();
  const statsOf = (chosen: IndexData[]) => {
    const stats: Record<string, unknown> = {};
    if (wants('docs')) stats['docs'] = { count: chosen.reduce((n, index) => n + index.searchable(now).length, 0), deleted: 0 };
    if (wants('search')) {
      const contexts = [...ctx.state.pits.values()].reduce((n, pit) => n + pit.shards.filter((s) => chosen.includes(s.index)).length, 0);
      stats['search'] = { open_contexts: contexts };
    }
    return { primaries: stats, total: stats };
  };
  ex.send(200, {
    _shards: { total: indices.length, successful: indices.length, failed: 0 },
    _all: statsOf(indices),
    indices: Object.fromEntries(indices.map((index) => [index.name, { uuid: index.uuid, ...statsOf([index]) }])),
  });
}
