/**
 * Which stage of a rollout is behind, judged by generations as kstatus, `flux reconcile --wait` and
 * `kubectl rollout status` judge it: until a controller's `status.observedGeneration` reaches
 * `metadata.generation`, its other status fields describe an older spec. A fact without a generation is
 * not judged, as kstatus skips a status without observedGeneration. Pure.
 */
import { conditionText, CONTRADICTORY, findCondition } from './conditions.js';
import type { Status } from '../types.js';

type Facts = Pick<Status, 'agent' | 'helmRelease' | 'deployment'>;

const known = (n: number | undefined): n is number => typeof n === 'number';

/** The first words of the summary of a suspended release with a change Flux has not applied. */
export const SUSPENDED_SUMMARY = 'suspended: Flux does not reconcile it; resume it to apply changes';

/**
 * True when the release is suspended (`spec.suspend`) and its generation is one helm-controller has not run a
 * Helm action for: helm-controller observes a suspended release's generation without acting on it, so what tells
 * is `status.lastAttemptedGeneration` (absent: never attempted). Such a change will not roll out by waiting, only
 * once the release is resumed. A release without a generation is not judged.
 */
export function suspendedPending(
  hr: { suspended: boolean; generation?: number; lastAttemptedGeneration?: number } | undefined,
): boolean {
  if (!hr?.suspended || !known(hr.generation)) return false;
  return !(known(hr.lastAttemptedGeneration) && hr.lastAttemptedGeneration >= hr.generation);
}

/**
 * Why a suspended release's change will not roll out (suspendedPending), in the words a status summary starts with;
 * undefined when it is not suspended or its generation has been acted on.
 */
export function releaseSuspended(facts: Facts): string | undefined {
  const hr = facts.helmRelease;
  if (!hr?.exists || !suspendedPending(hr)) return undefined;
  const last = known(hr.lastAttemptedGeneration) ? `last attempted ${hr.lastAttemptedGeneration}` : 'never attempted';
  return `${SUSPENDED_SUMMARY} (generation ${hr.generation} is not applied; ${last})`;
}

/**
 * Why the HelmRelease does not yet speak for generation `wanted` (the caller's write) or
 * its own `metadata.generation`, if it does not: not yet written, not yet observed by
 * helm-controller, its last Helm action for an older generation, or its Ready condition
 * judged for an older one (or held twice, True and False), or suspended with its change not applied
 * (releaseSuspended's words, which statusVerdict turns into `failed`).
 */
export function releaseBehind(facts: Facts, wanted?: number): string | undefined {
  const hr = facts.helmRelease;
  if (!hr?.exists) return undefined;
  // A verdict fails this stage first (statusVerdict); one that only asks what is behind is told it too.
  const suspended = releaseSuspended(facts);
  if (suspended) return suspended;
  // Ready held twice, True and False (findCondition): helm-controller's word is unclear for any generation.
  const ready = findCondition(hr.conditions, 'Ready');
  if (ready?.reason === CONTRADICTORY) return `HelmRelease not judged clearly by helm-controller: ${ready.message}`;
  if (!known(hr.generation)) return undefined;
  const generation = hr.generation;
  if (known(wanted) && generation < wanted) {
    return `HelmRelease generation ${wanted} not yet written (the release is at generation ${generation})`;
  }
  // Flux's CRD defaults observedGeneration to -1: a release helm-controller never reconciled.
  if (known(hr.observedGeneration) && hr.observedGeneration < 1) {
    return 'HelmRelease created; Flux has not reconciled it yet';
  }
  if (known(hr.observedGeneration) && hr.observedGeneration < generation) {
    // What helm-controller says while it waits (the chart source not ready, a dependency), when it says it for this
    // generation.
    const waiting = findCondition(hr.conditions, 'Ready');
    const why = waiting?.status === 'False' && waiting.observedGeneration === generation
      ? `: ${conditionText(waiting).split('\n')[0]}` : '';
    return `HelmRelease generation ${generation} not yet observed by helm-controller (observed ` +
      `${hr.observedGeneration})${why}`;
  }
  if (known(hr.lastAttemptedGeneration) && hr.lastAttemptedGeneration < generation) {
    return `HelmRelease generation ${generation} not yet attempted by helm-controller (last attempted ` +
      `${hr.lastAttemptedGeneration})`;
  }
  if (known(ready?.observedGeneration) && ready.observedGeneration < generation) {
    return `HelmRelease generation ${generation} not yet judged by helm-controller (Ready is for generation ` +
      `${ready.observedGeneration})`;
  }
  return undefined;
}

/**
 * Why the Agent's conditions do not yet speak for its spec: kagent has not observed its generation, or
 * its Accepted or Ready condition was judged for an older one (a condition's own observedGeneration
 * says which spec it describes, as kstatus reads it, whatever `status.observedGeneration` says).
 */
export function agentBehind(facts: Facts): string | undefined {
  const agent = facts.agent;
  if (!agent?.exists || !known(agent.generation)) return undefined;
  if (known(agent.observedGeneration) && agent.observedGeneration < agent.generation) {
    return `Agent generation ${agent.generation} not yet observed by kagent (observed ${agent.observedGeneration})`;
  }
  for (const type of ['Accepted', 'Ready']) {
    const condition = findCondition(agent.conditions, type);
    if (known(condition?.observedGeneration) && condition.observedGeneration < agent.generation) {
      return `Agent generation ${agent.generation} not yet judged by kagent (${type} is for generation ` +
        `${condition.observedGeneration})`;
    }
  }
  return undefined;
}

/**
 * Why the Deployment's rollout is not complete, as `kubectl rollout status` says it: its
 * generation not yet observed, fewer pods of the new template than asked for, pods of an
 * older ReplicaSet still there, or new pods not yet available.
 */
export function deploymentBehind(facts: Facts): string | undefined {
  const d = facts.deployment;
  if (!d?.exists) return undefined;
  if (known(d.generation) && known(d.observedGeneration) && d.observedGeneration < d.generation) {
    return `Deployment generation ${d.generation} not yet observed by the Deployment controller (observed ` +
      `${d.observedGeneration})`;
  }
  if (!known(d.updatedReplicas)) return undefined;
  const desired = d.desiredReplicas ?? d.replicas;
  if (d.updatedReplicas < desired) {
    return `Deployment rollout: ${d.updatedReplicas} of ${desired} pods run the new template`;
  }
  if (d.replicas > d.updatedReplicas) {
    return `Deployment rollout: ${d.replicas - d.updatedReplicas} old pods pending termination`;
  }
  if (d.availableReplicas < d.updatedReplicas) {
    return `Deployment rollout: ${d.availableReplicas} of ${d.updatedReplicas} new pods available`;
  }
  return undefined;
}
