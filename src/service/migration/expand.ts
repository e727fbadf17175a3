/**
 * expand, the acting half: for a namespace whose plan is writable, the target line's source first, then each
 * release of ours in ONE replace that changes its values and its chartRef together (the state before recorded as a
 * revision, unless the newest revision already holds it), GitOps-owned releases proposed as pull requests, others
 * only reported; once every release has moved, the shared source follows the target line. A dry run writes nothing.
 */
import type { Values } from '../../core/writes/compose.js';
import { changedPaths, jsonEqual } from '../../core/diff.js';
import { isAppError } from '../../core/errors.js';
import { asObject } from '../../core/json.js';
import { parseHelmRelease } from '../../core/objects/helm-release-view.js';
import type { To2xOptions } from '../../core/migration/map-to-2x.js';
import type { AgentPlan, NamespacePlan } from '../../core/migration/plan.js';
import { writable } from '../../core/migration/plan.js';
import type { AgentReport } from '../../core/migration/report.js';
import { callerName, type RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubeObject, KubePort } from '../ports.js';
import {
  nextNumber, readHistory, recordRevision, releaseRevisions, stampRevision,
} from '../revisions/revision-store.js';
import { ensureSource } from '../chart-lines/shared-source.js';
import { proposeMove } from './propose-move.js';
import type { NamespaceRead } from './read-namespace.js';
import { followingSource, targetSourceObject } from './target-source.js';

export interface PhaseOutcome {
  agents: Map<string, Partial<AgentReport>>;
  notes: string[];
  actions: string[];
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The revision holding the release as it is now: the newest one with its values, else one recorded now. */
async function revisionBefore(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, release: KubeObject, name: string, live: Values,
): Promise<number | undefined> {
  const history = await readHistory(kube, env.types, release.metadata.namespace ?? '', name);
  const newest = releaseRevisions(history, release).sort((a, b) => b.revision - a.revision)[0];
  if (newest && jsonEqual(newest.values, live)) return newest.revision;
  const revision = nextNumber(history, release);
  const recorded = await recordRevision(env, ctx, kube, {
    agent: name, release, revision, history,
    record: { operation: 'update', requestedBy: callerName(ctx.caller), changed: [], values: live },
  });
  return recorded.revision;
}

/** Moves one release of ours: values and chartRef in one replace, recorded as a revision like every write. */
async function moveRelease(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, release: KubeObject, agent: AgentPlan, target: string,
): Promise<Partial<AgentReport>> {
  const namespace = release.metadata.namespace ?? '';
  const before = await revisionBefore(env, ctx, kube, release, agent.name, agent.before);
  // A controller's status write between the read and the replace is retried; a change of the values is not.
  for (let attempt = 1; ; attempt++) {
    const current = (await kube.get(env.types.helmRelease, namespace, agent.name)) ?? release;
    if (!jsonEqual(parseHelmRelease(current).rawValues ?? {}, agent.before)) {
      throw new Error(`HelmRelease ${namespace}/${agent.name} changed since it was planned; run migrate again`);
    }
    const next = structuredClone(current);
    const spec = asObject(next.spec);
    next.spec = { ...spec, values: agent.after, chartRef: { ...asObject(spec.chartRef), name: target } };
    const history = await readHistory(kube, env.types, namespace, agent.name);
    const revision = nextNumber(history, current);
    stampRevision(next, revision);
    let written: KubeObject;
    try {
      written = await kube.replace(env.types.helmRelease, next);
    } catch (err) {
      if (isAppError(err, 'conflict') && attempt < 5) continue;
      throw err;
    }
    const recorded = await recordRevision(env, ctx, kube, {
      agent: agent.name, release: written, revision, history,
      record: {
        operation: 'update', requestedBy: callerName(ctx.caller), values: agent.after!,
        changed: changedPaths(agent.before, agent.after!),
      },
    });
    return { written: true, ...(before !== undefined ? { revisionBefore: before } : {}),
      notes: [...agent.notes, ...recorded.notes] };
  }
}

/** Runs expand for one namespace whose plan and read are given. */
export async function runExpand(
  env: OperationEnv, ctx: RequestContext, kube: KubePort, read: NamespaceRead, plan: NamespacePlan,
  options: { dryRun: boolean; mapping: To2xOptions; readOnly?: boolean },
): Promise<PhaseOutcome> {
  const { dryRun } = options;
  const out: PhaseOutcome = { agents: new Map(), notes: [], actions: [] };
  if (!writable(plan)) {
    out.actions.push(`the namespace was left untouched: ${plan.blockedBy.join(', ')} cannot move to chart ${plan.to} ` +
      '(see their refusals); fix them and run migrate again');
    return out;
  }
  // A namespace searched read-only (--gitops-namespaces) gets proposals and reports, never a write.
  const readOnly = options.readOnly === true;
  const pending = plan.agents.filter((a) => a.action !== 'unchanged')
    .map((a) => (readOnly && a.action === 'move' ? { ...a, action: 'report' as const } : a));
  const shared = read.sources.get('agent');
  if (dryRun) {
    for (const a of pending.filter((p) => p.action === 'report')) out.actions.push(externalAction(a, readOnly));
    return out;
  }
  if (pending.some((a) => a.action === 'move')) {
    const created = await ensureSource(kube, env.types, targetSourceObject(env, plan.namespace, plan.to, shared),
      { seen: read.sources.get(plan.targetSource) ?? null });
    if (created) out.notes.push(`created OCIRepository ${plan.targetSource} (chart ${plan.to})`);
  }
  let moved = 0;
  for (const agent of pending) {
    const release = read.releases.find((r) => r.name === agent.name)!;
    try {
      if (agent.action === 'move') {
        out.agents.set(agent.name, await moveRelease(env, ctx, kube, release.object, agent, plan.targetSource));
        moved++;
      } else if (agent.action === 'propose') {
        const pr = await proposeMove(env, ctx, kube, release.object, agent, plan, options.mapping);
        out.agents.set(agent.name, { pullRequest: pr });
        out.actions.push(`merge the pull request of ${agent.name} (${pr ?? 'see the report'}), then run migrate again`);
      } else out.actions.push(externalAction(agent, readOnly));
    } catch (err) {
      out.agents.set(agent.name, { refusals: [`not moved: ${messageOf(err)}`] });
      out.actions.push(`${agent.name} could not be moved: ${messageOf(err)}`);
    }
  }
  const everyMoved = moved === pending.length;
  const follows = shared && jsonEqual(followingSource(env, shared, plan.to).spec, shared.spec);
  if (!options.readOnly && everyMoved && shared && !follows) {
    await kube.replace(env.types.ociRepository, followingSource(env, shared, plan.to));
    out.notes.push(`the shared OCIRepository agent now follows chart ${plan.to}: new agents are created on it`);
  } else if (!everyMoved) {
    out.notes.push(`the shared OCIRepository agent stays on chart ${plan.from} until every release moved`);
  }
  return out;
}

function externalAction(agent: AgentPlan, readOnly = false): string {
  if (readOnly) {
    return `${agent.name} is in a namespace migrate searches read-only (--gitops-namespaces): apply its diff ` +
      `(report key ${agent.name}.diff), or run migrate with --namespaces for it`;
  }
  return `${agent.name} is applied by someone else (neither agent-manager nor a Flux Kustomization): apply its diff ` +
    `(report key ${agent.name}.diff) where it is defined, then run migrate again`;
}
