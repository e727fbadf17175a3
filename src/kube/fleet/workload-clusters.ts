/**
 * The workload clusters' clients, built from the kubeconfig Secrets Cluster API writes on
 * the management cluster (`org-<organization>/<cluster>-kubeconfig`, key `value`), which the
 * ServiceAccount reads. With downstream OAuth only the Secret's server address and CA are
 * used and every call presents the caller's token (CallerProvider); else the kubeconfig is
 * used as it is. One provider per cluster, kept while the Secret's resourceVersion stays;
 * with `readCache` (ServiceAccount identity only) its pure reads use its lazily started cache.
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { invalid } from '../../core/errors.js';
import {
  emptyKubeconfigText, KUBECONFIG_KEY, kubeconfigSecretName, missingKubeconfigText, organizationNamespace,
  type TargetCluster,
} from '../../core/fleet/target-cluster.js';
import type { KubePort, KubeProvider, WorkloadClusters } from '../../service/ports.js';
import { DEFAULT_API_VERSIONS, resourceTypes, type ResourceTypes } from '../../service/resources.js';
import { makeKubeApis } from '../api-clients.js';
import type { ClusterCacheOpener, ClusterReadCaches } from '../cache/fleet-caches.js';
import { ClientNodeKube } from '../client-node-kube.js';
import { instrumentKube, instrumentProvider, type KubeCallHook } from '../instrumented.js';
import { CallerProvider, ServiceAccountProvider } from '../providers.js';
import { trustingIdentityProvider } from './workload-errors.js';
import { asObject } from '../../core/json.js';

const SUFFIX = '-kubeconfig';

/** A kubeconfig that parses but names no server; its message quotes nothing from the Secret. */
class NoServerError extends Error {}

export interface WorkloadClustersOptions {
  /** The management cluster as the ServiceAccount: it reads the kubeconfig Secrets. */
  secrets: KubePort;
  /** `caller`: present the caller's token to the workload API servers (downstream OAuth). */
  identity: 'caller' | 'serviceAccount';
  organizations?: readonly string[];
  hooks?: readonly KubeCallHook[];
  log: Logger;
  /** The workload clusters' read caches and how one is opened (ServiceAccount identity only). */
  readCache?: { caches: ClusterReadCaches; open: ClusterCacheOpener };
}

interface Entry {
  resourceVersion: string;
  provider: KubeProvider;
  close(changed: boolean): void;
}

export class SecretWorkloadClusters implements WorkloadClusters {
  readonly organizations: readonly string[];
  private readonly cache = new Map<string, Entry>();
  /** Only the built-in Secret type is read here, whatever the discovered versions. */
  private readonly types: ResourceTypes = resourceTypes(DEFAULT_API_VERSIONS);

  constructor(private readonly options: WorkloadClustersOptions) {
    this.organizations = options.organizations ?? [];
  }

  async provider(target: TargetCluster): Promise<KubeProvider> {
    const namespace = organizationNamespace(target.organization);
    const secret = await this.options.secrets.get(this.types.secret, namespace, kubeconfigSecretName(target.cluster));
    if (!secret) throw invalid(missingKubeconfigText(target));
    const encoded = asObject(secret.data)[KUBECONFIG_KEY];
    if (typeof encoded !== 'string' || encoded === '') throw invalid(emptyKubeconfigText(target));
    const key = `${target.organization}/${target.cluster}`;
    const resourceVersion = secret.metadata.resourceVersion ?? '';
    const cached = this.cache.get(key);
    if (cached && cached.resourceVersion === resourceVersion && resourceVersion !== '') return cached.provider;
    // A changed Secret (a rotated credential, a moved API server) drops the old clients.
    cached?.close(true);
    const built = this.build(key, target, Buffer.from(encoded, 'base64').toString('utf8'));
    this.cache.set(key, { resourceVersion, ...built });
    return built.provider;
  }

  async clusters(organization: string): Promise<string[]> {
    const secrets = await this.options.secrets.list(this.types.secret, organizationNamespace(organization));
    return secrets
      .map((s) => s.metadata.name)
      .filter((name) => name.endsWith(SUFFIX) && name.length > SUFFIX.length)
      .map((name) => name.slice(0, -SUFFIX.length))
      .sort();
  }

  private build(key: string, target: TargetCluster, kubeconfig: string): Omit<Entry, 'resourceVersion'> {
    const kc = new KubeConfig();
    try {
      kc.loadFromString(kubeconfig);
      if (!kc.getCurrentCluster()?.server) throw new NoServerError('it names no current cluster with a server address');
    } catch (err) {
      // Named by the Secret only: a parser's message quotes the text it failed on, and that text holds
      // tokens and keys. Only our own reason (no server address), which quotes nothing, is kept.
      const secret = `${organizationNamespace(target.organization)}/${kubeconfigSecretName(target.cluster)}`;
      const why = err instanceof NoServerError ? `: ${err.message}` : ' (it does not parse as a kubeconfig)';
      throw invalid(`the kubeconfig Secret ${secret} holds no usable kubeconfig${why}`);
    }
    const hooks = this.options.hooks ?? [];
    if (this.options.identity === 'serviceAccount') {
      const own = new ServiceAccountProvider(kc);
      const provider = instrumentProvider(own, hooks);
      const close = (changed: boolean) => {
        this.options.readCache?.caches.drop(key, changed ? 'kubeconfig changed' : 'closed');
        own.close();
      };
      return { provider: this.withReadCache(key, kc, provider), close };
    }
    const callers = new CallerProvider(kc, { log: this.options.log });
    return { provider: instrumentProvider(trustingIdentityProvider(callers), hooks), close: () => callers.close() };
  }

  /** `provider` whose pure reads start and use the cluster's read cache (filled with the same credential). */
  private withReadCache(key: string, kc: KubeConfig, provider: KubeProvider): KubeProvider {
    const readCache = this.options.readCache;
    if (!readCache) return provider;
    const open = () => readCache.open(key, kc, provider);
    return {
      identity: provider.identity,
      forRequest: (ctx) => provider.forRequest(ctx),
      forReads: (ctx) => readCache.caches.use(key, open)?.kube.forReads(ctx) ?? provider.forRequest(ctx),
      forWatches: (ctx) => provider.forWatches!(ctx),
    };
  }

  close(): void {
    for (const entry of this.cache.values()) entry.close(false);
    this.cache.clear();
  }
}

/** The workload clusters of an installation whose ServiceAccount is `base` (it reads the Secrets). */
export function openWorkloadClusters(
  base: KubeConfig, options: Omit<WorkloadClustersOptions, 'secrets'>,
): SecretWorkloadClusters {
  const apis = makeKubeApis(base);
  const secrets = instrumentKube(new ClientNodeKube(apis), options.hooks ?? []);
  const clusters = new SecretWorkloadClusters({ ...options, secrets });
  const closeClients = clusters.close.bind(clusters);
  return Object.assign(clusters, { close: () => { closeClients(); apis.close(); } });
}
