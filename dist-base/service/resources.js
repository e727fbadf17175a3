/** The API versions used when discovery is off or fails: kagent.dev/v1alpha2, helm.toolkit.fluxcd.io/v2,
 * source.toolkit.fluxcd.io/v1. */
export const DEFAULT_API_VERSIONS = {
    agent: 'kagent.dev/v1alpha2',
    modelConfig: 'kagent.dev/v1alpha2',
    helmRelease: 'helm.toolkit.fluxcd.io/v2',
    ociRepository: 'source.toolkit.fluxcd.io/v1',
};
/** Split `group/version` (or a bare core `version`). */
export function splitApiVersion(apiVersion) {
    const slash = apiVersion.lastIndexOf('/');
    return slash < 0
        ? { group: '', version: apiVersion }
        : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
/** The apiVersion string of a type. */
export function apiVersionOf(gvr) {
    return gvr.group ? `${gvr.group}/${gvr.version}` : gvr.version;
}
function gvr(apiVersion, resource, kind) {
    return { ...splitApiVersion(apiVersion), resource, kind };
}
/** The resource types for the resolved API versions. */
export function resourceTypes(versions) {
    return {
        agent: gvr(versions.agent, 'agents', 'Agent'),
        modelConfig: gvr(versions.modelConfig, 'modelconfigs', 'ModelConfig'),
        helmRelease: gvr(versions.helmRelease, 'helmreleases', 'HelmRelease'),
        ociRepository: gvr(versions.ociRepository, 'ocirepositories', 'OCIRepository'),
        deployment: gvr('apps/v1', 'deployments', 'Deployment'),
        pod: gvr('v1', 'pods', 'Pod'),
        event: gvr('v1', 'events', 'Event'),
        controllerRevision: gvr('apps/v1', 'controllerrevisions', 'ControllerRevision'),
        kustomization: gvr('kustomize.toolkit.fluxcd.io/v1', 'kustomizations', 'Kustomization'),
        gitRepository: gvr('source.toolkit.fluxcd.io/v1', 'gitrepositories', 'GitRepository'),
        secret: gvr('v1', 'secrets', 'Secret'),
    };
}
//# sourceMappingURL=resources.js.map