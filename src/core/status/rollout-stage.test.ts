import { describe, expect, it } from 'vitest';
import type { Condition } from '../types.js';
import { releaseBehind, releaseSuspended, suspendedPending } from './rollout-stage.js';
import { statusVerdict, type StatusFacts } from './verdict.js';

// Facts of an agent whose last change rolled out completely at generation 3; each row moves one stage behind.
const ready = (generation: number): Condition => ({ type: 'Ready', status: 'True', reason: 'UpgradeSucceeded', observedGeneration: generation });
const hr = (over: Partial<NonNullable<StatusFacts['helmRelease']>> = {}): NonNullable<StatusFacts['helmRelease']> => ({
  exists: true, ready: true, suspended: false, gitOpsOwned: false, deleting: false,
  generation: 3, observedGeneration: 3, lastAttemptedGeneration: 3, conditions: [ready(3)], ...over,
});
const agent = (over: Partial<NonNullable<StatusFacts['agent']>> = {}): NonNullable<StatusFacts['agent']> => ({
  exists: true, ready: true, accepted: true, generation: 2, observedGeneration: 2, ...over,
});
const deployment = (over: Partial<NonNullable<StatusFacts['deployment']>> = {}): NonNullable<StatusFacts['deployment']> => ({
  exists: true, replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1, desiredReplicas: 1,
  generation: 2, observedGeneration: 2, ...over,
});
const facts = (over: Partial<StatusFacts> = {}): StatusFacts => ({
  helmRelease: hr(), agent: agent(), deployment: deployment(), ...over,
});

describe('a suspended release', () => {
  // Flux does not reconcile it: a change it has not acted on waits for nobody, so waiting cannot help.
  it.each<[string, StatusFacts, string]>([
    ['suspended before helm-controller looked', facts({ helmRelease: hr({ suspended: true, generation: 4 }) }),
      'suspended: Flux does not reconcile it; resume it to apply changes (generation 4 is not applied; last attempted 3)'],
    ['created suspended', facts({ helmRelease: hr({ suspended: true, generation: 1, observedGeneration: 1, lastAttemptedGeneration: undefined }) }),
      'suspended: Flux does not reconcile it; resume it to apply changes (generation 1 is not applied; never attempted)'],
    ['observed by helm-controller without acting on it',
      facts({ helmRelease: hr({ suspended: true, generation: 4, observedGeneration: 4, lastAttemptedGeneration: 3 }) }),
      'suspended: Flux does not reconcile it; resume it to apply changes (generation 4 is not applied; last attempted 3)'],
    ['with its last Helm action failed for an older generation',
      facts({ helmRelease: hr({ suspended: true, generation: 4, ready: false, conditions: [{ type: 'Ready', status: 'False', reason: 'UpgradeFailed', observedGeneration: 3 }] }) }),
      'suspended: Flux does not reconcile it; resume it to apply changes (generation 4 is not applied; last attempted 3)'],
  ])('with a change Flux has not applied is failed, saying to resume it: %s', (_name, given, summary) => {
    expect(statusVerdict(given)).toEqual({ verdict: 'failed', summary });
    expect(suspendedPending(given.helmRelease)).toBe(true);
  });

  it('whose generation was acted on is judged as any release: what runs is what was written', () => {
    const given = facts({ helmRelease: hr({ suspended: true }) });
    expect(suspendedPending(given.helmRelease)).toBe(false);
    expect(statusVerdict(given)).toEqual({ verdict: 'ready', summary: 'Agent is Ready; 1/1 pods available' });
    expect(statusVerdict(facts({ helmRelease: hr({ suspended: true }), agent: agent({ observedGeneration: 1 }) })))
      .toEqual({ verdict: 'progressing', summary: 'Agent generation 2 not yet observed by kagent (observed 1)' });
  });

  it('is what releaseBehind names first, for a verdict that asks it only what is behind', () => {
    const given = facts({ helmRelease: hr({ suspended: true, generation: 4, observedGeneration: 4 }) });
    expect(releaseBehind(given)).toBe(releaseSuspended(given));
    expect(releaseBehind(given)).toMatch(/^suspended: Flux does not reconcile it; resume it to apply changes/);
    expect(releaseBehind(facts({ helmRelease: hr({ suspended: true }) }))).toBeUndefined();
  });

  it('without a generation is not judged, nor is a release that is not suspended', () => {
    expect(suspendedPending({ suspended: true })).toBe(false);
    expect(suspendedPending({ suspended: false, generation: 4, lastAttemptedGeneration: 3 })).toBe(false);
    expect(suspendedPending(undefined)).toBe(false);
  });
});

