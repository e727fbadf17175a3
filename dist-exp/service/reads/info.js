/**
 * The read surfaces that are not agents: get_info (what this installation is and can
 * do), list_model_configs (read-only: ModelConfigs are platform-admin owned) and
 * list_skills (delegated to the skill catalog; 501 when no repositories are configured).
 */
import { conditionStatus, findCondition } from '../../core/conditions.js';
import { unsupported } from '../../core/errors.js';
import { knownPresets } from '../../core/toolset-preflight.js';
import { conditionsOf, prune } from './read-model.js';
export async function getInfo(env) {
    const { settings, deps, compose } = env;
    const chart = await deps.chart.info();
    const skillsRepositories = deps.skills?.repositories ?? [];
    const presets = settings.toolsetPresets ?? {};
    const flux = {
        helmReleaseInterval: compose.helmReleaseInterval,
        ociRepositoryInterval: compose.ociRepositoryInterval,
    };
    if (compose.helmReleaseServiceAccount)
        flux.serviceAccountName = compose.helmReleaseServiceAccount;
    return {
        version: settings.version,
        chart,
        namespaces: { default: settings.namespaces.defaultNamespace, managed: [...settings.namespaces.managed] },
        capabilities: {
            list: true, get: true, create: true, update: true, delete: true, status: true, validate: true,
            modelConfigs: true,
            skills: skillsRepositories.length > 0,
            writesAsCaller: deps.kube.identity === 'caller',
            // With only callers' tokens (no app or token configured) commit mode still works for a
            // request that sends X-GitHub-Token, but the installation cannot promise it.
            commit: deps.gitops?.installation !== undefined,
            sessions: deps.sessions !== undefined,
            targetCluster: deps.workloads !== undefined,
        },
        identity: deps.kube.identity,
        apiVersions: { ...settings.apiVersions },
        flux,
        skillsRepositories: [...skillsRepositories],
        toolset: { presets: knownPresets(presets), presetsChecked: presets.configured !== undefined },
        readCache: deps.readCache?.status() ?? { enabled: false, state: 'off' },
        ...(deps.workloads ? { organizations: [...deps.workloads.organizations] } : {}),
    };
}
export async function listModelConfigs(env, ctx, namespaceArg) {
    const namespace = env.settings.namespaces.resolve(namespaceArg);
    const items = await env.reads(ctx).list(env.types.modelConfig, namespace);
    const modelConfigs = items.map((item) => {
        const spec = (item.spec ?? {});
        const conditions = conditionsOf(item);
        const accepted = findCondition(conditions, 'Accepted');
        return prune({
            name: item.metadata.name,
            namespace: item.metadata.namespace ?? namespace,
            provider: typeof spec.provider === 'string' ? spec.provider : undefined,
            model: typeof spec.model === 'string' ? spec.model : undefined,
            accepted: conditionStatus(conditions, 'Accepted'),
            message: accepted?.message || undefined,
            managedBy: item.metadata.labels?.['app.kubernetes.io/managed-by'] || undefined,
        });
    });
    modelConfigs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { modelConfigs };
}
export async function listSkills(env, ctx, request) {
    const catalog = env.deps.skills;
    if (!catalog || catalog.repositories.length === 0)
        throw unsupported('no skill repositories are configured');
    return catalog.list(request, ctx.signal);
}
//# sourceMappingURL=info.js.map