/** `GET /` and the cluster-level status endpoints. */
import { requireCluster } from './auth';
import { optionsFromQuery, resolveIndices } from './resolve';
import type { Context } from './context';
import type { Exchange } from './exchange';
import { createdVersionId, luceneVersion } from './version';

export function rootInfo(ex: Exchange, ctx: Context): void {
  requireCluster(ex, ctx.version, 'main');
  const v = ctx.version;
  ex.send(200, {
    name: ctx.nodeName,
    cluster_name: ctx.clusterName,
    cluster_uuid: ctx.state.clusterUuid,
    version: {
      number: v.number,
      build_flavor: 'default',
      build_type: 'docker',
      build_hash: createdVersionId(v).padEnd(40, '0').slice(0, 40),
      build_date:
        v.major === 7
          ? '2022-01-28T08:36:04.875279988Z'
          : '2024-08-05T10:05:34.233336849Z',
      build_snapshot: false,
      lucene_version: luceneVersion(v),
      minimum_wire_compatibility_version: v.major === 7 ? '6.8.0' : '7.17.0',
      minimum_index_compatibility_version:
        v.major === 7 ? '6.0.0-beta1' : '7.0.0'
    },
    tagline: 'You Know, for Search'
  });
}

export function clusterHealth(ex: Exchange, ctx: Context): void {
  requireCluster(ex, ctx.version, 'health');
  const expr = ex.params['index'];
  const indices =
    expr === undefined
      ? [...ctx.state.indices.values()]
      : resolveIndices(ctx.state, expr, optionsFromQuery(ex.query));
  const unassigned = indices.reduce((n, idx) => n + idx.replicas, 0);
  ex.send(200, {
    cluster_name: ctx.clusterName,
    status: unassigned > 0 ? 'yellow' : 'green',
    timed_out: false,
    number_of_nodes: 1,
    number_of_data_nodes: 1,
    active_primary_shards: indices.length,
    active_shards: indices.length,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: unassigned,
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number:
      indices.length === 0
        ? 100.0
        : (100 * indices.length) / (indices.length + unassigned)
  });
}
