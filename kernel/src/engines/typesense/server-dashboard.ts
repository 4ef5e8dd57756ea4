/**
 * The Typesense server dashboard
 * ([cluster metrics](https://typesense.org/docs/latest/api/cluster-operations.html)):
 * `GET /metrics.json` (every value a
 * string) and `GET /stats.json` (numbers; cache figures only from 29) read together into one
 * snapshot. A figure the server does not send stays null, so the panel says "not reported"
 * instead of showing 0.
 */
import type { JsonValue } from '../../console/cell';
import type {
  Metric,
  MetricsSnapshot
} from '../../../../contracts/admin-protocol';
import type { SentRequest } from '../../../../contracts/panel-protocol';
import { asObject } from '../../driver-core/document-columns';
import { sendGridRequest } from '../../driver-core/grid-request';
import type { Transport } from '../../driver-core/http/transport';
import { typesenseFailure } from './failure';

export const DASHBOARD_TITLE = 'Server dashboard';

const NOT_OFFERED = [
  {
    label: 'Sessions',
    reason:
      'Typesense does not offer a session list: it keeps no server-side sessions, each request stands alone.'
  },
  {
    label: 'Slow queries',
    reason:
      'Typesense does not offer a slow-query log over its API (slow requests only go to its own log file, with --log-slow-requests-time-ms).'
  }
];

/** A number from a metrics.json string or a stats.json number; null when absent or unreadable. */
function figure(
  source: Record<string, JsonValue> | undefined,
  name: string
): number | null {
  const raw = source?.[name];
  const value =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && raw.trim() !== ''
        ? Number(raw)
        : Number.NaN;
  return Number.isFinite(value) ? value : null;
}

async function read(
  transport: Transport,
  path: string,
  sent: SentRequest[],
  signal: AbortSignal
): Promise<{ body?: Record<string, JsonValue>; problem?: string }> {
  try {
    return {
      body:
        asObject(
          await sendGridRequest(
            transport,
            { method: 'GET', path },
            typesenseFailure,
            sent,
            signal
          )
        ) ?? {}
    };
  } catch (err) {
    return { problem: `${path}: ${(err as Error).message}` };
  }
}

export async function typesenseDashboard(
  transport: Transport,
  signal: AbortSignal
): Promise<MetricsSnapshot> {
  const metricsSent: SentRequest[] = [];
  const statsSent: SentRequest[] = [];
  const [metrics, stats] = await Promise.all([
    read(transport, '/metrics.json', metricsSent, signal),
    read(transport, '/stats.json', statsSent, signal)
  ]);
  if (metrics.problem && stats.problem) {
    throw new Error(`${metrics.problem} ${stats.problem}`);
  }
  const m = (
    id: string,
    label: string,
    unit: Metric['unit'],
    from: typeof metrics,
    name: string,
    totalName?: string
  ): Metric => {
    const value = figure(from.body, name);
    const total = totalName ? figure(from.body, totalName) : null;
    return {
      id,
      label,
      unit,
      value,
      ...(total !== null ? { total } : {}),
      ...(from.problem ? { missing: from.problem } : {})
    };
  };
  return {
    title: DASHBOARD_TITLE,
    at: Date.now(),
    groups: [
      {
        id: 'memory',
        title: 'Memory and disk',
        metrics: [
          m(
            'process-memory',
            'Process memory',
            'bytes',
            metrics,
            'typesense_memory_resident_bytes'
          ),
          m(
            'system-memory',
            'System memory',
            'bytes',
            metrics,
            'system_memory_used_bytes',
            'system_memory_total_bytes'
          ),
          m(
            'fragmentation',
            'Memory fragmentation',
            'ratio',
            metrics,
            'typesense_memory_fragmentation_ratio'
          ),
          m(
            'disk',
            'Disk use',
            'bytes',
            metrics,
            'system_disk_used_bytes',
            'system_disk_total_bytes'
          )
        ]
      },
      {
        id: 'requests',
        title: 'Requests',
        metrics: [
          m(
            'requests',
            'Requests per second',
            'per_second',
            stats,
            'total_requests_per_second'
          ),
          m(
            'search-latency',
            'Search latency',
            'ms',
            stats,
            'search_latency_ms'
          ),
          m('write-latency', 'Write latency', 'ms', stats, 'write_latency_ms'),
          m(
            'pending-writes',
            'Pending write batches',
            'count',
            stats,
            'pending_write_batches'
          ),
          m(
            'cache-hit-ratio',
            'Cache hit ratio',
            'ratio',
            stats,
            'cache_hit_ratio'
          )
        ]
      }
    ],
    notOffered: NOT_OFFERED,
    requests: [...metricsSent, ...statsSent]
  };
}
