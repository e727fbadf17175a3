/**
 * The workload clusters' read caches' metrics, read from them when Prometheus scrapes:
 * `agent_manager_read_cache_clusters` (stores running now, at most `--read-cache-clusters`),
 * `agent_manager_read_cache_cluster_reads_total{source}` (reads answered from the `cache` or the
 * `api` server), `agent_manager_read_cache_cluster_starts_total` and `…_stops_total{reason}`
 * (`quiet`, `evicted`, `kubeconfig changed`).
 */
import { Counter, Gauge } from 'prom-client';
import type { ClusterReadCaches } from '../kube/cache/fleet-caches.js';
import type { Metrics } from './app-metrics.js';

export function registerClusterCacheMetrics(metrics: Metrics, caches: ClusterReadCaches): void {
  const registers = [metrics.registry];
  new Gauge({
    name: 'agent_manager_read_cache_clusters',
    help: 'Workload clusters whose read-cache stores run (started on a first read, stopped when quiet or evicted).',
    registers,
    collect() {
      this.set(caches.clusters().length);
    },
  });
  new Counter({
    name: 'agent_manager_read_cache_cluster_reads_total',
    help: 'Workload-cluster reads answered from the cache or from the API server.',
    labelNames: ['source'],
    registers,
    collect() {
      // The caches count; the counter mirrors their totals, which only grow.
      this.reset();
      for (const [source, count] of Object.entries(caches.reads())) this.inc({ source }, count);
    },
  });
  new Counter({
    name: 'agent_manager_read_cache_cluster_starts_total',
    help: 'Workload clusters whose read-cache stores were started.',
    registers,
    collect() {
      this.reset();
      this.inc(caches.starts);
    },
  });
  new Counter({
    name: 'agent_manager_read_cache_cluster_stops_total',
    help: 'Workload clusters whose read-cache stores were stopped, by reason.',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(caches.stops)) if (reason !== 'closed') this.inc({ reason }, count);
    },
  });
}
