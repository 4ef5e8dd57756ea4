/**
 * The Elasticsearch cluster overview for the side panel: `GET /_cluster/health` (status, nodes,
 * shards) and `GET /_nodes/stats/jvm,fs,indices` (per node heap, disk, search and indexing).
 * Search and indexing rates are counter deltas between two readings, so the overview keeps the
 * previous counters of each node; the first reading says it is still measuring.
 */
import { z } from 'zod';
import type {
  Metric,
  MetricGroup,
  MetricsSnapshot
} from '../../../../contracts/admin-protocol';
import type { SentRequest } from '../../../../contracts/panel-protocol';
import { sendGridRequest } from '../../driver-core/grid-request';
import type { Transport } from '../../driver-core/http/transport';
import { elasticsearchFailure } from './failure';

export const OVERVIEW_TITLE = 'Cluster overview';

const num = z.number().optional();
const Health = z
  .object({
    status: z.string(),
    number_of_nodes: num,
    number_of_data_nodes: num,
    active_shards: num,
    relocating_shards: num,
    initializing_shards: num,
    unassigned_shards: num
  })
  .loose();
const NodeStats = z
  .object({
    timestamp: num,
    name: z.string().optional(),
    jvm: z
      .object({
        mem: z
          .object({ heap_used_in_bytes: num, heap_max_in_bytes: num })
          .loose()
          .optional()
      })
      .loose()
      .optional(),
    fs: z
      .object({
        total: z
          .object({
            total_in_bytes: num,
            available_in_bytes: num,
            free_in_bytes: num
          })
          .loose()
          .optional()
      })
      .loose()
      .optional(),
    indices: z
      .object({
        search: z.object({ query_total: num }).loose().optional(),
        indexing: z.object({ index_total: num }).loose().optional()
      })
      .loose()
      .optional()
  })
  .loose();
const Nodes = z.object({ nodes: z.record(z.string(), NodeStats) }).loose();

const TONES: Record<string, Metric['tone']> = {
  green: 'good',
  yellow: 'warn',
  red: 'bad'
};
const MEASURING = 'measuring: a rate needs two readings';

interface Counters {
  at: number;
  queries?: number;
  indexed?: number;
}

export class ClusterOverview {
  private readonly previous = new Map<string, Counters>();

  constructor(private readonly transport: Transport) {}

  async read(signal: AbortSignal): Promise<MetricsSnapshot> {
    // One list per request: the status line lists them in the order they were asked, not answered.
    const healthSent: SentRequest[] = [];
    const nodesSent: SentRequest[] = [];
    const failure = (response: Parameters<typeof elasticsearchFailure>[0]) =>
      elasticsearchFailure(response);
    const [healthBody, nodesBody] = await Promise.all([
      sendGridRequest(
        this.transport,
        { method: 'GET', path: '/_cluster/health' },
        failure,
        healthSent,
        signal
      ),
      sendGridRequest(
        this.transport,
        { method: 'GET', path: '/_nodes/stats/jvm,fs,indices' },
        failure,
        nodesSent,
        signal
      )
    ]);
    const health = Health.safeParse(healthBody);
    if (!health.success) {
      throw new Error('GET /_cluster/health did not answer a cluster status.');
    }
    const nodes = Nodes.safeParse(nodesBody);
    if (!nodes.success) {
      throw new Error('GET /_nodes/stats did not answer node statistics.');
    }
    const h = health.data;
    const count = (
      id: string,
      label: string,
      value: number | undefined
    ): Metric => ({ id, label, unit: 'count', value: value ?? null });
    const cluster: MetricGroup = {
      id: 'cluster',
      title: 'Cluster',
      metrics: [
        {
          id: 'status',
          label: 'Status',
          unit: 'text',
          value: null,
          text: h.status,
          ...(TONES[h.status] ? { tone: TONES[h.status] } : {})
        },
        count('nodes', 'Nodes', h.number_of_nodes),
        count('active-shards', 'Active shards', h.active_shards),
        count('relocating-shards', 'Relocating shards', h.relocating_shards),
        count('unassigned-shards', 'Unassigned shards', h.unassigned_shards)
      ]
    };
    const now = Date.now();
    const groups = Object.entries(nodes.data.nodes)
      .sort(([, a], [, b]) => ((a.name ?? '') < (b.name ?? '') ? -1 : 1))
      .map(([id, node]) => this.nodeGroup(id, node, now));
    return {
      title: OVERVIEW_TITLE,
      at: now,
      groups: [cluster, ...groups],
      notOffered: [],
      requests: [...healthSent, ...nodesSent]
    };
  }

  private nodeGroup(
    id: string,
    node: z.infer<typeof NodeStats>,
    now: number
  ): MetricGroup {
    const at = node.timestamp ?? now;
    const counters: Counters = {
      at,
      queries: node.indices?.search?.query_total,
      indexed: node.indices?.indexing?.index_total
    };
    const before = this.previous.get(id);
    this.previous.set(id, counters);
    const rate = (
      metric: string,
      label: string,
      key: 'queries' | 'indexed'
    ): Metric => {
      const current = counters[key];
      if (current === undefined) {
        return {
          id: `${id}:${metric}`,
          label,
          unit: 'per_second',
          value: null
        };
      }
      const then = before?.[key];
      const seconds = before ? (at - before.at) / 1000 : 0;
      if (then === undefined || seconds <= 0 || current < then) {
        return {
          id: `${id}:${metric}`,
          label,
          unit: 'per_second',
          value: null,
          missing: MEASURING
        };
      }
      return {
        id: `${id}:${metric}`,
        label,
        unit: 'per_second',
        value: Math.round(((current - then) / seconds) * 100) / 100
      };
    };
    const fs = node.fs?.total;
    const diskTotal = fs?.total_in_bytes;
    const diskFree = fs?.available_in_bytes ?? fs?.free_in_bytes;
    const heap = node.jvm?.mem;
    return {
      id,
      title: `Node ${node.name ?? id}`,
      metrics: [
        {
          id: `${id}:heap`,
          label: 'Heap',
          unit: 'bytes',
          value: heap?.heap_used_in_bytes ?? null,
          ...(heap?.heap_max_in_bytes !== undefined
            ? { total: heap.heap_max_in_bytes }
            : {})
        },
        {
          id: `${id}:disk`,
          label: 'Disk use',
          unit: 'bytes',
          value:
            diskTotal !== undefined && diskFree !== undefined
              ? diskTotal - diskFree
              : null,
          ...(diskTotal !== undefined ? { total: diskTotal } : {})
        },
        rate('search-rate', 'Searches per second', 'queries'),
        rate('indexing-rate', 'Documents indexed per second', 'indexed')
      ]
    };
  }
}
