/**
 * A GitOps-owned release moves through commit mode (service/commit/propose.ts): the same access checks, the
 * repository Flux applies it from, git as the base, one pull request carrying the values, the chartRef and the new
 * source's file (core/migration/commit-move.ts). Nothing is written to the cluster; Flux applies it once merged.
 */
import { planMove } from '../../core/migration/commit-move.js';
import type { To2xOptions } from '../../core/migration/map-to-2x.js';
import { mapValues, type AgentPlan, type NamespacePlan } from '../../core/migration/plan.js';
import type { RequestContext } from '../../identity/caller.js';
import { commitChange } from '../commit/propose.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubeObject, KubePort } from '../ports.js';
import { targetSourceObject } from './target-source.js';

/** Opens the pull request; answers its URL. */
export async function proposeMove(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, release: KubeObject, agent: AgentPlan, plan: NamespacePlan,
  options: To2xOptions,
): Promise<string | undefined> {
  const namespace = plan.namespace;
  const source = targetSourceObject(env, namespace, plan.to, undefined);
  const commit = await commitChange(env, ctx, kube, {
    operation: 'update', namespace, name: agent.name, release, options: { mode: 'commit' },
    plan: (input) => planMove(input, (base) => mapValues(base, plan.to, options), plan.targetSource, source),
  });
  return commit.pullRequest;
}
