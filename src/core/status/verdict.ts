/**
 * The status verdict: the gathered facts (Agent, HelmRelease, Deployment, pods, Warning events) folded into
 * ready / progressing / failed / unknown and one sentence; the first matching rule decides, and a missing value
 * is said in words. Ready means the written change has rolled out, judged by generations as kstatus does
 * (rollout-stage.ts): a stage behind is `progressing`, named. A suspended release's unapplied change is `failed`
 * (waiting cannot roll it out), and a Warning event from before the release's last success is history
 * (currentWarnings), never the reason quoted.
 */
import { conditionText, findCondition } from './conditions.js';
import { currentWarnings } from './events.js';
import { agentBehind, deploymentBehind, releaseBehind, releaseSuspended } from './rollout-stage.js';
import { Verdict } from '../types.js';
import type { EventSummary, PodStatus, Status } from '../types.js';

export { conditionStatus, conditionText, findCondition, parseConditions } from './conditions.js';

/** What get_agent_status gathered; the verdict and summary are folded from it. */
export type StatusFacts = Omit<Status, 'name' | 'namespace' | 'verdict' | 'summary' | 'generation'
  | 'observedGeneration' | 'suspended'>;

/** What the caller waits for beside readiness: the release at least at `generation` (a write's). */
export interface VerdictOptions {
  generation?: number;
}

/** Container reasons that mean the workload will not recover on its own. */
export const FAILED_CONTAINER_REASONS: ReadonlySet<string> = new Set([
  'CrashLoopBackOff', 'ImagePullBackOff', 'ErrImagePull', 'InvalidImageName', 'CreateContainerConfigError',
  'CreateContainerError', 'RunContainerError', 'ErrImageNeverPull', 'ContainerCannotRun', 'Error', 'OOMKilled',
  'DeadlineExceeded', 'StartError', 'CreatePodSandboxError', 'FailedPostStartHook', 'FailedPreStopHook',
  'KillContainerError', 'ConfigError', 'InvalidEnvironmentVariableNames',
]);

/** The verdict and its one-sentence summary. */
export interface VerdictResult {
  verdict: Verdict;
  summary: string;
}

