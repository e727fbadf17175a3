/**
 * wait and contract. wait: every release of the namespace on the target line, and its Agent, observed and Ready at
 * the release's newest generation (the status fold get_agent_status answers: status/agent-status.ts), bounded by one
 * deadline for the whole run; those that are not are named. contract: what the old line rendered and the new one
 * does not (the other group's Agent of a moved release, and on 0.x its Deployment), and old-line chart sources no
 * release references; nothing else. An Agent without a release is never deleted.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChartLine } from '../../core/chart-lines/major-line.js';
import type { RequestContext } from '../../identity/caller.js';
import { lineOf } from '../chart-lines/line-of.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubeObject, KubePort } from '../ports.js';
import { provenanceOf } from '../reads/read-model.js';
import { parseMeta } from '../../core/objects/object-meta.js';
import { agentStatus } from '../status/agent-status.js';
import { removeSourceIfUnused } from '../chart-lines/shared-source.js';
import type { PhaseOutcome } from './expand.js';
import type { NamespaceRead } from './read-namespace.js';

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Waits until every moved agent is ready or failed, or `deadline` (ms since the epoch) passes. */
export async function runWait(
  env: OperationEnv, _ctx: RequestContext, kube: KubePort, read: NamespaceRead, to: ChartLine, deadline: number,
): Promise<PhaseOutcome> {
  const out: PhaseOutcome = { agents: new Map(), notes: [], actions: [] };
  const moved = read.releases.filter((r) => r.line === to);
  const pending = new Set(moved.filter((r) => !r.suspended).map((r) => r.name));
  for (const r of moved.filter((m) => m.suspended)) out.agents.set(r.name, { ready: 'suspended: not waited for' });
  for (let pause = 250; pending.size > 0; pause = Math.min(pause * 2, 2000)) {
    for (const name of [...pending]) {
      try {
        const status = await agentStatus(kube, env.types, read.namespace, name, env.compose.chartOciUrl);
        if (status.verdict === 'ready' || status.verdict === 'failed') {
          out.agents.set(name, { ready: status.verdict === 'ready' ? 'ready' : `failed: ${status.summary}` });
          pending.delete(name);
        } else out.agents.set(name, { ready: `${status.verdict}: ${status.summary}` });
      } catch (err) {
        out.agents.set(name, { ready: `unknown: ${messageOf(err)}` });
      }
    }
    if (pending.size === 0 || Date.now() >= deadline) break;
    await sleep(Math.min(pause, Math.max(0, deadline - Date.now())));
  }
  const notReady = moved.filter((r) => out.agents.get(r.name)?.ready !== 'ready' && !r.suspended).map((r) => r.name);
  if (notReady.length > 0) {
    out.actions.push(`not ready on chart ${to} within --timeout: ${notReady.join(', ')} (see their status; rollback ` +
      'with migrate --phase expand in the other direction)');
  }
  return out;
}

/** The other line's Agent of a moved release (and on 0.x's side its Deployment), when that release rendered it. */
async function leftovers(env: OperationEnv, kube: KubePort, namespace: string, name: string, to: ChartLine):
Promise<Array<{ type: OperationEnv['types']['agent']; object: KubeObject }>> {
  const oldType = to === '2.x' ? env.types.agent : env.types.agentV2;
  if (!oldType) return [];
  const agent = await kube.get(oldType, namespace, name).catch(() => undefined);
  if (!agent || (provenanceOf(agent)?.name ?? name) !== name) return [];
  const out = [{ type: oldType, object: agent }];
  if (to === '2.x') {
    const deployment = await kube.get(env.types.deployment, namespace, name);
    const owned = parseMeta(deployment).ownerReferences.some((o) => o.kind === 'Agent' && o.name === name);
    if (deployment && owned) out.push({ type: env.types.deployment, object: deployment });
  }
  return out;
}

/** Deletes the old line's leftovers of every moved release and the old-line sources nothing references. */
export async function runContract(
  env: OperationEnv, kube: KubePort, read: NamespaceRead, to: ChartLine, dryRun: boolean,
): Promise<PhaseOutcome> {
  const out: PhaseOutcome = { agents: new Map(), notes: [], actions: [] };
  const namespace = read.namespace;
  for (const release of read.releases.filter((r) => r.line === to)) {
    const found = await leftovers(env, kube, namespace, release.name, to);
    const deleted: string[] = [];
    for (const { type, object } of found) {
      const what = `${object.apiVersion} ${object.kind} ${object.metadata.name}`;
      const { resourceVersion } = object.metadata;
      if (!dryRun) await kube.remove(type, namespace, object.metadata.name, { resourceVersion });
      deleted.push(what);
    }
    if (deleted.length > 0) out.agents.set(release.name, { deleted });
  }
  for (const [name, source] of read.sources) {
    if (name === 'agent' || lineOf(env, source, `the OCIRepository ${namespace}/${name}`) === to) continue;
    if (read.releases.some((r) => r.source === name)) continue;
    const removed = dryRun ? true : await removeSourceIfUnused(kube, env.types, { namespace, name });
    if (removed === true) out.notes.push(`deleted OCIRepository ${name} (chart ${to === '2.x' ? '0.x' : '2.x'}, ` +
      'no release renders from it)');
    else out.notes.push(`OCIRepository ${name} kept: ${removed}`);
  }
  return out;
}
