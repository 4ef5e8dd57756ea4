/**
 * `GET /_nodes/stats[/{metric}]` for the one sandbox node: the JVM heap (this process's V8
 * heap), the file system (a fixed 100 GiB disk holding the indices' stores), and the search and
 * indexing counters, in the shape ES answers (`{_nodes, cluster_name, nodes: {<id>: {...}}}`).
 */
import os from 'node:os';
import { requireCluster } from './auth';
import type { Context } from './context';
import type { Exchange } from './exchange';

const DISK_BYTES = 100 * 1024 ** 3;
const METRICS = [
  'indices',
  'jvm',
  'fs',
  'os',
  'process',
  'thread_pool',
  'transport',
  'http',
  'breaker',
  'script',
  'discovery',
  'ingest'
];

export function nodesStats(ex: Exchange, ctx: Context): void {
  requireCluster(ex, ctx.version, 'nodesStats');
  const asked = ex.params.metric ? ex.params.metric.split(',') : ['_all'];
  const wants = (metric: string) =>
    asked.includes('_all') || asked.includes(metric);
  const unknown = asked.filter(m => m !== '_all' && !METRICS.includes(m));
  if (unknown.length > 0) {
    const reason = `request [${ex.path}] contains unrecognized metric: [${unknown[0]}]`;
    ex.send(400, {
      error: {
        root_cause: [{ type: 'illegal_argument_exception', reason }],
        type: 'illegal_argument_exception',
        reason
      },
      status: 400
    });
    return;
  }
  const now = Date.now();
  const indices = [...ctx.state.indices.values()];
  const store = indices.reduce((sum, index) => sum + index.storeBytes, 0);
  const docs = indices.reduce((sum, index) => sum + index.docs.size, 0);
  const heap = process.memoryUsage();
  const heapMax = Math.max(heap.heapTotal, 512 * 1024 ** 2);
  const node: Record<string, unknown> = {
    timestamp: now,
    name: ctx.nodeName,
    transport_address: '127.0.0.1:9300',
    host: '127.0.0.1',
    ip: '127.0.0.1:9300',
    roles: ['data', 'ingest', 'master']
  };
  if (wants('indices')) {
    node.indices = {
      docs: { count: docs, deleted: 0 },
      store: { size_in_bytes: store, reserved_in_bytes: 0 },
      indexing: {
        index_total: ctx.state.indexTotal,
        index_time_in_millis: 0,
        index_current: 0,
        index_failed: 0,
        delete_total: 0,
        delete_time_in_millis: 0
      },
      search: {
        open_contexts: ctx.state.pits.size,
        query_total: ctx.state.queryTotal,
        query_time_in_millis: 0,
        query_current: 0,
        fetch_total: ctx.state.queryTotal,
        fetch_time_in_millis: 0
      }
    };
  }
  if (wants('jvm')) {
    node.jvm = {
      timestamp: now,
      uptime_in_millis: Math.round(process.uptime() * 1000),
      mem: {
        heap_used_in_bytes: heap.heapUsed,
        heap_used_percent: Math.round((heap.heapUsed / heapMax) * 100),
        heap_committed_in_bytes: heap.heapTotal,
        heap_max_in_bytes: heapMax,
        non_heap_used_in_bytes: heap.external
      }
    };
  }
  if (wants('fs')) {
    const free = DISK_BYTES - store - 10 * 1024 ** 3;
    node.fs = {
      timestamp: now,
      total: {
        total_in_bytes: DISK_BYTES,
        free_in_bytes: free,
        available_in_bytes: free
      }
    };
  }
  if (wants('os')) {
    node.os = {
      timestamp: now,
      mem: {
        total_in_bytes: os.totalmem(),
        free_in_bytes: os.freemem(),
        used_in_bytes: os.totalmem() - os.freemem()
      }
    };
  }
  ex.send(200, {
    _nodes: { total: 1, successful: 1, failed: 0 },
    cluster_name: ctx.clusterName,
    nodes: { [ctx.state.nodeId]: node }
  });
}
