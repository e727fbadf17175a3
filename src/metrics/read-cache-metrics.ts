/**
 * The read cache's metrics, read from the cache when Prometheus scrapes (nothing is
 * recorded on the request path beyond two integer increments in the cache itself):
 *
 * - `agent_manager_read_cache_feeds{state}`: stores by state (`syncing`, `synced`,
 *   `stale`, `overflow`); reads of a store that is not `synced` go to the API server;
 * - `agent_manager_read_cache_objects{resource}` and `agent_manager_read_cache_synced{resource}`
 *   are the service metrics' (service-metrics.ts), fed by `registerReadCacheMetrics` too;
 * - `agent_manager_read_cache_reads_total{source}`: reads answered from the `cache` or
 *   the `api` server (before the first sync, when stale, after an unfinished wait for
 *   this replica's own write, or when the caller may not read from it);
 * - `agent_manager_read_cache_relists_total`: lists after the first (410 Gone, failures).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReadCache } from '../kube/cache/read-cache.js';
import type { Metrics } from './metrics.js';

export function registerReadCacheMetrics(metrics: Metrics, cache: ReadCache): void {
  const registry: Registry = metrics.registry;
  metrics.service.readCacheState(() => cache.byResource());
  new Gauge({
    name: 'agent_manager_read_cache_feeds',
    help: 'Read-cache stores (one per resource type and managed namespace) by state; only synced stores answer reads.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      for (const [state, count] of Object.entries(cache.status().feeds)) this.set({ state }, count);
    },
  });
  new Counter({
    name: 'agent_manager_read_cache_reads_total',
    help: 'Reads answered from the cache or from the API server.',
    labelNames: ['source'],
    registers: [registry],
    collect() {
      // The cache counts; the counter mirrors its totals, which only grow.
      this.reset();
      for (const [source, count] of Object.entries(cache.reads)) this.inc({ source }, count);
    },
  });
  new Counter({
    name: 'agent_manager_read_cache_relists_total',
    help: 'Lists of a read-cache store after its first (410 Gone or a failed watch).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(cache.status().relists);
    },
  });
}
