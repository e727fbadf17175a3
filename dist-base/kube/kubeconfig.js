/**
 * Where the base cluster comes from (a kubeconfig file and context, the in-cluster
 * ServiceAccount, or the default loading rules) and how a caller's client is cut from
 * it: only the cluster's address, CA and TLS settings are kept; the base user (client
 * certificate, token file, exec plugin) is never copied into a caller's config.
 */
import { KubeConfig } from '@kubernetes/client-node';
/**
 * The base KubeConfig. Throws `agent-manager needs Kubernetes access: <err>` when no
 * cluster can be found, as client-go's loading rules do.
 */
export function loadBaseKubeConfig(source) {
    const kc = new KubeConfig();
    try {
        if (source.kubeconfigYaml)
            kc.loadFromString(source.kubeconfigYaml);
        else if (source.inCluster)
            kc.loadFromCluster();
        else if (source.kubeconfig)
            kc.loadFromFile(source.kubeconfig);
        else
            kc.loadFromDefault();
        if (source.context)
            kc.setCurrentContext(source.context);
        const cluster = kc.getCurrentCluster();
        // With no kubeconfig and no in-cluster environment, client-node invents a cluster at
        // http://localhost:8080, which may well be this service's own port. Refuse it instead.
        if (!source.kubeconfig && !source.inCluster && !source.kubeconfigYaml && isInventedDefault(kc)) {
            throw new Error('no kubeconfig found: pass --kubeconfig, set KUBECONFIG, run in a cluster (--in-cluster), ' +
                'or use --sandbox');
        }
        if (!cluster)
            throw new Error(source.context ? `context "${source.context}" has no cluster` : 'no current cluster');
        if (!cluster.server)
            throw new Error(`cluster "${cluster.name}" has no server address`);
    }
    catch (err) {
        throw new Error(`agent-manager needs Kubernetes access: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    return kc;
}
function isInventedDefault(kc) {
    const cluster = kc.getCurrentCluster();
    return kc.clusters.length === 1 && cluster?.name === 'cluster' && cluster.server === 'http://localhost:8080';
}
/** Only what identifies and secures the API server; no credentials. */
export function anonymousCluster(base) {
    const cluster = base.getCurrentCluster();
    if (!cluster)
        throw new Error('the base kubeconfig has no current cluster');
    return {
        name: cluster.name,
        server: cluster.server,
        caData: cluster.caData,
        caFile: cluster.caFile,
        skipTLSVerify: cluster.skipTLSVerify,
        tlsServerName: cluster.tlsServerName,
        proxyUrl: cluster.proxyUrl,
    };
}
/** A KubeConfig that presents `token` and nothing else to the base cluster. */
export function kubeConfigForToken(base, token) {
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(anonymousCluster(base), { name: 'caller', token });
    return kc;
}
//# sourceMappingURL=kubeconfig.js.map