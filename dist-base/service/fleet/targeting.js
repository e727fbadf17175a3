/**
 * The operation environment of a request that names a workload cluster. Both or neither
 * of `organization` and `cluster` (parseTarget's refusals), then the cluster's kubeconfig
 * Secret is read (missing, or without `value`: a 400), all before anything is written;
 * the environment's clients then route as placement.ts says. A request without a target
 * gets the environment it had.
 */
import { invalid, unsupported } from '../../core/errors.js';
import { missingTargetMusterText, parseTarget, withTargetMuster, } from '../../core/target-cluster.js';
import { placedProvider } from './placement.js';
/** The request without its target fields, which no operation body reads. */
export function withoutTarget(request) {
    const { organization: _o, cluster: _c, ...rest } = request;
    return rest;
}
/** The environment of the request's target (or `env` itself for the management cluster). */
export async function envFor(env, ctx, request, options = {}) {
    const target = parseTarget(request);
    if (!target)
        return env;
    return placedEnv(env, ctx, target, request, options);
}
async function placedEnv(env, _ctx, target, request, options) {
    const workloads = env.deps.workloads;
    if (!workloads)
        throw unsupported('this installation does not place agents on workload clusters');
    const namespace = env.settings.namespaces.resolve(request.namespace);
    if (request.mode === 'commit') {
        throw invalid('mode commit does not place agents on workload clusters; write them with mode apply, '
            + 'or commit the HelmRelease to git yourself');
    }
    const musterUrl = env.settings.targetMusterUrl ?? '';
    if (options.creates && musterUrl === '')
        throw invalid(missingTargetMusterText(target));
    const workload = await workloads.provider(target);
    const kube = placedProvider({ target, namespace, types: env.types }, env.deps.kube, workload);
    return {
        ...env,
        deps: { ...env.deps, kube },
        kube: (ctx) => kube.forRequest(ctx),
        reads: (ctx) => kube.forReads?.(ctx) ?? kube.forRequest(ctx),
        placement: { target, musterUrl },
    };
}
/** The values a create writes: for an agent on a workload cluster, with its muster URL. */
export function placedValues(env, values, schema) {
    const url = env.placement?.musterUrl ?? '';
    return url !== '' ? withTargetMuster(values, url, schema.schema) : values;
}
//# sourceMappingURL=targeting.js.map