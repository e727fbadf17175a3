/**
 * The clusters `serve` talks to, opened in start-up order: the base cluster (the in-process sandbox only
 * when `--sandbox` asks, else the kubeconfig or in-cluster ServiceAccount), the API versions it serves
 * (discovery may not hold start-up longer than DISCOVERY_TIMEOUT_MS), and the reads in front of it and of
 * the workload clusters (the read caches, filled as the ServiceAccount, never with downstream OAuth's
 * callers' tokens). Everything opened here pushes its cleanup, so shutdown closes it in reverse.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { AppConfig, FleetConfig } from './config/index.js';
import { apiDiscovery, resolveApiVersions, type Discover } from './kube/discovery.js';
import { clusterCacheOpener, clusterReadCaches } from './kube/cache/fleet-caches.js';
import { openReadCache } from './kube/cache/open.js';
import { loadBaseKubeConfig } from './kube/kubeconfig.js';
import { instrumentProvider } from './kube/instrumented.js';
import { CallerProvider } from './kube/providers.js';
import { openWorkloadClusters } from './kube/fleet/workload-clusters.js';
import type { Logger } from './log/logger.js';
import type { Metrics } from './metrics/app-metrics.js';
import { registerClusterCacheMetrics } from './metrics/fleet-cache-metrics.js';
import { registerReadCacheMetrics } from './metrics/read-cache-metrics.js';
import type { ObservabilityHooks } from './observability/hooks.js';
import type { KubeProvider, ReadCacheReport, WorkloadClusters } from './service/ports.js';
import { resourceTypes, type ApiVersions } from './service/resources.js';
import { asListenError } from './transport/http/listen-error.js';
import { loadSandbox, sandboxFleetConfig, serveSandboxOptions } from './sandbox-cluster.js';
import type { Cleanup } from './serve-shutdown.js';

/** How long startup discovery may wait for the API server before using the defaults. */
const DISCOVERY_TIMEOUT_MS = 10_000;

/** The base cluster and what the sandbox adds to it (its A2A endpoint, its muster double, its fleet). */
export interface OpenedCluster {
  cluster: KubeConfig;
  sandboxA2aUrl?: string;
  fleet: FleetConfig;
  /** The sandbox's muster double: the URL, and the token that stands in for --muster-token-file. */
  sandboxMuster?: { url: string; token: string };
}

/** The base cluster: the sandbox's when `--sandbox` is on (its fleet fills what the flags leave empty), else the
 * kubeconfig / in-cluster one. */
export async function openCluster(config: AppConfig, log: Logger, cleanups: Cleanup[]): Promise<OpenedCluster> {
  if (!config.sandbox.enabled) {
    return {
      cluster: loadBaseKubeConfig({
        kubeconfig: config.kube.kubeconfig, context: config.kube.context, inCluster: config.kube.inCluster,
      }),
      fleet: config.fleet,
    };
  }
  // Only here, and only when asked for, is the sandbox loaded.
  const { startSandbox, startMuster } = await loadSandbox();
  const sandboxLog = log.child({ component: 'sandbox' });
  const sandbox = await startSandbox({ ...serveSandboxOptions(config.sandbox), log: sandboxLog })
    .catch((err: unknown) => {
      throw asListenError(err, '--sandbox-listen', config.sandbox.listen);
    });
  cleanups.push(() => sandbox.close());
  // kubectl gets the administrator; agent-manager itself acts as its ServiceAccount, as in a cluster.
  if (config.sandbox.kubeconfigOut) await sandbox.writeKubeconfig(config.sandbox.kubeconfigOut);
  const workloadClusters = Object.fromEntries([...sandbox.workloads ?? []].map(([name, w]) => [name, w.url]));
  const muster = await startMuster();
  cleanups.push(() => muster.stop());
  const fleet = sandboxFleetConfig(config.fleet, muster.url);
  log.info({ url: sandbox.url, a2aUrl: sandbox.a2aUrl, musterUrl: muster.url,
    kubeconfig: config.sandbox.kubeconfigOut || undefined, workloadClusters, targetMusterUrl: fleet.targetMusterUrl,
    reconcileDelayMs: config.sandbox.reconcileDelayMs }, 'sandbox API server started');
  const kubeconfigYaml = sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' });
  return {
    cluster: loadBaseKubeConfig({ kubeconfigYaml }), sandboxA2aUrl: sandbox.a2aUrl, fleet,
    sandboxMuster: { url: muster.url, token: muster.token },
  };
}

