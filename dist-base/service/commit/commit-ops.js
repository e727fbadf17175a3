/**
 * create, update, rollback and delete in commit mode, after every check their apply-mode twins run
 * (request rules, ownership, the modelConfig, the chart schema): the same composition
 * (core/compose.ts) planned into the GitOps repository (core/gitops/gitops-plan.ts) and proposed
 * as a pull request (propose.ts). Nothing is written to the cluster; the result is the
 * usual one plus `mode: "commit"` and `commit`.
 */
import { buildHelmRelease, buildOciRepository, composeManifests } from '../../core/compose.js';
import { changedPaths } from '../../core/diff.js';
import { invalid } from '../../core/errors.js';
import { planCreate, planDelete, planUpdate } from '../../core/gitops/gitops-plan.js';
import { toolsetRemovalViolation } from '../../core/revisions/revision-record.js';
import { applyUpdate } from '../../core/update-merge.js';
import { callerLogFields, callerName } from '../../identity/caller.js';
import { schemaRefusal } from '../writes/checks.js';
import { commitChange } from './propose.js';
import { liveReferences, sourceOfRelease } from '../writes/shared-source.js';
import { agentFromRelease, agentOf } from '../reads/read-model.js';
export async function createInCommitMode(env, ctx, kube, spec, namespace, values, schema, source) {
    const { name } = spec;
    const release = buildHelmRelease(namespace, name, values, env.compose);
    const commit = await commitChange(env, ctx, kube, {
        operation: 'create', namespace, name, options: spec, schema, source,
        plan: (input) => planCreate(input, release, buildOciRepository(namespace, env.compose)),
    });
    logCommit(ctx, 'create', namespace, name, commit.pullRequest);
    const result = {
        agent: agentFromRelease(release, name),
        manifests: composeManifests(namespace, name, values, env.compose),
        created: { ociRepository: false, helmRelease: false },
        mode: 'commit',
        commit,
    };
    if (spec.dryRun)
        result.dryRun = true;
    return withRequester(result, ctx);
}
/**
 * Where git defines the release, git is the base: the update (or the revision's fields)
 * is merged into git's `spec.values` with update's rules, and the proposed values pass the
 * chart schema before anything is written; `before`, `after` and `changed` describe that
 * change, and `drift` where the live release differs from git. A release git does not
 * define (and no Kustomization owns) is laid out with the live-based merge.
 */
export async function updateInCommitMode(env, ctx, kube, proposed) {
    const { objects, update, merged, options, operation, schema } = proposed;
    const namespace = merged.release.metadata.namespace ?? objects.namespace;
    const name = merged.release.metadata.name;
    let planned;
    const valuesFor = (base) => {
        if (base === undefined)
            return merged.after;
        const after = applyUpdate(base, update);
        // As for an applied write: a proposal never takes the toolset git's release has away.
        const problem = toolsetRemovalViolation(base, after) ?? schemaRefusal(schema, after);
        if (problem)
            throw invalid(problem);
        return after;
    };
    const commit = await commitChange(env, ctx, kube, {
        operation, namespace, name, release: merged.release, options, schema, rolledBackTo: proposed.rolledBackTo,
        plan: (input) => {
            planned = planUpdate(input, valuesFor, (values) => buildHelmRelease(namespace, name, values, env.compose), buildOciRepository(namespace, env.compose), merged.before);
            return planned;
        },
    });
    logCommit(ctx, operation, namespace, name, commit.pullRequest);
    const before = planned?.base ?? merged.before;
    const after = planned?.values ?? merged.after;
    const result = {
        agent: agentOf(objects.agent, merged.release, update.name),
        before,
        after,
        changed: changedPaths(before, after),
        manifests: composeManifests(namespace, name, after, env.compose),
        mode: 'commit',
        commit,
    };
    if (planned?.drift) {
        result.drift = planned.drift;
        result.notes = [driftNote(planned.drift)];
    }
    if (options.dryRun)
        result.dryRun = true;
    return withRequester(result, ctx);
}
/** What a drift means for the proposal, for the result's notes. */
export function driftNote(drift) {
    return `the live release differs from git at ${drift.join(', ')}; the change is based on git's values and does not ` +
        `copy the live ones into git (a merge makes Flux apply git's)`;
}
export async function deleteInCommitMode(env, ctx, kube, release, result, options) {
    const namespace = release.metadata.namespace ?? result.namespace;
    const name = release.metadata.name;
    // A source still used on the cluster stays in git too: pruning it would break those releases.
    const source = sourceOfRelease(release);
    const users = source ? await liveReferences(kube, env.types, source, release.metadata.uid) : [];
    let kept;
    const commit = await commitChange(env, ctx, kube, {
        operation: 'delete', namespace, name, release, options,
        plan: (input) => {
            const plan = planDelete(input, users);
            kept = plan.sourceKept;
            return plan;
        },
    });
    logCommit(ctx, 'delete', namespace, name, commit.pullRequest);
    return { ...result, ...(kept ? { ociRepositoryKept: kept } : {}), mode: 'commit', commit };
}
function withRequester(result, ctx) {
    const requestedBy = callerName(ctx.caller);
    if (requestedBy)
        result.requestedBy = requestedBy;
    return result;
}
function logCommit(ctx, operation, namespace, name, pullRequest) {
    ctx.log.info({ ...callerLogFields(ctx), namespace, agent: name, operation, pullRequest, dryRun: pullRequest === undefined }, 'agent change proposed');
}
//# sourceMappingURL=commit-ops.js.map