/**
 * delete_agent (era A). Deleting the HelmRelease makes helm-controller uninstall the
 * Agent. Guards: a bare Agent CR is removed only with force; a GitOps-owned or
 * suspended release only with force (a suspended release loses its finalizer without
 * uninstalling, so force removes the Agent CR too). The namespace's shared
 * OCIRepository goes with the last live release that renders from it (a release being
 * deleted does not count, so overlapping deletes of the last two take it); a release
 * written meanwhile makes the delete restore it (shared-source.ts); any uncertainty
 * keeps it, and `ociRepositoryKept` says why.
 */
import { validateName } from '../core/names.js';
import type { DeleteResult } from '../core/types.js';
import { callerLogValue, callerName, type RequestContext } from '../identity/caller.js';
import { lookupAgent, noAgentToWrite } from './lookup.js';
import type { KubeObject, KubePort } from './ports.js';
import type { OperationEnv } from './operation-env.js';
import { bareAgentConflict, releaseGuard } from './ownership.js';
import { removeSourceIfUnused, sourceOfRelease } from './shared-source.js';

export interface DeleteRequest {
  namespace?: string;
  name: string;
  force?: boolean;
}

export async function deleteAgent(env: OperationEnv, ctx: RequestContext, request: DeleteRequest): Promise<DeleteResult> {
  const namespace = env.settings.namespaces.resolve(request.namespace);
  validateName(request.name);
  const { name } = request;
  const force = request.force === true;
  const kube = env.kube(ctx);
  const { agent, release } = await lookupAgent(kube, env.types, namespace, name);
  if (!agent && !release) throw noAgentToWrite(namespace, name);
  const result: DeleteResult = {
    name, namespace, helmReleaseDeleted: false, agentDeleted: false, ociRepositoryDeleted: false,
  };
  const requestedBy = callerName(ctx.caller);
  if (requestedBy) result.requestedBy = requestedBy;
  const caller = callerLogValue(ctx.caller);

  if (!release) {
    if (!force) throw bareAgentConflict(namespace, name);
    result.agentDeleted = await kube.remove(env.types.agent, namespace, name);
    ctx.log.info({ caller, namespace, name }, 'bare agent deleted');
    return result;
  }
  const guard = releaseGuard(release, force);
  if (guard) throw guard;

  const releaseNamespace = release.metadata.namespace ?? namespace;
  result.helmReleaseDeleted = await kube.remove(env.types.helmRelease, releaseNamespace, release.metadata.name);
  const suspended = (release.spec as { suspend?: unknown } | undefined)?.suspend === true;
  if (suspended && force && agent) {
    result.agentDeleted = await kube.remove(env.types.agent, namespace, name);
  }
  const kept = await cleanUpSource(kube, env, release);
  if (kept === true) result.ociRepositoryDeleted = true;
  else result.ociRepositoryKept = kept;
  ctx.log.info({ caller, namespace, name, ociRepositoryDeleted: result.ociRepositoryDeleted }, 'agent deleted');
  return result;
}

/** Deletes the release's chart source when no other live release renders from it: true, or why it was kept. */
async function cleanUpSource(kube: KubePort, env: OperationEnv, release: KubeObject): Promise<true | string> {
  const source = sourceOfRelease(release);
  if (!source) return 'the HelmRelease does not render from an OCIRepository';
  return removeSourceIfUnused(kube, env.types, source, release.metadata.uid);
}
