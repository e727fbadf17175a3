/**
 * plan_migration (`POST /api/v1/migrations?dryRun=true`): the expand plan of one namespace for the portal — per
 * agent the diff, the notes and the refusals — exactly as `agent-manager migrate --dry-run` would plan it, to the
 * other chart line than the namespace's shared source follows. Nothing is written; the write itself stays in the
 * CLI, where a platform engineer runs it, so a request without `dryRun=true` is a 400 saying so.
 */
import { invalid } from '../../core/errors.js';
import type { NamespacePlan } from '../../core/migration/plan.js';
import type { RequestContext } from '../../identity/caller.js';
import { lineOf, line2Settings } from '../chart-lines/line-of.js';
import type { OperationEnv } from '../operation-env.js';
import { namespacePlan } from './namespace-plan.js';

export interface PlanMigrationRequest {
  namespace?: string;
  dryRun?: boolean;
}

export const MIGRATION_RUNS_FROM_CLI = 'a migration is planned here and run from the CLI: send dryRun=true for the ' +
  'plan, and run agent-manager migrate --namespaces <namespace> (docs/chart-lines.md "Migrating a namespace") to ' +
  'apply it';

/** The plan of one namespace, with whether expand would write it. */
export async function planMigration(
  env: OperationEnv, ctx: RequestContext, request: PlanMigrationRequest,
): Promise<NamespacePlan & { writable: boolean }> {
  if (request.dryRun !== true) throw invalid(MIGRATION_RUNS_FROM_CLI);
  const namespace = env.settings.namespaces.resolve(request.namespace);
  const kube = env.kube(ctx);
  const shared = await kube.get(env.types.ociRepository, namespace, 'agent');
  const from = lineOf(env, shared, `the OCIRepository ${namespace}/agent`);
  const to = from === '0.x' ? '2.x' : '0.x';
  const { plan } = await namespacePlan(env, ctx, kube, namespace, to, { musterUrl: line2Settings(env).musterUrl });
  return { ...plan, writable: plan.blockedBy.length === 0 };
}
