/**
 * The status verdict of an agent of chart 2.x (inventory 8.3): there are no pods, the Agent runs on its Harness,
 * so after the release the Agent's own conditions and revisions decide. Ready means the Agent is Ready and the
 * revision it was asked to run is the latest one its Harness compiled, for the Agent's current generation; the
 * release's generation rules (rollout-stage.ts) come first, as on 0.x, so a write is not ready before
 * helm-controller has observed it. The first matching rule wins. Pure.
 */
import { conditionText, findCondition } from '../status/conditions.js';
import { agentBehind, releaseBehind, releaseSuspended } from '../status/rollout-stage.js';
import { Verdict } from '../types.js';
import type { StatusFacts, VerdictOptions, VerdictResult } from '../status/verdict.js';

/** Release reasons that mean helm-controller waits for something else rather than failed. */
const WAITING_REASONS = new Set(['SourceNotReady', 'DependencyNotReady', 'Progressing']);

const progressing = (summary: string): VerdictResult => ({ verdict: Verdict.Progressing, summary });
const failed = (summary: string): VerdictResult => ({ verdict: Verdict.Failed, summary });

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0] ?? '';
}

function reasonAndMessage(c: { reason?: string; message?: string } | undefined): string {
  return `${c?.reason || 'no reason reported'}: ${firstLine(c?.message) || 'no message reported'}`;
}

/** What the release says, when it decides the verdict (rules 1–3 of 8.3, after the generation rules). */
function releaseVerdict(facts: StatusFacts, options: VerdictOptions, sourceFailing?: string): VerdictResult |
  undefined {
  const hr = facts.helmRelease;
  if (hr?.deleting) {
    return progressing('HelmRelease is being uninstalled by helm-controller; the Agent disappears with it');
  }
  // A suspended release's change will never roll out by waiting: failed, saying to resume it (as on 0.x).
  const suspended = releaseSuspended(facts);
  if (suspended) return failed(suspended);
  const behind = releaseBehind(facts, options.generation);
  if (behind) return progressing(behind);
  if (!hr?.exists) return undefined;
  const stalled = findCondition(hr.conditions, 'Stalled');
  if (stalled?.status === 'True') return failed(`HelmRelease is stalled: ${reasonAndMessage(stalled)}`);
  const ready = findCondition(hr.conditions, 'Ready');
  if (hr.ready !== false) return undefined;
  if (ready?.reason && WAITING_REASONS.has(ready.reason)) {
    if (ready.reason === 'SourceNotReady' && sourceFailing) {
      return failed(`the chart source is failing: ${sourceFailing}`);
    }
    return progressing(`HelmRelease is waiting: ${reasonAndMessage(ready)}`);
  }
  return failed(`HelmRelease is not ready: ${reasonAndMessage(ready)}`);
}

/** What the Agent says (rule 4 of 8.3), once kagent has observed its current generation. */
function agentVerdict(facts: StatusFacts): VerdictResult {
  const agent = facts.agent!;
  const harness = agent.harness ?? 'unknown';
  if (agent.observedGeneration === undefined || agent.observedGeneration === 0) {
    return progressing('kagent has not reported on the Agent yet');
  }
  const behind = agentBehind(facts);
  if (behind) return progressing(behind);
  for (const type of ['Accepted', 'ResolvedRefs', 'Compatible']) {
    const c = findCondition(agent.conditions, type);
    if (c?.status === 'False') return failed(`Harness ${harness}: ${type} is False (${reasonAndMessage(c)})`);
  }
  const ready = findCondition(agent.conditions, 'Ready');
  const desired = agent.desiredRevision;
  const latest = agent.latestSuccessfulRevision;
  if (ready?.status === 'True' && desired !== undefined && desired === latest) {
    const warnings = agent.warnings ?? [];
    const tail = warnings.length > 0 ? ` with ${warnings.length} warning(s): ${warnings.join('; ')}` : '';
    return { verdict: Verdict.Ready, summary: `Agent is Ready on Harness ${harness} (revision ${desired})${tail}` };
  }
  if (latest !== undefined && desired !== latest) {
    return progressing(`Harness ${harness} is compiling revision ${desired ?? 'unknown'}; ${latest} is the latest ` +
      'successful one');
  }
  if (ready?.status === 'False' && ready.reason !== 'ActorTemplatePending') {
    return failed(`Harness ${harness}: Ready is False (${reasonAndMessage(ready)})`);
  }
  if (ready) {
    return progressing(`Harness ${harness} is compiling revision ${desired ?? 'unknown'}; Ready is ${ready.status} ` +
      `(${conditionText(ready)})`);
  }
  return progressing(`Harness ${harness} is compiling revision ${desired ?? 'unknown'}; Ready not reported yet`);
}

/**
 * Folds the facts of a 2.x agent into a verdict. `sourceFailing` is the chart source's own Ready=False text,
 * when it is failing, so a release waiting on it is reported as the source's failure.
 */
export function statusVerdict2x(
  facts: StatusFacts, options: VerdictOptions = {}, sourceFailing?: string,
): VerdictResult {
  const fromRelease = releaseVerdict(facts, options, sourceFailing);
  if (fromRelease) return fromRelease;
  if (facts.agent?.exists) return agentVerdict(facts);
  const hr = facts.helmRelease;
  if (hr?.exists && hr.ready === null) return progressing('HelmRelease created; Flux has not reconciled it yet');
  if (hr?.exists) return progressing('HelmRelease is ready but the Agent has not been rendered yet');
  return { verdict: Verdict.Unknown, summary: 'no Agent and no HelmRelease reported anything yet' };
}
