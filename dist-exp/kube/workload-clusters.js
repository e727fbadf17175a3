/**
 * The workload clusters' clients, built from the kubeconfig Secrets Cluster API writes on
 * the management cluster (`org-<organization>/<cluster>-kubeconfig`, key `value`), which the
 * ServiceAccount reads. With downstream OAuth only the Secret's server address and CA are
 * used and every call presents the caller's token (CallerProvider); else the kubeconfig is
 * used as it is. One provider per cluster, kept while the Secret's resourceVersion stays;
 * with `readCache` (ServiceAccount identity only) its pure reads use its lazily started cache.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { invalid } from '../core/errors.js';
import { emptyKubeconfigText, KUBECONFIG_KEY, kubeconfigSecretName, missingKubeconfigText, organizationNamespace, } from '../core/target-cluster.js';
import { DEFAULT_API_VERSIONS, resourceTypes } from '../service/resources.js';
import { makeKubeApis } from './api-clients.js';
import { ClientNodeKube } from './client-node-kube.js';
import { instrumentKube, instrumentProvider } from './instrumented.js';
import { CallerProvider, ServiceAccountProvider } from './providers.js';
import { trustingIdentityProvider } from './workload-errors.js';
const SUFFIX = '-kubeconfig';
export class SecretWorkloadClusters {
    options;
    organizations;
    cache = new Map();
    /** Only the built-in Secret type is read here, whatever the discovered versions. */
    types = resourceTypes(DEFAULT_API_VERSIONS);
    constructor(options) {
        this.options = options;
        this.organizations = options.organizations ?? [];
    }
    async provider(target) {
        const namespace = organizationNamespace(target.organization);
        const secret = await this.options.secrets.get(this.types.secret, namespace, kubeconfigSecretName(target.cluster));
        if (!secret)
            throw invalid(missingKubeconfigText(target));
        const encoded = secret.data?.[KUBECONFIG_KEY];
        if (typeof encoded !== 'string' || encoded === '')
            throw invalid(emptyKubeconfigText(target));
        const key = `${target.organization}/${target.cluster}`;
        const resourceVersion = secret.metadata.resourceVersion ?? '';
        const cached = this.cache.get(key);
        if (cached && cached.resourceVersion === resourceVersion && resourceVersion !== '')
            return cached.provider;
        // A changed Secret (a rotated credential, a moved API server) drops the old clients.
        cached?.close(true);
        const built = this.build(key, target, Buffer.from(encoded, 'base64').toString('utf8'));
        this.cache.set(key, { resourceVersion, ...built });
        return built.provider;
    }
    async clusters(organization) {
        const secrets = await this.options.secrets.list(this.types.secret, organizationNamespace(organization));
        return secrets
            .map((s) => s.metadata.name)
            .filter((name) => name.endsWith(SUFFIX) && name.length > SUFFIX.length)
            .map((name) => name.slice(0, -SUFFIX.length))
            .sort();
    }
    build(key, target, kubeconfig) {
        const kc = new KubeConfig();
        try {
            kc.loadFromString(kubeconfig);
            if (!kc.getCurrentCluster()?.server)
                throw new Error('it names no current cluster with a server address');
        }
        catch (err) {
            const secret = `${organizationNamespace(target.organization)}/${kubeconfigSecretName(target.cluster)}`;
            const why = err instanceof Error ? err.message : String(err);
            throw invalid(`the kubeconfig Secret ${secret} holds no usable kubeconfig: ${why}`);
        }
        const hooks = this.options.hooks ?? [];
        if (this.options.identity === 'serviceAccount') {
            const own = new ServiceAccountProvider(kc);
            const provider = instrumentProvider(own, hooks);
            const close = (changed) => {
                this.options.readCache?.caches.drop(key, changed ? 'kubeconfig changed' : 'closed');
                own.close();
            };
            return { provider: this.withReadCache(key, kc, provider), close };
        }
        const callers = new CallerProvider(kc, { log: this.options.log });
        return { provider: instrumentProvider(trustingIdentityProvider(callers), hooks), close: () => callers.close() };
    }
    /** `provider` whose pure reads start and use the cluster's read cache (filled with the same credential). */
    withReadCache(key, kc, provider) {
        const readCache = this.options.readCache;
        if (!readCache)
            return provider;
        const open = () => readCache.open(key, kc, provider);
        return {
            identity: provider.identity,
            forRequest: (ctx) => provider.forRequest(ctx),
            forReads: (ctx) => readCache.caches.use(key, open)?.kube.forReads(ctx) ?? provider.forRequest(ctx),
            forWatches: (ctx) => provider.forWatches(ctx),
        };
    }
    close() {
        for (const entry of this.cache.values())
            entry.close(false);
        this.cache.clear();
    }
}
/** The workload clusters of an installation whose ServiceAccount is `base` (it reads the Secrets). */
export function openWorkloadClusters(base, options) {
    const apis = makeKubeApis(base);
    const secrets = instrumentKube(new ClientNodeKube(apis), options.hooks ?? []);
    const clusters = new SecretWorkloadClusters({ ...options, secrets });
    const closeClients = clusters.close.bind(clusters);
    return Object.assign(clusters, { close: () => { closeClients(); apis.close(); } });
}
//# sourceMappingURL=workload-clusters.js.map