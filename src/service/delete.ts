/**
 * delete_agent (era A). Deleting the HelmRelease makes helm-controller uninstall the
 * Agent. Guards: a bare Agent CR is removed only with force; a GitOps-owned or
 * suspended release only with force (a suspended release loses its finalizer without
 * uninstalling, so force removes the Agent CR too). The namespace's shared
 * OCIRepository goes with the last release that renders from it; any uncertainty
 * keeps it, and `ociRepositoryKept` says why.
 */
import { validateName } from '../core/names.js';
import type { DeleteResult } from '../core/types.js';
import { callerLogValue, callerName, type RequestContext } from '../identity/caller.js';
import { lookupAgent, noAgentToWrite } from './lookup.js';
import type { KubeObject, KubePort } from './ports.js';
import type { OperationEnv } from './operation-env.js';
import { bareAgentConflict, releaseGuard } from './ownership.js';

export interface DeleteRequest {
  namespace?: string;
  name: string;
  force?: boolean;
}

type ChartRef = { kind?: unknown; name?: unknown; namespace?: unknown };
const chartRefOf = (release: KubeObject): ChartRef =>
  ((release.spec as { chartRef?: ChartRef } | undefined)?.chartRef ?? {});

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

/** Deletes the release's chart source when nothing else renders from it: true, or why it was kept. */
async function cleanUpSource(kube: KubePort, env: OperationEnv, release: KubeObject): Promise<true | string> {
  const ref = chartRefOf(release);
  if (ref.kind !== 'OCIRepository' || typeof ref.name !== 'string') {
    return 'the HelmRelease does not render from an OCIRepository';
  }
  const releaseNamespace = release.metadata.namespace ?? '';
  const sourceNamespace = typeof ref.namespace === 'string' && ref.namespace !== '' ? ref.namespace : releaseNamespace;
  let others: KubeObject[];
  try {
    others = await kube.list(env.types.helmRelease, sourceNamespace);
  } catch (err) {
    return `could not list the other HelmReleases of the namespace: ${err instanceof Error ? err.message : String(err)}`;
  }
  const referencing = others
    .filter((other) => !(other.metadata.name === release.metadata.name && (other.metadata.namespace ?? '') === releaseNamespace))
    .filter((other) => {
      const otherRef = chartRefOf(other);
      const otherNs = typeof otherRef.namespace === 'string' && otherRef.namespace !== '' ? otherRef.namespace : other.metadata.namespace;
      return otherRef.kind === 'OCIRepository' && otherRef.name === ref.name && otherNs === sourceNamespace;
    })
    .map((other) => other.metadata.name)
    .sort();
  if (referencing.length > 0) {
    return `still referenced by ${referencing.length} other HelmRelease(s): ${referencing.join(', ')}`;
  }
  try {
    return (await kube.remove(env.types.ociRepository, sourceNamespace, ref.name)) ? true : 'no OCIRepository to delete';
  } catch (err) {
    return `delete refused: ${err instanceof Error ? err.message : String(err)}`;
  }
}
