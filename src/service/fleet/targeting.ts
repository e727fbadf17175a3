/**
 * The operation environment of a request that names a workload cluster. Both or neither
 * of `organization` and `cluster` (parseTarget's refusals), then the cluster's kubeconfig
 * Secret is read (missing, or without `value`: a 400), all before anything is written;
 * the environment's clients then route as placement.ts says. A request without a target
 * gets the environment it had.
 */
import { invalid, unsupported } from '../../core/errors.js';
import {
  CLUSTER_LABEL, missingTargetMusterText, organizationNamespace, parseTarget, withTargetMuster, type TargetCluster,
} from '../../core/fleet/target-cluster.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import { placedProvider } from './placement.js';
import type { ResolvedSchema } from '../ports.js';

export interface TargetInput {
  organization?: string;
  cluster?: string;
  namespace?: string;
  mode?: string;
}

/** What a write on a workload cluster needs beyond reads. */
export interface TargetOptions {
  /** A create (or its dry run): the agent needs a muster to reach from there. */
  creates?: boolean;
}

/** The request without its target fields, which no operation body reads. */
export function withoutTarget<T extends { organization?: string; cluster?: string }>(
  request: T,
): Omit<T, 'organization' | 'cluster'> {
  const { organization: _o, cluster: _c, ...rest } = request;
  return rest;
}

/** The environment of the request's target (or `env` itself for the management cluster). */
export async function envFor(
  env: OperationEnv, ctx: RequestContext, request: TargetInput, options: TargetOptions = {},
): Promise<OperationEnv> {
  const target = parseTarget(request);
  if (!target) return env;
  return placedEnv(env, ctx, target, request, options);
}

/**
 * The organization's workload clusters are found through their kubeconfig Secrets, which the
 * ServiceAccount reads: acting as the caller, only one who may list the organization's HelmReleases
 * (the fleet's permission, docs/fleet.md) learns which clusters there are. The API server's 403
 * otherwise, before any Secret is read.
 */
export async function checkOrganizationAccess(
  env: OperationEnv, ctx: RequestContext, organization: string, cluster?: string,
): Promise<void> {
  if (env.deps.kube.identity !== 'caller') return;
  await env.kube(ctx).list(env.types.helmRelease, organizationNamespace(organization),
    cluster === undefined ? {} : { labelSelector: `${CLUSTER_LABEL}=${cluster}` });
}

async function placedEnv(
  env: OperationEnv, ctx: RequestContext, target: TargetCluster, request: TargetInput, options: TargetOptions,
): Promise<OperationEnv> {
  const workloads = env.deps.workloads;
  if (!workloads) throw unsupported('this installation does not place agents on workload clusters');
  await checkOrganizationAccess(env, ctx, target.organization, target.cluster);
  const namespace = env.settings.namespaces.resolve(request.namespace);
  if (request.mode === 'commit') {
    throw invalid('mode commit does not place agents on workload clusters; write them with mode apply, '
      + 'or commit the HelmRelease to git yourself');
  }
  const musterUrl = env.settings.targetMusterUrl ?? '';
  if (options.creates && musterUrl === '') throw invalid(missingTargetMusterText(target));
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
export function placedValues(
  env: OperationEnv, values: Record<string, unknown>, schema: ResolvedSchema,
): Record<string, unknown> {
  const url = env.placement?.musterUrl ?? '';
  return url !== '' ? withTargetMuster(values, url, schema.schema) : values;
}
