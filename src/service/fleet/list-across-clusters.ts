/**
 * list_agents of an organization without a cluster: every workload cluster its
 * kubeconfig Secrets name, listed in parallel (at most FLEET_CONCURRENCY at a time), each
 * item carrying its organization and cluster. A cluster that cannot be read never fails
 * the list: it adds one line to `warnings`, and its releases (on the management cluster,
 * which answered) become items with `error`.
 */
import { toAppError } from '../../core/errors.js';
import { CLUSTER_LABEL, organizationNamespace, parseOrganization } from '../../core/fleet/target-cluster.js';
import { parseHelmRelease } from '../../core/objects/helm-release-view.js';
import type { Agent } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import { releaseAgentName } from '../reads/read-model.js';
import { readAgent, type ListedAgents } from '../reads/agent-reads.js';
import { checkOrganizationAccess, envFor } from './targeting.js';

/** How many workload clusters are listed at once. */
export const FLEET_CONCURRENCY = 8;

/** Lists one cluster's namespace in its environment. */
export type ListOne = (env: OperationEnv) => Promise<ListedAgents>;

export async function listFleet(
  env: OperationEnv, ctx: RequestContext, organization: string, namespace: string, listOne: ListOne,
): Promise<ListedAgents> {
  parseOrganization(organization);
  const workloads = env.deps.workloads;
  if (!workloads) return { agents: [] };
  await checkOrganizationAccess(env, ctx, organization);
  const clusters = await workloads.clusters(organization);
  const results: ListedAgents[] = new Array(clusters.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < clusters.length; i = next++) {
      results[i] = await listCluster(env, ctx, organization, clusters[i]!, namespace, listOne);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FLEET_CONCURRENCY, clusters.length) }, worker));
  const agents = results.flatMap((r) => r.agents);
  const warnings = results.flatMap((r) => r.warnings ?? []);
  return warnings.length > 0 ? { agents, warnings } : { agents };
}

async function listCluster(
  env: OperationEnv, ctx: RequestContext, organization: string, cluster: string, namespace: string, listOne: ListOne,
): Promise<ListedAgents> {
  const stamp = (agent: Agent): Agent => ({ ...agent, organization, cluster });
  try {
    const listed = await listOne(await envFor(env, ctx, { organization, cluster, namespace }));
    return { ...listed, agents: listed.agents.map(stamp) };
  } catch (err) {
    const cause = toAppError(err);
    const warning = `cluster ${cluster} of organization ${organization} could not be listed: ${cause.message}`;
    ctx.log.warn({ organization, cluster, err: cause.message }, 'workload cluster not listed');
    const error = { code: cause.code, message: `the agents of cluster ${cluster} could not be read: ${cause.message}` };
    const agents = (await releasesOf(env, ctx, organization, cluster, namespace)).map((a) => ({ ...stamp(a), error }));
    return { agents, warnings: [warning] };
  }
}

/** The cluster's releases into `namespace`, as the management cluster has them (none when it cannot say). */
async function releasesOf(
  env: OperationEnv, ctx: RequestContext, organization: string, cluster: string, namespace: string,
): Promise<Agent[]> {
  try {
    const releases = await env.kube(ctx).list(
      env.types.helmRelease, organizationNamespace(organization), { labelSelector: `${CLUSTER_LABEL}=${cluster}` },
    );
    return releases
      .filter((r) => parseHelmRelease(r).targetNamespace === namespace)
      .map((r) => readAgent(undefined, r, releaseAgentName(r)));
  } catch {
    return [];
  }
}