/** The API versions in use: pinned flags win, discovery fills `auto`, a failure or timeout the defaults. */
export async function discoverApiVersions(config: AppConfig, cluster: KubeConfig, log: Logger): Promise<ApiVersions> {
  const apiVersions = await resolveApiVersions(
    {
      kagent: config.kube.kagentApiVersion,
      kagentV2: config.kube.kagentV2ApiVersion,
      helmRelease: config.kube.helmReleaseApiVersion,
      ociRepository: config.kube.ociRepositoryApiVersion,
    },
    withTimeout(apiDiscovery(cluster), DISCOVERY_TIMEOUT_MS),
    log,
  );
  // The versions in use (the start-up line carries the flags, which say `auto` when discovering).
  log.info({ kagentAPI: apiVersions.agent, helmReleaseAPI: apiVersions.helmRelease,
    ociRepositoryAPI: apiVersions.ociRepository }, 'Kubernetes API versions');
  return apiVersions;
}

/** Discovery that gives up after `ms` (an unreachable API server must not hold up startup). */
function withTimeout(discover: Discover, ms: number): Discover {
  return (group, resource) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from the API server within ${ms / 1000}s`)), ms);
    });
    return Promise.race([discover(group, resource), timeout]).finally(() => clearTimeout(timer));
  };
}

/** How the service reads the clusters: through the read cache when `--read-cache` is on. */
export interface ClusterReads {
  kube: KubeProvider;
  readCache?: ReadCacheReport;
  workloads: WorkloadClusters;
}

/** What opening the reads needs from the steps before it. */
export interface ReadsInput {
  cluster: KubeConfig;
  fleet: FleetConfig;
  /** The identity's provider (the caller's with downstream OAuth, else the ServiceAccount's). */
  provider: KubeProvider;
  apiVersions: ApiVersions;
  hooks: ObservabilityHooks;
  metrics?: Metrics;
}

/**
 * The management cluster's reads (instrumented, behind the read cache when on; with the caller's identity
 * each cached read is first reviewed as that caller) and the workload clusters (behind their own caches).
 */
export function openClusterReads(config: AppConfig, log: Logger, input: ReadsInput, cleanups: Cleanup[]): ClusterReads {
  const { cluster, provider, apiVersions, hooks, metrics } = input;
  const instrumented = instrumentProvider(provider, hooks.kube);
  const readCache = config.kube.readCache
    ? openReadCache(instrumented, {
        cluster, namespaces: config.namespaces.managed, types: resourceTypes(apiVersions), log, hooks: hooks.kube,
        review: provider instanceof CallerProvider ? (ctx, attributes) => provider.mayRead(ctx, attributes) : undefined,
      })
    : undefined;
  if (readCache) cleanups.push(() => readCache.close());
  if (metrics && readCache) registerReadCacheMetrics(metrics, readCache.cache);
  const clusterCaches = clusterReadCaches({
    readCache: config.kube.readCache, max: config.kube.readCacheClusters, identity: provider.identity, log,
  });
  if (clusterCaches) cleanups.push(() => clusterCaches.close());
  if (metrics && clusterCaches) registerClusterCacheMetrics(metrics, clusterCaches);
  const workloads = openWorkloadClusters(cluster, {
    identity: provider.identity, organizations: input.fleet.organizations, hooks: hooks.kube, log,
    readCache: clusterCaches && {
      caches: clusterCaches,
      open: clusterCacheOpener({
        namespaces: config.namespaces.managed, types: resourceTypes(apiVersions), log, hooks: hooks.kube,
      }),
    },
  });
  cleanups.push(() => workloads.close());
  return { kube: readCache?.kube ?? instrumented, readCache: readCache?.cache, workloads };
}
