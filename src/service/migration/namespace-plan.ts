/**
 * The expand plan of one namespace, from its read (read-namespace.ts) and the target line's schema (the newest
 * chart of that line in the registry, else the embedded one): what migrate acts on and what plan_migration
 * answers, so the portal sees exactly the plan the CLI would write.
 */
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import type { To2xOptions } from '../../core/migration/map-to-2x.js';
import { planNamespace, type NamespacePlan } from '../../core/migration/plan.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubePort } from '../ports.js';
import { readNamespace, type NamespaceRead } from './read-namespace.js';
import { targetSourceName } from './target-source.js';

export async function namespacePlan(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, namespace: string, to: ChartLine, mapping: To2xOptions,
): Promise<{ read: NamespaceRead; plan: NamespacePlan }> {
  const [read, resolved] = await Promise.all([
    readNamespace(env, ctx, kube, namespace, to), env.deps.chart.schema(to),
  ]);
  const plan = planNamespace({
    namespace, to, targetSource: targetSourceName(env, to), releases: read.releases, bareAgents: read.bareAgents,
    schema: { schema: resolved.schema, label: { version: resolved.version, source: resolved.source } },
    options: mapping,
  });
  return { read, plan };
}
