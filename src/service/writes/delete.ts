/**
 * delete_agent: read → decide (core/writes/delete-decision.ts) → act → answer. Deleting the HelmRelease makes
 * helm-controller uninstall the Agent. A bare Agent CR, a GitOps-owned or a suspended release is removed only
 * with force. The shared OCIRepository goes with the last live release that renders from it, is restored if a
 * release was written meanwhile (shared-source.ts), and is kept on any doubt, `ociRepositoryKept` saying why.
 * A `resourceVersion` or `version` precondition is checked on our read and again by the API server; a dry
 * run sends every delete with `dryRun=All` and reports what would go and what stay.
 */
import { isLine2Agent } from '../../core/chart-lines/agent-2x.js';
import { invalid, isAppError } from '../../core/errors.js';
import { validateName } from '../../core/names.js';
import { decideDelete, deleteFailure } from '../../core/writes/delete-decision.js';
import {
  agentChanged, changedDuringWrite, resourceVersionViolation, versionViolation, type Preconditions,
} from '../../core/writes/precondition-rules.js';
import type { DeleteResult, WriteOptions } from '../../core/types.js';
import { callerLogFields, callerName, type RequestContext } from '../../identity/caller.js';
import { lookupAgent, noAgentToWrite, type AgentObjects } from '../reads/lookup.js';
import type { KubeObject, KubePort } from '../ports.js';
import type { OperationEnv } from '../operation-env.js';
import { checkCommitOptions } from '../commit/propose.js';
import { releaseFacts } from './release-facts.js';
import { removeSourceIfUnused, sourceOfRelease } from '../chart-lines/shared-source.js';
import { deleteInCommitMode } from '../commit/commit-ops.js';
import { withCommitHint } from '../commit/commit-hint.js';
import type { CommitOptions } from '../../core/types.js';

export interface DeleteRequest extends WriteOptions, Pick<CommitOptions, 'mode' | 'repository' | 'branch' | 'path'> {
  namespace?: string;
  name: string;
  force?: boolean;
}

/** One delete in flight: what it acts on and how it reports. */
interface Deletion {
  env: OperationEnv;
  ctx: RequestContext;
  kube: KubePort;
  request: DeleteRequest;
  namespace: string;
  objects: AgentObjects;
  result: DeleteResult;
}

export async function deleteAgent(
  env: OperationEnv, ctx: RequestContext, request: DeleteRequest,
): Promise<DeleteResult> {
  const namespace = checkDelete(env, request);
  const { name } = request;
  const wanted: Preconditions = { resourceVersion: request.resourceVersion, version: request.version };
  const kube = env.kube(ctx);
  const objects = await lookupAgent(kube, env.types, namespace, name, env.compose.chartOciUrl);
  const { agent, release, foreign } = objects;
  const decision = decideDelete({
    namespace, name, mode: request.mode, force: request.force === true, wanted,
    release: release && { ...releaseFacts(release, wanted), object: release },
    agent: agent !== undefined, missing: foreign ?? noAgentToWrite(namespace, name),
  });
  if (decision.kind === 'refuse') {
    // A GitOps-owned release's 409 says how to propose the delete instead.
    if (decision.commitHint && release) throw await withCommitHint(env, ctx, kube, release, decision.error);
    throw decision.error;
  }
  const result = deleteResult(ctx, request, namespace);
  const deletion: Deletion = { env, ctx, kube, request, namespace, objects, result };
  if (decision.kind === 'commit') {
    return deleteInCommitMode(env, ctx, kube, decision.release.object, deletion.result, request);
  }
  if (decision.target === 'agent') {
    deletion.result.agentDeleted = await removeAgent(deletion);
    logDeleted(deletion, 'bare agent deleted');
    return deletion.result;
  }
  const { object } = decision.release;
  // A precondition that holds deletes exactly the resourceVersion it was checked against.
  await removeRelease(deletion, object, decision.writeAt);
  if (decision.removeAgent) deletion.result.agentDeleted = await removeAgent(deletion);
  const kept = await cleanUpSource(kube, env, object, request.dryRun === true);
  if (kept === true) deletion.result.ociRepositoryDeleted = true;
  else deletion.result.ociRepositoryKept = kept;
  logDeleted(deletion, 'agent deleted', { ociRepositoryDeleted: deletion.result.ociRepositoryDeleted });
  return deletion.result;
}

/** The request-only checks, before anything is read: the namespace the delete acts in, or a 400. */
function checkDelete(env: OperationEnv, request: DeleteRequest): string {
  checkCommitOptions(request);
  const namespace = env.settings.namespaces.resolve(request.namespace);
  validateName(request.name);
  const versionProblem = resourceVersionViolation(request.resourceVersion) ?? versionViolation(request.version);
  if (versionProblem) throw invalid(versionProblem);
  return namespace;
}

/** The answer before anything is deleted: nothing gone yet, who asked, whether it is a dry run. */
function deleteResult(ctx: RequestContext, request: DeleteRequest, namespace: string): DeleteResult {
  const result: DeleteResult = {
    name: request.name, namespace, helmReleaseDeleted: false, agentDeleted: false, ociRepositoryDeleted: false,
    mode: 'apply',
  };
  const requestedBy = callerName(ctx.caller);
  if (requestedBy) result.requestedBy = requestedBy;
  if (request.dryRun === true) result.dryRun = true;
  return result;
}

function logDeleted(deletion: Deletion, message: string, fields: Record<string, unknown> = {}): void {
  const { ctx, namespace, request } = deletion;
  ctx.log.info({ ...callerLogFields(ctx), namespace, agent: request.name, ...fields },
    request.dryRun === true ? `${message} (dry run)` : message);
}

/** Deletes the release at `readAt`; the API server's 409 on a precondition becomes the 409 or 412 it means. */
async function removeRelease(deletion: Deletion, release: KubeObject, readAt: string | undefined): Promise<void> {
  const { env, kube, namespace, request, result } = deletion;
  if (release.metadata.resourceVersion) result.resourceVersion = release.metadata.resourceVersion;
  const releaseNamespace = release.metadata.namespace ?? namespace;
  try {
    result.helmReleaseDeleted = await kube.remove(env.types.helmRelease, releaseNamespace, release.metadata.name, {
      dryRun: request.dryRun === true, resourceVersion: readAt,
    });
  } catch (err) {
    const failure = deleteFailure(
      { writeAt: readAt, resourceVersion: request.resourceVersion, conflict: isAppError(err, 'conflict') },
    );
    if (failure.kind === 'rethrow') throw err;
    if (failure.kind === 'changed') throw changedDuringWrite(namespace, request.name, err);
    const now = await kube.get(env.types.helmRelease, releaseNamespace, release.metadata.name)
      .then((r) => r?.metadata.resourceVersion, () => 'unknown');
    throw agentChanged(namespace, request.name, failure.read, now, err);
  }
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
function removeAgent(deletion: Deletion): Promise<boolean> {
  const { env, kube, namespace, request, objects } = deletion;
  const dryRun = request.dryRun === true;
  if (isLine2Agent(objects.agent) && env.types.agentV2) {
    return kube.remove(env.types.agentV2, namespace, request.name, { dryRun });
  }
  return kube.remove(env.types.agent, namespace, request.name, { dryRun });
}
