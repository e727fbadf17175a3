/**
 * API version discovery at startup: which version of kagent.dev and of the two Flux
 * groups the cluster serves. `auto` discovers; a bare version (`v2`) gets the group
 * prefixed; a full `group/version` is taken as given. When discovery fails the built-in
 * default is used and a warning says so.
 */
import { ApisApi, CustomObjectsApi } from '@kubernetes/client-node';
import { DEFAULT_API_VERSIONS } from '../service/resources.js';
/** A Discover over the real API: one /apis call, then the resources of candidate versions. */
export function apiDiscovery(kc) {
    const apis = kc.makeApiClient(ApisApi);
    const custom = kc.makeApiClient(CustomObjectsApi);
    let groups;
    return async (group, resource) => {
        groups ??= apis.getAPIVersions();
        const found = (await groups).groups.find((g) => g.name === group);
        if (!found)
            throw new Error(`the API server does not serve ${group}`);
        const preferred = found.preferredVersion?.version;
        const candidates = [preferred, ...found.versions.map((v) => v.version)].filter((v, i, all) => Boolean(v) && all.indexOf(v) === i);
        for (const version of candidates) {
            const list = await custom.getAPIResources({ group, version });
            if (list.resources.some((r) => r.name === resource))
                return version;
        }
        throw new Error(`no served version of ${group} has ${resource}`);
    };
}
function pinned(flag, group) {
    const value = flag.trim();
    if (!value || value === 'auto')
        return undefined;
    return value.includes('/') ? value : `${group}/${value}`;
}
async function resolveOne(flag, group, resource, fallback, discover, log, warning) {
    const fixed = pinned(flag, group);
    if (fixed)
        return fixed;
    try {
        return `${group}/${await discover(group, resource)}`;
    }
    catch (err) {
        log.warn({ group, resource, fallback, err: err instanceof Error ? err.message : String(err) }, warning);
        return fallback;
    }
}
/** Resolve the four API versions from the flags, discovering where asked. */
export async function resolveApiVersions(flags, discover, log) {
    const kagentWarning = 'kagent API discovery failed, using default';
    const fluxWarning = 'Flux API discovery failed, using default';
    const [agent, helmRelease, ociRepository] = await Promise.all([
        resolveOne(flags.kagent, 'kagent.dev', 'agents', DEFAULT_API_VERSIONS.agent, discover, log, kagentWarning),
        resolveOne(flags.helmRelease, 'helm.toolkit.fluxcd.io', 'helmreleases', DEFAULT_API_VERSIONS.helmRelease, discover, log, fluxWarning),
        resolveOne(flags.ociRepository, 'source.toolkit.fluxcd.io', 'ocirepositories', DEFAULT_API_VERSIONS.ociRepository, discover, log, fluxWarning),
    ]);
    // ModelConfigs live in the kagent group at the Agent's version.
    return { agent, modelConfig: agent, helmRelease, ociRepository };
}
//# sourceMappingURL=discovery.js.map