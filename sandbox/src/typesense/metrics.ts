/**
 * Request accounting behind `/stats.json` (a sliding ten-second window of real requests
 * and their latencies) and the string-valued system figures of `/metrics.json`.
 */
import os from 'node:os';
import type { Features } from './version';

interface Sample {
  at: number;
  key: string;
  kind: 'search' | 'write' | 'import' | 'delete' | 'other';
  ms: number;
}

const WINDOW_MS = 10_000;
/** Bounds memory under a benchmark: older samples are dropped first. */
const MAX_SAMPLES = 100_000;

export class Stats {
  private samples: Sample[] = [];
  cacheHits = 0;
  cacheMisses = 0;

  record(
    method: string,
    routeKey: string,
    kind: Sample['kind'],
    ms: number
  ): void {
    this.samples.push({
      at: Date.now(),
      key: `${method} ${routeKey}`,
      kind,
      ms
    });
    if (this.samples.length > MAX_SAMPLES) {
      this.samples = this.samples.slice(-MAX_SAMPLES / 2);
    }
  }

  snapshot(feat: Features): Record<string, unknown> {
    const now = Date.now();
    this.samples = this.samples.filter(s => now - s.at <= WINDOW_MS);
    const seconds = WINDOW_MS / 1000;
    const rps = (list: Sample[]): number => round(list.length / seconds);
    const mean = (list: Sample[]): number =>
      list.length === 0
        ? 0
        : round(list.reduce((a, s) => a + s.ms, 0) / list.length);
    const byKey = new Map<string, Sample[]>();
    for (const s of this.samples) {
      const list = byKey.get(s.key) ?? [];
      list.push(s);
      byKey.set(s.key, list);
    }
    const ofKind = (k: Sample['kind']): Sample[] =>
      this.samples.filter(s => s.kind === k);
    const out: Record<string, unknown> = {
      delete_latency_ms: mean(ofKind('delete')),
      delete_requests_per_second: rps(ofKind('delete')),
      import_latency_ms: mean(ofKind('import')),
      import_requests_per_second: rps(ofKind('import')),
      latency_ms: Object.fromEntries([...byKey].map(([k, v]) => [k, mean(v)])),
      overloaded_requests_per_second: 0,
      pending_write_batches: 0,
      requests_per_second: Object.fromEntries(
        [...byKey].map(([k, v]) => [k, rps(v)])
      ),
      search_latency_ms: mean(ofKind('search')),
      search_requests_per_second: rps(ofKind('search')),
      total_requests_per_second: rps(this.samples),
      write_latency_ms: mean(ofKind('write')),
      write_requests_per_second: rps(ofKind('write'))
    };
    if (feat.statsPercentiles) {
      const total = this.cacheHits + this.cacheMisses;
      out.cache_hit_count = this.cacheHits;
      out.cache_miss_count = this.cacheMisses;
      out.cache_hit_ratio = total === 0 ? 0 : round(this.cacheHits / total);
      const search = ofKind('search')
        .map(s => s.ms)
        .sort((a, b) => a - b);
      for (const p of [50, 95, 99]) {
        out[`search_latency_p${p}_ms`] = percentile(search, p);
      }
      const write = ofKind('write')
        .map(s => s.ms)
        .sort((a, b) => a - b);
      for (const p of [50, 95, 99]) {
        out[`write_latency_p${p}_ms`] = percentile(write, p);
      }
    }
    return out;
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) {
    return 0;
  }
  return round(
    sorted[
      Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))
    ] as number
  );
}

/** Every value a string, as the engine prints them. */
export function systemMetrics(): Record<string, string> {
  const mem = process.memoryUsage();
  const out: Record<string, string> = {};
  os.cpus().forEach((_, i) => {
    out[`system_cpu${i + 1}_active_percentage`] = '0.00';
  });
  out.system_cpu_active_percentage = '0.00';
  out.system_disk_total_bytes = String(100 * 1024 ** 3);
  out.system_disk_used_bytes = String(10 * 1024 ** 3);
  out.system_memory_total_bytes = String(os.totalmem());
  out.system_memory_used_bytes = String(os.totalmem() - os.freemem());
  out.system_network_received_bytes = '0';
  out.system_network_sent_bytes = '0';
  out.typesense_memory_active_bytes = String(mem.heapUsed);
  out.typesense_memory_allocated_bytes = String(mem.heapTotal);
  out.typesense_memory_fragmentation_ratio = (
    mem.heapTotal === 0 ? 0 : 1 - mem.heapUsed / mem.heapTotal
  ).toFixed(2);
  out.typesense_memory_mapped_bytes = String(mem.external);
  out.typesense_memory_metadata_bytes = '0';
  out.typesense_memory_resident_bytes = String(mem.rss);
  out.typesense_memory_retained_bytes = '0';
  return out;
}
