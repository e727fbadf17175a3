import { gitSkillName } from './skills/skill-input.js';
import { toYaml } from './yaml.js';
export { gitSkillName };
/** The label both composed objects carry, and its value. */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY_VALUE = 'agent-manager';
/** True when `s` is a string with something other than whitespace in it. */
export function isSet(s) {
    return typeof s === 'string' && s.trim() !== '';
}
/** The chart name: the last path segment of the chart's OCI URL (`agent` by default). */
export function chartNameOf(ociUrl) {
    const segments = ociUrl.replace(/\/+$/, '').split('/');
    return segments[segments.length - 1] || 'agent';
}
/**
 * The `skills` values block: OCI `refs`, `gitRefs` with their derived names, and
 * `gitAuthSecretRef` for the credential Secret. Undefined when there are no refs and
 * no gitRefs (a credential alone renders nothing in the chart).
 */
export function skillsValues(skills) {
    const refs = skills?.refs ?? [];
    const gitRefs = skills?.gitRefs ?? [];
    if (refs.length === 0 && gitRefs.length === 0)
        return undefined;
    const out = {};
    if (refs.length > 0)
        out.refs = [...refs];
    if (gitRefs.length > 0)
        out.gitRefs = gitRefs.map(gitRefValues);
    if (isSet(skills?.gitAuthSecretName))
        out.gitAuthSecretRef = { name: skills.gitAuthSecretName };
    return out;
}
function gitRefValues(ref) {
    const out = { url: ref.url };
    if (isSet(ref.path))
        out.path = ref.path;
    // A commit given is the pin; skill-pins.ts has turned every other ref into one when it ran.
    if (isSet(ref.commit))
        out.ref = ref.commit;
    else if (isSet(ref.ref))
        out.ref = ref.ref;
    out.name = gitSkillName(ref);
    return out;
}
/** The identity fields of the `agent` block, in the order the chart documents them. */
export const AGENT_STRING_FIELDS = [
    'displayName',
    'description',
    'iconUrl',
    'systemMessage',
    'runtime',
];
/** Composes the chart values of a create request: only what the caller set. */
export function buildValues(spec) {
    const agent = { name: spec.name };
    for (const field of AGENT_STRING_FIELDS) {
        if (isSet(spec[field]))
            agent[field] = spec[field];
    }
    const values = { agent, modelConfig: { name: spec.modelConfig } };
    const skills = skillsValues(spec.skills);
    if (skills)
        values.skills = skills;
    if (spec.toolset !== undefined)
        values.toolset = [...spec.toolset];
    if (spec.labels && Object.keys(spec.labels).length > 0)
        values.labels = { ...spec.labels };
    if (spec.annotations && Object.keys(spec.annotations).length > 0) {
        values.annotations = { ...spec.annotations };
    }
    return values;
}
/** The HelmRelease of one agent: named after it, rendering from the shared chart source. */
export function buildHelmRelease(namespace, name, values, cfg) {
    const spec = { interval: cfg.helmReleaseInterval };
    if (isSet(cfg.helmReleaseServiceAccount))
        spec.serviceAccountName = cfg.helmReleaseServiceAccount;
    spec.chartRef = { kind: 'OCIRepository', name: chartNameOf(cfg.chartOciUrl), namespace };
    spec.values = values;
    return {
        apiVersion: cfg.apiVersions.helmRelease,
        kind: 'HelmRelease',
        metadata: { name, namespace, labels: { [MANAGED_BY_LABEL]: MANAGED_BY_VALUE } },
        spec,
    };
}
/** The namespace's shared chart source, named after the chart. */
export function buildOciRepository(namespace, cfg) {
    return {
        apiVersion: cfg.apiVersions.ociRepository,
        kind: 'OCIRepository',
        metadata: {
            name: chartNameOf(cfg.chartOciUrl),
            namespace,
            labels: { [MANAGED_BY_LABEL]: MANAGED_BY_VALUE },
        },
        spec: ociRepositorySpec(cfg),
    };
}
/** The source's spec: a private registry adds the pull Secret and, for a cloud one, the provider. */
function ociRepositorySpec(cfg) {
    const spec = {
        interval: cfg.ociRepositoryInterval,
        url: cfg.chartOciUrl,
        ref: { semver: cfg.chartSemver },
    };
    if (isSet(cfg.chartProvider) && cfg.chartProvider !== 'generic')
        spec.provider = cfg.chartProvider;
    if (isSet(cfg.chartSecretRef))
        spec.secretRef = { name: cfg.chartSecretRef };
    return spec;
}
/** Both objects rendered as YAML, plus the values they carry. */
export function composeManifests(namespace, name, values, cfg) {
    return {
        ociRepository: toYaml(buildOciRepository(namespace, cfg)),
        helmRelease: toYaml(buildHelmRelease(namespace, name, values, cfg)),
        values,
    };
}
//# sourceMappingURL=compose.js.map