import { describe, expect, it } from 'vitest';
import { ClusterReadCaches } from '../kube/cache/fleet-caches.js';
import type { OpenedReadCache } from '../kube/cache/open.js';
import { silentLogger } from '../log/logger.js';
import { registerClusterCacheMetrics } from './fleet-cache-metrics.js';
import { Metrics } from './app-metrics.js';

const opened = (reads: { cache: number; api: number }) => () =>
  ({ kube: {}, cache: { reads }, close() {} }) as unknown as OpenedReadCache;

describe('the workload clusters\' read-cache metrics', () => {
  it('count the live clusters, starts, stops by reason and reads by source, stopped clusters\' reads included', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const caches = new ClusterReadCaches({ max: 1, log: silentLogger() });
    registerClusterCacheMetrics(metrics, caches);
    caches.use('acme/alpha', opened({ cache: 3, api: 1 }));
    caches.use('acme/beta', opened({ cache: 2, api: 1 }));
    const text = await metrics.registry.metrics();
    expect(text).toContain('agent_manager_read_cache_clusters 1');
    expect(text).toContain('agent_manager_read_cache_cluster_starts_total 2');
    expect(text).toContain('agent_manager_read_cache_cluster_stops_total{reason="evicted"} 1');
    expect(text).toContain('agent_manager_read_cache_cluster_reads_total{source="cache"} 5');
    expect(text).toContain('agent_manager_read_cache_cluster_reads_total{source="api"} 2');
    caches.close();
  });
});
