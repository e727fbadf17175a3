/**
 * create, update, rollback and delete in commit mode, after every check their apply-mode twins run
 * (request rules, ownership, the modelConfig, the chart schema): the same composition
 * (core/compose.ts) planned into the GitOps repository (core/gitops-plan.ts) and proposed
 * as a pull request (commit.ts). Nothing is written to the cluster; the result is the
 * usual one plus `mode: "commit"` and `commit`.
 */
import { buildHelmRelease, buildOciRepository, composeManifests, type Values } from '../core/compose.js';
import { planCreate, planDelete, planUpdate } from '../core/gitops-plan.js';
import type { AgentSpec, AgentUpdate, CommitOptions, CreateResult, DeleteResult, UpdateResult } from '../core/types.js';
import { callerLogValue, callerName, type RequestContext } from '../identity/caller.js';
import { commitChange } from './commit.js';
import { liveReferences, sourceOfRelease } from './shared-source.js';
import type { AgentObjects } from './lookup.js';
import type { OperationEnv } from './operation-env.js';
import type { KubeObject, KubePort, ResolvedSchema } from './ports.js';
import { agentFromRelease, agentOf } from './read-model.js';
import type { MergedUpdate } from './update.js';

export async function createInCommitMode(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, spec: AgentSpec, namespace: string, values: Values, schema: ResolvedSchema,
): Promise<CreateResult> {
  const { name } = spec;
  const release = buildHelmRelease(namespace, name, values, env.compose);
  const commit = await commitChange(env, ctx, kube, {
    operation: 'create', namespace, name, options: spec, schema,
    plan: (input) => planCreate(input, release, buildOciRepository(namespace, env.compose)),
  });
  logCommit(ctx, 'create', namespace, name, commit.pullRequest);
  const result: CreateResult = {
    agent: agentFromRelease(release as KubeObject, name),
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

export async function updateInCommitMode(env: OperationEnv, ctx: RequestContext, kube: KubePort, proposed: ProposedUpdate): Promise<UpdateResult> {
  const { objects, update, merged, options, operation } = proposed;
  const namespace = merged.release.metadata.namespace ?? objects.namespace;
  const name = merged.release.metadata.name;
  const commit = await commitChange(env, ctx, kube, {
    operation, namespace, name, release: merged.release, options, schema: proposed.schema, rolledBackTo: proposed.rolledBackTo,
    plan: (input) => planUpdate(input, merged.after, buildHelmRelease(namespace, name, merged.after, env.compose), buildOciRepository(namespace, env.compose)),
  });
  logCommit(ctx, operation, namespace, name, commit.pullRequest);
  const result: UpdateResult = {
    agent: agentOf(objects.agent, merged.release, update.name),
    before: merged.before,
    after: merged.after,
    changed: merged.changed,
    manifests: composeManifests(namespace, name, merged.after, env.compose),
    mode: 'commit',
    commit,
  };
  if (options.dryRun) result.dryRun = true;
  return withRequester(result, ctx);
}

export async function deleteInCommitMode(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, release: KubeObject, result: DeleteResult, options: CommitOptions,
): Promise<DeleteResult> {
  const namespace = release.metadata.namespace ?? result.namespace;
  const name = release.metadata.name;
  // A source still used on the cluster stays in git too: pruning it would break those releases.
  const source = sourceOfRelease(release);
  const users = source ? await liveReferences(kube, env.types, source, release.metadata.uid) : [];
  const commit = await commitChange(env, ctx, kube, {
    operation: 'delete', namespace, name, release, options,
    plan: (input) => planDelete(input, users),
  });
  logCommit(ctx, 'delete', namespace, name, commit.pullRequest);
  return { ...result, mode: 'commit', commit };
}

function withRequester<T extends { requestedBy?: string }>(result: T, ctx: RequestContext): T {
  const requestedBy = callerName(ctx.caller);
  if (requestedBy) result.requestedBy = requestedBy;
  return result;
}

function logCommit(ctx: RequestContext, operation: string, namespace: string, name: string, pullRequest: string | undefined) {
  ctx.log.info({ caller: callerLogValue(ctx.caller), namespace, name, operation, pullRequest, dryRun: pullRequest === undefined }, 'agent change proposed');
}
