/**
 * The read cache's metrics, read from the cache at scrape time (the request path only bumps two
 * integers): stores by state, objects and sync per resource (service-metrics.ts, fed from here), reads by
 * source (`cache` or `api`) and re-lists after the first. docs/operations.md "Metrics" and "Read cache"
 * say what each value means.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReadCache } from '../kube/cache/read-cache.js';
import type { Metrics } from './app-metrics.js';

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