/** Folds the gathered facts into a verdict; the first matching rule wins. */
export function statusVerdict(facts: StatusFacts, options: VerdictOptions = {}): VerdictResult {
  const { agent, helmRelease: hr, deployment } = facts;
  const agentExists = agent?.exists === true;
  const hrExists = hr?.exists === true;

  // 1. The release is being uninstalled: everything it made goes with it.
  if (hr?.deleting) {
    return progressing('HelmRelease is being uninstalled by helm-controller; the Agent disappears with it');
  }
  // 1a. Suspended with a change Flux has not applied: only resuming it rolls the change out.
  const suspended = releaseSuspended(facts);
  if (suspended) return failed(suspended);
  // 1b. helm-controller has not caught up with the release's generation (or the caller's), or its Ready is unclear.
  const releaseStage = releaseBehind(facts, options.generation);
  if (releaseStage) return progressing(releaseStage);
  // 2. Flux says the release failed.
  if (hrExists && hr.ready === false) {
    const c = findCondition(hr.conditions, 'Ready');
    return failed(`HelmRelease is not ready (${c?.reason || 'no reason reported'}): ` +
      `${c?.message || 'no message reported'}`);
  }
  // 2b. kstatus's abnormal-true conditions of the current generation, though Ready is not False:
  // Reconciling is work in progress, Stalled a failure that will not resolve by waiting.
  const reconciling = currentTrue(hr, 'Reconciling');
  if (reconciling) return progressing(`HelmRelease is reconciling${because(reconciling)}`);
  const stalled = currentTrue(hr, 'Stalled');
  if (stalled) return failed(`HelmRelease is stalled${because(stalled)}`);
  // 2a. kagent has not observed the Agent's generation: its conditions speak of an older spec.
  const agentStage = agentBehind(facts);
  if (agentStage) return progressing(agentStage);
  // 3. A container that will not recover on its own.
  const broken = failingContainer(facts.pods);
  if (broken) {
    const { pod, container, reason, message } = broken;
    return failed(`pod ${pod} container ${container} is ${reason}${withDetail(firstLine(message))}`);
  }
  // 4. kagent refused the Agent's configuration.
  if (agentExists && agent.accepted === false) {
    return failed(`kagent rejected the Agent configuration: ` +
      `${conditionText(findCondition(agent.conditions, 'Accepted'))}`);
  }
  // 5. Ready, the Deployment's rollout (if any) complete, and a pod to serve or scaled to zero.
  if (agentExists && agent.ready === true) {
    const rollout = deploymentBehind(facts);
    if (rollout) return progressing(rollout);
    if (!deployment?.exists || deployment.availableReplicas > 0 || deployment.replicas === 0) {
      const available = deployment?.exists ? deployment.availableReplicas : 0;
      const replicas = deployment?.exists ? deployment.replicas : 0;
      return { verdict: Verdict.Ready, summary: `Agent is Ready; ${available}/${replicas} pods available` };
    }
  }
  // 6. A warning that names the trouble, newest first; one from before the release's last success is history.
  const warning = telltaleWarning(currentWarnings(facts.events, hr));
  if (warning) {
    return progressing(`not ready yet; last warning on ${warning.object}: ` +
      `${warning.reason}${withDetail(firstLine(warning.message))}`);
  }
  // 7.–11. Still on its way.
  if (hrExists && hr.ready === null) return progressing('HelmRelease created; Flux has not reconciled it yet');
  if (!agentExists && hrExists) return progressing('HelmRelease is ready but the Agent has not been rendered yet');
  if (agentExists && agent.ready === null) return progressing('Agent accepted; kagent has not reported readiness yet');
  if (deployment?.exists && deployment.availableReplicas === 0) {
    return progressing(`Deployment has 0/${deployment.replicas} pods available`);
  }
  if (agentExists) return progressing(`Agent is not ready: ${conditionText(findCondition(agent.conditions, 'Ready'))}`);
  // 12. Nothing reported anything.
  return { verdict: Verdict.Unknown, summary: 'no Agent and no HelmRelease reported anything yet' };
}

type ReleaseFacts = StatusFacts['helmRelease'];

/** The release's condition of `type` when it is True for the release's current generation. */
function currentTrue(hr: ReleaseFacts, type: string) {
  if (hr?.exists !== true) return undefined;
  const c = findCondition(hr.conditions, type);
  if (c?.status !== 'True') return undefined;
  const { observedGeneration } = c;
  const stale = observedGeneration !== undefined && hr.generation !== undefined && observedGeneration < hr.generation;
  return stale ? undefined : c;
}

/** ` (<reason>): <message>` of a condition, saying what was not reported. */
function because(c: { reason?: string; message?: string }): string {
  return ` (${c.reason || 'no reason reported'}): ${firstLine(c.message) || 'no message reported'}`;
}

/** The first line of `s` (up to the first `\n`). */
export function firstLine(s: string | undefined): string {
  if (!s) return '';
  const i = s.indexOf('\n');
  return i >= 0 ? s.slice(0, i) : s;
}

function failingContainer(
  pods: readonly PodStatus[] | undefined,
): { pod: string; container: string; reason: string; message?: string } | undefined {
  for (const pod of pods ?? []) {
    for (const c of pod.containers ?? []) {
      if (c.reason !== undefined && FAILED_CONTAINER_REASONS.has(c.reason)) {
        return { pod: pod.name, container: c.name, reason: c.reason, message: c.message };
      }
    }
  }
  return undefined;
}

function telltaleWarning(events: readonly EventSummary[] | undefined): EventSummary | undefined {
  return events?.find((e) => e.reason.includes('Failed') || e.reason === 'BackOff');
}

/** `: <detail>`, or nothing when there is no detail to add. */
function withDetail(detail: string): string {
  return detail ? `: ${detail}` : '';
}

function progressing(summary: string): VerdictResult {
  return { verdict: Verdict.Progressing, summary };
}

function failed(summary: string): VerdictResult {
  return { verdict: Verdict.Failed, summary };
}
