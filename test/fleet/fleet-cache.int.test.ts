/**
 * The read cache across the sandbox fleet: a workload cluster's stores start on its first
 * read through the service, answer the next read without a request to that cluster, stop
 * when quiet or when a more recently read cluster needs the room, and go when the
 * cluster's kubeconfig Secret changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '@agent-manager/kube-sandbox';
import { clusterCacheOpener, ClusterReadCaches } from '../../src/kube/cache/fleet-caches.js';
import { loadBaseKubeConfig } from '../../src/kube/kubeconfig.js';
import { openWorkloadClusters } from '../../src/kube/fleet/workload-clusters.js';
import { silentLogger } from '../../src/log/logger.js';
import { DEFAULT_API_VERSIONS, resourceTypes } from '../../src/service/resources.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { eventually } from '../support/eventually.js';

const QUIET_MS = 60_000;
let now = 0;
let f: ServiceFixture;
let caches: ClusterReadCaches;
let alpha: Sandbox;

beforeAll(async () => {
  caches = new ClusterReadCaches({ max: 1, quietMs: QUIET_MS, now: () => now, log: silentLogger() });
  f = await startServiceFixture({
    sandbox: { workloadClusters: ['alpha', 'beta'], organization: 'acme', seed: 'samples' },
    workloads: (sandbox) => openWorkloadClusters(
      loadBaseKubeConfig({ kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' }) }),
      {
        identity: 'serviceAccount', organizations: ['acme'], log: silentLogger(),
        readCache: {
          caches, open: clusterCacheOpener({ namespaces: ['kagent'], types: resourceTypes(DEFAULT_API_VERSIONS), log: silentLogger() }),
        },
      },
    ),
  });
  alpha = f.sandbox.workloads.get('alpha')!;
});
afterAll(async () => {
  caches?.close();
  await f?.close();
});

const AGENT = 'cluster-helper';
/** Requests to a workload API server other than its stores' watches. */
const calls = (cluster: Sandbox): number => cluster.counters.count() - cluster.counters.count({ verb: 'watch' });
const getOn = (cluster: string) => f.service.getAgent(f.ctx(), { organization: 'acme', cluster, name: AGENT });

describe('the read cache of a workload cluster', () => {
  it('starts on the cluster\'s first read and answers the next without a request to that cluster', async () => {
    expect(caches.clusters()).toEqual([]);
    const first = await getOn('alpha');
    expect(first.name).toBe(AGENT);
    expect(caches.clusters()).toEqual(['acme/alpha']);
    const live = caches.use('acme/alpha', () => { throw new Error('alpha\'s cache should be running'); })!;
    await eventually(() => (live.cache.status().state === 'ready' ? true : undefined), 10_000, 'alpha\'s stores synced');
    const before = calls(alpha);
    const second = await getOn('alpha');
    expect(second).toMatchObject({ name: AGENT, organization: 'acme', cluster: 'alpha' });
    expect(calls(alpha)).toBe(before);
    expect(caches.reads().cache).toBeGreaterThan(0);
  });

  it('stops after the quiet period without a read, and the next read starts it again', async () => {
    now += QUIET_MS;
    caches.sweep();
    expect(caches.clusters()).toEqual([]);
    expect(caches.stops.quiet).toBe(1);
    await getOn('alpha');
    expect(caches.clusters()).toEqual(['acme/alpha']);
  });

  it('evicts the least recently read cluster when a read of another would pass the bound', async () => {
    await getOn('beta');
    expect(caches.clusters()).toEqual(['acme/beta']);
    expect(caches.stops.evicted).toBe(1);
  });

  it('is dropped when the cluster\'s kubeconfig Secret changes', async () => {
    const secret = f.sandbox.store.get('secrets', 'org-acme', 'beta-kubeconfig') as { metadata: Record<string, unknown> };
    f.sandbox.store.update('secrets', { ...secret, metadata: { ...secret.metadata, annotations: { rotated: 'yes' } } } as never);
    const starts = caches.starts;
    await getOn('beta');
    expect(caches.stops['kubeconfig changed']).toBe(1);
    expect(caches.starts).toBe(starts + 1);
    expect(caches.clusters()).toEqual(['acme/beta']);
  });
});
