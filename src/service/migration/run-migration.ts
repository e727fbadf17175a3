/**
 * `agent-manager migrate`: the managed namespaces (or the ones named) moved to the target chart line in phases —
 * expand, wait, contract (docs/chart-lines.md "Migrating a namespace") — each namespace read, planned in a pure
 * function, then acted on, and reported in a ConfigMap of its own and in the run's answer. The run stops before
 * writing anything when the cluster does not serve the kagent API the target chart renders. A dry run writes
 * nothing, the report ConfigMap included.
 */
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import { invalid } from '../../core/errors.js';
import type { To2xOptions } from '../../core/migration/map-to-2x.js';
import { operatorActions, reportData, type AgentReport, type NamespaceReport } from '../../core/migration/report.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import type { Gvr, KubePort } from '../ports.js';
import { runExpand, type PhaseOutcome } from './expand.js';
import { namespacePlan } from './namespace-plan.js';
import { readNamespace } from './read-namespace.js';
import { runContract, runWait } from './wait-contract.js';

export type MigrationPhase = 'expand' | 'wait' | 'contract';
export const MIGRATION_PHASES: readonly MigrationPhase[] = ['expand', 'wait', 'contract'];

export interface MigrateRequest {
  /** The namespaces to migrate; empty: every managed namespace. */
  namespaces: readonly string[];
  to: ChartLine;
  phases: readonly MigrationPhase[];
  dryRun: boolean;
  timeoutMs: number;
  reportConfigMap: string;
  mapping: To2xOptions;
  /** Namespaces searched read-only (`--gitops-namespaces`): proposals and reports only, never a write. */
  readOnly?: readonly string[];
}

export interface MigrateResult {
  reports: NamespaceReport[];
  /** What an operator must do; empty when the run is done. */
  actions: string[];
}

const CONFIG_MAP: Gvr = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' };

/** The original's refusal when the target chart's kagent API is not served (inventory 3.3). */
export function targetApiRefusal(env: OperationEnv, to: ChartLine): string | undefined {
  if (to !== '2.x' || env.types.agentV2) return undefined;
  return 'the target chart 2.x renders Agent of group api.kagent.dev, which the cluster does not serve (API ' +
    'discovery found no api.kagent.dev agents); run migrate after the kagent upgrade (--dry-run works before it on ' +
    '2.x) — nothing was changed';
}

function merge(report: NamespaceReport, outcome: PhaseOutcome): void {
  for (const [name, part] of outcome.agents) {
    const agent = report.agents.find((a) => a.name === name);
    if (!agent) continue;
    const { notes, refusals, ...rest } = part;
    Object.assign(agent, rest);
    if (notes) agent.notes = [...new Set([...agent.notes, ...notes])];
    if (refusals) agent.refusals = [...agent.refusals, ...refusals];
  }
  report.notes.push(...outcome.notes);
  report.actions.push(...outcome.actions);
}

async function writeReport(env: OperationEnv, kube: KubePort, report: NamespaceReport, name: string): Promise<void> {
  const data = reportData(report);
  const current = await kube.get(CONFIG_MAP, report.namespace, name);
  const object = {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { ...(current?.metadata ?? {}), name, namespace: report.namespace,
      labels: { ...current?.metadata.labels, 'app.kubernetes.io/managed-by': 'agent-manager' } },
    data,
  };
  if (current) await kube.replace(CONFIG_MAP, object);
  else await kube.create(CONFIG_MAP, object);
  void env;
}

async function migrateNamespace(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, namespace: string, request: MigrateRequest, deadline: number,
): Promise<NamespaceReport> {
  const { to, dryRun, mapping } = request;
  const { read, plan } = await namespacePlan(env, ctx, kube, namespace, to, mapping);
  const report: NamespaceReport = {
    namespace, phases: [...request.phases], dryRun, from: plan.from, to, targetSource: plan.targetSource,
    agents: plan.agents.map((a): AgentReport => ({
      name: a.name, action: a.action, notes: [...a.notes], refusals: [...a.refusals], diff: a.diff,
    })),
    bareAgents: plan.bareAgents, notes: [], actions: [],
  };
  if (plan.bareAgents.length > 0) {
    report.actions.push(`bare Agents with no HelmRelease stay as they are: ${plan.bareAgents.join(', ')}; recreate ` +
      `them with create_agent on chart ${to} if they should move`);
  }
  const blocked = plan.blockedBy.length > 0;
  if (request.phases.includes('expand')) {
    const readOnly = request.readOnly?.includes(namespace) ?? false;
    merge(report, await runExpand(env, ctx, kube, read, plan, { dryRun, mapping, readOnly }));
  } else if (blocked) report.actions.push(`refused: ${plan.blockedBy.join(', ')}`);
  const writes = !blocked && !(request.readOnly?.includes(namespace) ?? false);
  if (!dryRun && writes && request.phases.includes('wait')) {
    merge(report, await runWait(env, ctx, kube, await readNamespace(env, ctx, kube, namespace, to), to, deadline));
  }
  if (writes && request.phases.includes('contract')) {
    merge(report, await runContract(env, kube, await readNamespace(env, ctx, kube, namespace, to), to, dryRun));
  }
  if (!dryRun && !(request.readOnly?.includes(namespace) ?? false)) {
    await writeReport(env, kube, report, request.reportConfigMap);
  }
  return report;
}

/** Runs the phases over the namespaces; throws (nothing written) when the target API is not served. */
export async function runMigration(env: OperationEnv, ctx: RequestContext, request: MigrateRequest):
Promise<MigrateResult> {
  const managed = env.settings.namespaces.managed;
  const namespaces = request.namespaces.length > 0 ? request.namespaces : managed;
  const unmanaged = namespaces.filter((n) => !managed.includes(n));
  if (unmanaged.length > 0) {
    throw invalid(`--namespaces names ${unmanaged.join(', ')}, which agent-manager does not manage (managed: ` +
      `${managed.join(', ')}); add them to --managed-namespaces`);
  }
  const refusal = request.dryRun ? undefined : targetApiRefusal(env, request.to);
  if (refusal) throw invalid(refusal);
  const kube = env.kube(ctx);
  const deadline = Date.now() + request.timeoutMs;
  const reports: NamespaceReport[] = [];
  for (const namespace of namespaces) {
    reports.push(await migrateNamespace(env, ctx, kube, namespace, request, deadline));
  }
  return { reports, actions: operatorActions(reports) };
}
