/**
 * delete_agent: deleting the HelmRelease makes helm-controller uninstall the Agent. A bare Agent CR, a
 * GitOps-owned or a suspended release is removed only with force. The shared OCIRepository goes with
 * the last live release that renders from it, is restored if a release was written meanwhile
 * (shared-source.ts), and is kept on any doubt, `ociRepositoryKept` saying why. A `resourceVersion` or
 * `version` precondition (preconditions.ts) is checked on our read and again by the API server; a dry
 * run sends every delete with `dryRun=All` and reports what would go and what stay.
 */
import { isLine2Agent } from '../../core/chart-lines/agent-2x.js';
import { conflict, invalid, isAppError } from '../../core/errors.js';
import { validateName } from '../../core/names.js';
import type { DeleteResult, WriteOptions } from '../../core/types.js';
import { callerLogFields, callerName, type RequestContext } from '../../identity/caller.js';
import { lookupAgent, noAgentToWrite } from '../reads/lookup.js';
import type { KubeObject, KubePort } from '../ports.js';
import type { OperationEnv } from '../operation-env.js';
import { checkCommitOptions } from '../commit/propose.js';
import { bareAgentConflict, releaseGuard } from './ownership.js';
import {
  agentChanged, changedDuringWrite, checkPreconditions, resourceVersionViolation, versionViolation,
} from './preconditions.js';
import { removeSourceIfUnused, sourceOfRelease } from '../chart-lines/shared-source.js';
import { deleteInCommitMode } from '../commit/commit-ops.js';
import { withCommitHint } from '../commit/commit-hint.js';
import type { CommitOptions } from '../../core/types.js';

export interface DeleteRequest extends WriteOptions, Pick<CommitOptions, 'mode' | 'repository' | 'branch' | 'path'> {
  namespace?: string;
  name: string;
  force?: boolean;
}

export async function deleteAgent(
  env: OperationEnv, ctx: RequestContext, request: DeleteRequest,
): Promise<DeleteResult> {
  checkCommitOptions(request);
  const namespace = env.settings.namespaces.resolve(request.namespace);
  validateName(request.name);
  const versionProblem = resourceVersionViolation(request.resourceVersion) ?? versionViolation(request.version);
  if (versionProblem) throw invalid(versionProblem);
  const { name, resourceVersion: precondition } = request;
  const wanted = { resourceVersion: precondition, version: request.version };
  const force = request.force === true;
  const dryRun = request.dryRun === true;
  const kube = env.kube(ctx);
  const { agent, release, foreign } = await lookupAgent(kube, env.types, namespace, name, env.compose.chartOciUrl);
  if (!agent && !release) throw foreign ?? noAgentToWrite(namespace, name);
  const result: DeleteResult = {
    name, namespace, helmReleaseDeleted: false, agentDeleted: false, ociRepositoryDeleted: false, mode: 'apply',
  };
  const requestedBy = callerName(ctx.caller);
  if (requestedBy) result.requestedBy = requestedBy;
  if (dryRun) result.dryRun = true;
  const caller = callerLogFields(ctx);
  const done = (message: string, fields: Record<string, unknown> = {}) =>
    ctx.log.info({ ...caller, namespace, agent: name, ...fields }, dryRun ? `${message} (dry run)` : message);

  if (!release) {
    // A proposal never writes to the cluster, and git holds no HelmRelease of a bare CR to remove.
    if (request.mode === 'commit') throw bareAgentNotInGit(namespace, name);
    if (!force) throw bareAgentConflict(namespace, name);
    checkPreconditions(namespace, name, wanted, release);
    result.agentDeleted = await removeAgent(kube, env, agent, name, namespace, dryRun);
    done('bare agent deleted');
    return result;
  }
  if (request.mode === 'commit') {
    checkPreconditions(namespace, name, wanted, release);
    return deleteInCommitMode(env, ctx, kube, release, result, request);
  }
  const guard = releaseGuard(release, force);
  if (guard) throw await withCommitHint(env, ctx, kube, release, guard);
  // A precondition that holds deletes exactly the resourceVersion it was checked against.
  const readAt = checkPreconditions(namespace, name, wanted, release);
  if (release.metadata.resourceVersion) result.resourceVersion = release.metadata.resourceVersion;

  const releaseNamespace = release.metadata.namespace ?? namespace;
  try {
    result.helmReleaseDeleted = await kube.remove(env.types.helmRelease, releaseNamespace, release.metadata.name, {
      dryRun, resourceVersion: readAt,
    });
  } catch (err) {
    // With a precondition, a 409 is the API server's own precondition check: the release changed after our read.
    if (readAt === undefined || !isAppError(err, 'conflict')) throw err;
    if (precondition === undefined) throw changedDuringWrite(namespace, name, err);
    const now = await kube.get(env.types.helmRelease, releaseNamespace, release.metadata.name)
      .then((r) => r?.metadata.resourceVersion, () => 'unknown');
    throw agentChanged(namespace, name, precondition, now, err);
  }
  const suspended = (release.spec as { suspend?: unknown } | undefined)?.suspend === true;
  if (suspended && force && agent) {
    result.agentDeleted = await removeAgent(kube, env, agent, name, namespace, dryRun);
  }
  const kept = await cleanUpSource(kube, env, release, dryRun);
  if (kept === true) result.ociRepositoryDeleted = true;
  else result.ociRepositoryKept = kept;
  done('agent deleted', { ociRepositoryDeleted: result.ociRepositoryDeleted });
  return result;
}

/** The 409 of a commit-mode delete of a bare Agent CR: there is no release to remove in git. */
function bareAgentNotInGit(namespace: string, name: string) {
  return conflict(
    `Agent ${namespace}/${name} is a bare CR with no HelmRelease behind it, so commit mode has no release to remove ` +
    `in git; delete it where it is defined, or with force in apply mode`,
  );
}

/** Deletes the release's chart source when no other live release renders from it: true, or why it was kept. */
async function cleanUpSource(
  kube: KubePort, env: OperationEnv, release: KubeObject, dryRun: boolean,
): Promise<true | string> {
  const source = sourceOfRelease(release);
  if (!source) return 'the HelmRelease does not render from an OCIRepository';
  return removeSourceIfUnused(kube, env.types, source, release.metadata.uid, { dryRun });
}

/** Removes the Agent found: chart 2.x's api.kagent.dev one, or chart 0.x's kagent.dev one. */
function removeAgent(
  kube: KubePort, env: OperationEnv, agent: KubeObject | undefined, name: string, namespace: string, dryRun: boolean,
): Promise<boolean> {
  if (isLine2Agent(agent) && env.types.agentV2) return kube.remove(env.types.agentV2, namespace, name, { dryRun });
  return kube.remove(env.types.agent, namespace, name, { dryRun });
}