describe('a verdict judged by generations', () => {
  it('is ready only when every controller observed its generation and the rollout is complete', () => {
    expect(statusVerdict(facts())).toEqual({ verdict: 'ready', summary: 'Agent is Ready; 1/1 pods available' });
  });

  it.each<[string, StatusFacts, string]>([
    ['helm-controller has not observed the written generation',
      facts({ helmRelease: hr({ generation: 7, observedGeneration: 6, lastAttemptedGeneration: 6 }) }),
      'HelmRelease generation 7 not yet observed by helm-controller (observed 6)'],
    ['helm-controller waits for the chart source, saying so for this generation',
      facts({ helmRelease: hr({ generation: 4, ready: false, conditions: [{ type: 'Ready', status: 'False', reason: 'SourceNotReady', message: "OCIRepository 'kagent/agent' is not ready\nmore", observedGeneration: 4 }] }) }),
      "HelmRelease generation 4 not yet observed by helm-controller (observed 3): SourceNotReady: OCIRepository 'kagent/agent' is not ready"],
    ['helm-controller has not attempted it', facts({ helmRelease: hr({ lastAttemptedGeneration: 2 }) }),
      'HelmRelease generation 3 not yet attempted by helm-controller (last attempted 2)'],
    ['the Ready condition speaks of an older generation', facts({ helmRelease: hr({ conditions: [ready(2)] }) }),
      'HelmRelease generation 3 not yet judged by helm-controller (Ready is for generation 2)'],
    ['a release helm-controller never reconciled (the CRD default -1)',
      facts({
        helmRelease: hr({
          generation: 1, observedGeneration: -1, lastAttemptedGeneration: undefined, ready: null, conditions: [],
        }),
      }),
      'HelmRelease created; Flux has not reconciled it yet'],
    ['kagent has not observed the Agent', facts({ agent: agent({ generation: 3 }) }),
      'Agent generation 3 not yet observed by kagent (observed 2)'],
    ['the Agent\'s Ready condition speaks of an older generation, though kagent observed the new one',
      facts({ agent: agent({ generation: 3, observedGeneration: 3, conditions: [
        { type: 'Accepted', status: 'True', reason: 'AgentReconciled', observedGeneration: 3 },
        { type: 'Ready', status: 'True', reason: 'DeploymentReady', observedGeneration: 2 },
      ] }) }),
      'Agent generation 3 not yet judged by kagent (Ready is for generation 2)'],
    ['the Agent\'s Accepted condition speaks of an older generation',
      facts({ agent: agent({ generation: 3, observedGeneration: 3, conditions: [
        { type: 'Accepted', status: 'True', reason: 'AgentReconciled', observedGeneration: 1 },
      ] }) }),
      'Agent generation 3 not yet judged by kagent (Accepted is for generation 1)'],
    ['the Deployment controller has not observed the Deployment', facts({ deployment: deployment({ generation: 3 }) }),
      'Deployment generation 3 not yet observed by the Deployment controller (observed 2)'],
    ['no pod runs the new template yet', facts({ deployment: deployment({ updatedReplicas: 0, replicas: 1 }) }),
      'Deployment rollout: 0 of 1 pods run the new template'],
    ['a pod of the old ReplicaSet is still there', facts({ deployment: deployment({ replicas: 2, availableReplicas: 2, readyReplicas: 2 }) }),
      'Deployment rollout: 1 old pods pending termination'],
    ['the new pod is not available yet', facts({ deployment: deployment({ replicas: 2, updatedReplicas: 2, desiredReplicas: 2, availableReplicas: 1 }) }),
      'Deployment rollout: 1 of 2 new pods available'],
  ])('is progressing when %s, naming the stage', (_name, given, summary) => {
    expect(statusVerdict(given)).toEqual({ verdict: 'progressing', summary });
  });

  it('does not fail on a failure of an older generation: the release has not been judged for this one', () => {
    const failedBefore = hr({
      generation: 4, observedGeneration: 3, ready: false,
      conditions: [{ type: 'Ready', status: 'False', reason: 'UpgradeFailed', message: 'boom', observedGeneration: 3 }],
    });
    const crashing = [{ name: 'p', phase: 'Running', ready: false, restarts: 3, containers: [{ name: 'kagent', state: 'waiting' as const, reason: 'CrashLoopBackOff' }] }];
    expect(statusVerdict(facts({ helmRelease: failedBefore, pods: crashing }))).toEqual({
      verdict: 'progressing', summary: 'HelmRelease generation 4 not yet observed by helm-controller (observed 3)',
    });
  });

  it('fails for a failure of the current generation', () => {
    const failedNow = hr({ ready: false, conditions: [{ type: 'Ready', status: 'False', reason: 'UpgradeFailed', message: 'boom', observedGeneration: 3 }] });
    expect(statusVerdict(facts({ helmRelease: failedNow }))).toEqual({ verdict: 'failed', summary: 'HelmRelease is not ready (UpgradeFailed): boom' });
  });

  it('is not ready before the release reached the generation the caller waits for', () => {
    expect(statusVerdict(facts(), { generation: 4 })).toEqual({
      verdict: 'progressing', summary: 'HelmRelease generation 4 not yet written (the release is at generation 3)',
    });
    expect(statusVerdict(facts(), { generation: 3 }).verdict).toBe('ready');
  });

  it('skips the check for objects that report no generation, as kstatus does', () => {
    expect(
      statusVerdict(
        facts({
          helmRelease: hr({
            generation: undefined, observedGeneration: undefined, lastAttemptedGeneration: undefined, conditions: [],
          }),
          agent: agent({ observedGeneration: undefined }),
          deployment: deployment({ generation: undefined, observedGeneration: undefined }),
        }),
      ).verdict,
    ).toBe('ready');
  });
});
