/**
 * create, update, rollback and delete in commit mode, after every check their apply-mode twins run
 * (request rules, ownership, the modelConfig, the chart schema): the same composition
 * (core/writes/compose.ts) planned into the GitOps repository (core/commit/commit-plan.ts) and proposed
 * as a pull request (propose.ts). Nothing is written to the cluster; the result is the
 * usual one plus `mode: "commit"` and `commit`.
 */
import { buildHelmRelease, buildOciRepository, composeManifests, type Values } from '../../core/writes/compose.js';
import { changedPaths } from '../../core/diff.js';
import { invalid } from '../../core/errors.js';
import { planCreate, planDelete, planUpdate, type UpdatePlan } from '../../core/commit/commit-plan.js';
import { toolsetRemovalViolation } from '../../core/revisions/revision-record.js';
import { applyUpdate } from '../../core/writes/update-merge.js';
import type { Agent, AgentSpec, AgentUpdate, CommitOptions, CreateResult, DeleteResult,
  UpdateResult } from '../../core/types.js';
import { callerLogFields, callerName, type RequestContext } from '../../identity/caller.js';
import { schemaRefusal } from '../write-checks.js';
import { commitChange } from './propose.js';
import { liveReferences, sourceOfRelease } from '../chart-lines/shared-source.js';
import type { AgentObjects } from '../reads/lookup.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubeObject, KubePort, ResolvedSchema } from '../ports.js';
import { agentFromRelease, agentOf, withRelease } from '../reads/read-model.js';
import type { MergedUpdate } from '../writes/prepare-update.js';

/**
 * The agent a proposed create describes, read as an applied create's is (the toolset, the values, the
 * release reference): `gitops` when the pull request puts it under a Kustomization, which applies it once
 * merged; no version, since no object carries one yet.
 */
function proposedAgent(release: KubeObject, name: string, underKustomization: boolean): Agent {
  const { version: _version, resourceVersion: _resourceVersion, ...agent } = withRelease(
    agentFromRelease(release, name), release,
  );
  return { ...agent, managed: underKustomization ? 'gitops' : 'helmrelease' };
}

export async function createInCommitMode(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, spec: AgentSpec, namespace: string, values: Values,
  schema: ResolvedSchema,
  source?: KubeObject,
): Promise<CreateResult> {
  const { name } = spec;
  const release = buildHelmRelease(namespace, name, values, env.compose);
  const commit = await commitChange(env, ctx, kube, {
    operation: 'create', namespace, name, options: spec, schema, source,
    plan: (input) => planCreate(input, release, buildOciRepository(namespace, env.compose)),
  });
  logCommit(ctx, 'create', namespace, name, commit.pullRequest);
  const result: CreateResult = {
    agent: proposedAgent(release, name, commit.kustomization !== undefined),
    manifests: composeManifests(namespace, name, values, env.compose),
    created: { ociRepository: false, helmRelease: false },
    mode: 'commit',
    commit,
  };
  if (spec.dryRun) result.dryRun = true;
  return withRequester(result, ctx);
}

/** What update_agent and rollback_agent propose, after the update path's checks and merge. */
export interface ProposedUpdate {
  objects: AgentObjects;
  update: AgentUpdate;
  merged: MergedUpdate;
  schema: ResolvedSchema;
  /** The request's commit options (`mode`, `repository`, `branch`, `path`, `dryRun`). */
  options: CommitOptions;
  operation: 'update' | 'rollback';
  /** For a rollback, the revision whose values are proposed. */
  rolledBackTo?: number;
}

/**
 * Where git defines the release, git is the base: the update (or the revision's fields)
 * is merged into git's `spec.values` with update's rules, and the proposed values pass the
 * chart schema before anything is written; `before`, `after` and `changed` describe that
 * change, and `drift` where the live release differs from git. A release git does not
 * define (and no Kustomization owns) is laid out with the live-based merge.
 */
export async function updateInCommitMode(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, proposed: ProposedUpdate,
): Promise<UpdateResult> {
  const { objects, update, merged, options, operation, schema } = proposed;
  const namespace = merged.release.metadata.namespace ?? objects.namespace;
  const name = merged.release.metadata.name;
  let planned: UpdatePlan | undefined;
  const valuesFor = (base: Values | undefined): Values => {
    // Merged into git's values; a release git does not define is laid out from the live merge.
    const after = base === undefined ? merged.after : applyUpdate(base, update);
    // As for an applied write: a proposal never takes the toolset git's release has away, and passes the schema.
    const problem = (base === undefined ? undefined : toolsetRemovalViolation(base, after)) ??
      schemaRefusal(schema, after);
    if (problem) throw invalid(problem);
    return after;
  };
  const commit = await commitChange(env, ctx, kube, {
    operation, namespace, name, release: merged.release, options, schema, rolledBackTo: proposed.rolledBackTo,
    plan: (input) => {
      planned = planUpdate(
        input, valuesFor, (values) => buildHelmRelease(namespace, name, values, env.compose),
        buildOciRepository(namespace, env.compose), merged.before,
      );
      return planned;
    },
  });
  logCommit(ctx, operation, namespace, name, commit.pullRequest);
  const before = planned?.base ?? merged.before;
  const after = planned?.values ?? merged.after;
  const result: UpdateResult = {
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
  if (options.dryRun) result.dryRun = true;
  return withRequester(result, ctx);
}

/** What a drift means for the proposal, for the result's notes. */
export function driftNote(drift: string[]): string {
  return `the live release differs from git at ${drift.join(', ')}; the change is based on git's values and does not ` +
    `copy the live ones into git (a merge makes Flux apply git's)`;
}

export async function deleteInCommitMode(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, release: KubeObject, result: DeleteResult,
  options: CommitOptions,
): Promise<DeleteResult> {
  const namespace = release.metadata.namespace ?? result.namespace;
  const name = release.metadata.name;
  // A source still used on the cluster stays in git too: pruning it would break those releases.
  const source = sourceOfRelease(release);
  const users = source ? await liveReferences(kube, env.types, source, release.metadata.uid) : [];
  let kept: string | undefined;
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

function withRequester<T extends { requestedBy?: string }>(result: T, ctx: RequestContext): T {
  const requestedBy = callerName(ctx.caller);
  if (requestedBy) result.requestedBy = requestedBy;
  return result;
}

function logCommit(
  ctx: RequestContext, operation: string, namespace: string, name: string, pullRequest: string | undefined,
) {
  ctx.log.info(
    { ...callerLogFields(ctx), namespace, agent: name, operation, pullRequest, dryRun: pullRequest === undefined },
    'agent change proposed',
  );
}
