import { describe, expect, it } from 'vitest';
import { conditionStatus } from './conditions.js';
import type { Condition } from '../types.js';
import { FAILED_CONTAINER_REASONS, firstLine, statusVerdict } from './verdict.js';
import type { StatusFacts } from './verdict.js';

// Fact builders: each returns the part of the facts one rule reads.
const cond = (type: string, status: string, reason?: string, message?: string): Condition => ({
  type, status, ...(reason ? { reason } : {}), ...(message ? { message } : {}),
});
const hr = (over: Partial<NonNullable<StatusFacts['helmRelease']>> = {}): NonNullable<StatusFacts['helmRelease']> => ({
  exists: true, ready: true, suspended: false, gitOpsOwned: false, deleting: false,
  conditions: [cond('Ready', 'True', 'InstallSucceeded', 'Helm install succeeded')], ...over,
});
const hrNotReady = (reason: string, message: string): NonNullable<StatusFacts['helmRelease']> =>
  hr({ ready: false, conditions: [cond('Ready', 'False', reason, message)] });
const agent = (ready: boolean | null, accepted: boolean | null, conditions: Condition[] = []): NonNullable<StatusFacts['agent']> => ({
  exists: true, ready, accepted, conditions,
});
const noAgent = { exists: false, ready: null, accepted: null };
const deployment = (replicas: number, available: number): NonNullable<StatusFacts['deployment']> => ({
  exists: true, replicas, readyReplicas: available, availableReplicas: available,
});
const crashing = [{
  name: 'sre-7d9-abcde', phase: 'Running', ready: false, restarts: 4,
  containers: [{ name: 'agent', state: 'waiting' as const, reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container\nsecond line' }],
}];
const backOffEvent = { type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container\nmore', object: 'Pod/sre-7d9-abcde' };

describe('statusVerdict', () => {
  it('is not ready when the release holds Ready twice, True and False, in either order', () => {
    const twice = [cond('Ready', 'True', 'UpgradeSucceeded'), cond('Ready', 'False', 'UpgradeFailed', 'boom')];
    for (const conditions of [twice, [...twice].reverse()]) {
      const release = hr({ ready: conditionStatus(conditions, 'Ready'), conditions });
      const given = { helmRelease: release, agent: agent(true, true), deployment: deployment(1, 1) };
      expect(statusVerdict(given)).toEqual({
        verdict: 'progressing',
        summary: 'HelmRelease not judged clearly by helm-controller: status.conditions holds Ready more than once, '
          + `with the statuses ${conditions.map((c) => c.status).join(', ')}`,
      });
    }
  });

  // One row per rule of the verdict, in order; each row's facts also satisfy later rules
  // where that is possible, so the row shows that the earlier rule wins.
  it.each<[string, StatusFacts, string, string]>([
    ['1. release deleting', { agent: agent(true, true), helmRelease: hr({ deleting: true, ready: false }), pods: crashing },
      'progressing', 'HelmRelease is being uninstalled by helm-controller; the Agent disappears with it'],
    ['2. release Ready is False', { agent: agent(true, false), helmRelease: hrNotReady('InstallFailed', 'Helm install failed: timed out'), pods: crashing },
      'failed', 'HelmRelease is not ready (InstallFailed): Helm install failed: timed out'],
    ['2b. release Reconciling is True for its generation, Ready still True', { agent: agent(true, true), helmRelease: hr({ generation: 3, observedGeneration: 3,
      conditions: [cond('Ready', 'True', 'UpgradeSucceeded', 'ok'), { ...cond('Reconciling', 'True', 'Progressing', 'Running upgrade'), observedGeneration: 3 }] }), deployment: deployment(1, 1) },
    'progressing', 'HelmRelease is reconciling (Progressing): Running upgrade'],
    ['2b. release Stalled is True for its generation, Ready still True', { agent: agent(true, true), helmRelease: hr({ generation: 3, observedGeneration: 3,
      conditions: [cond('Ready', 'True', 'UpgradeSucceeded', 'ok'), { ...cond('Stalled', 'True', 'RetriesExceeded', 'Failed to upgrade after 3 attempts\ndetail'), observedGeneration: 3 }] }), deployment: deployment(1, 1) },
    'failed', 'HelmRelease is stalled (RetriesExceeded): Failed to upgrade after 3 attempts'],
    ['3. a container that will not recover', { agent: agent(true, false), helmRelease: hr(), pods: crashing, deployment: deployment(1, 1) },
      'failed', 'pod sre-7d9-abcde container agent is CrashLoopBackOff: back-off 40s restarting failed container'],
    ['4. Agent Accepted is False', { agent: agent(true, false, [cond('Accepted', 'False', 'ReconcileFailed', 'model config "x" not found')]), helmRelease: hr() },
      'failed', 'kagent rejected the Agent configuration: ReconcileFailed: model config "x" not found'],
    ['5. Agent Ready and pods available', { agent: agent(true, true), helmRelease: hr(), deployment: deployment(2, 1), events: [backOffEvent] },
      'ready', 'Agent is Ready; 1/2 pods available'],
    ['6. a telling warning event', { agent: agent(false, true), helmRelease: hr({ ready: null }), events: [backOffEvent] },
      'progressing', 'not ready yet; last warning on Pod/sre-7d9-abcde: BackOff: Back-off restarting failed container'],
    ['7. release Ready unknown', { agent: noAgent, helmRelease: hr({ ready: null, conditions: [] }) },
      'progressing', 'HelmRelease created; Flux has not reconciled it yet'],
    ['8. release ready, Agent absent', { agent: noAgent, helmRelease: hr(), deployment: { exists: false, replicas: 0, readyReplicas: 0, availableReplicas: 0 } },
      'progressing', 'HelmRelease is ready but the Agent has not been rendered yet'],
    ['9. Agent Ready unknown', { agent: agent(null, true), helmRelease: hr(), deployment: deployment(1, 0) },
      'progressing', 'Agent accepted; kagent has not reported readiness yet'],
    ['10. Deployment with no pod available', { agent: agent(true, true), helmRelease: hr(), deployment: deployment(3, 0) },
      'progressing', 'Deployment has 0/3 pods available'],
    ['11. Agent not ready otherwise', { agent: agent(false, true, [cond('Ready', 'False', 'DeploymentNotReady', 'waiting for pods')]), helmRelease: hr() },
      'progressing', 'Agent is not ready: DeploymentNotReady: waiting for pods'],
    ['12. nothing reported', { agent: noAgent, helmRelease: { exists: false, ready: null, suspended: false, gitOpsOwned: false, deleting: false } },
      'unknown', 'no Agent and no HelmRelease reported anything yet'],
  ])('rule %s', (_name, facts, verdict, summary) => {
    expect(statusVerdict(facts)).toEqual({ verdict, summary });
  });

  it.each<[string, StatusFacts, string, string]>([
    ['deleting wins even without the release existing', { helmRelease: { exists: false, ready: null, suspended: false, gitOpsOwned: false, deleting: true } },
      'progressing', 'HelmRelease is being uninstalled by helm-controller; the Agent disappears with it'],
    ['a Stalled condition of an older generation is not the current word', { agent: agent(true, true), helmRelease: hr({ generation: 4, observedGeneration: 4,
      conditions: [cond('Ready', 'True', 'UpgradeSucceeded', 'ok'), { ...cond('Stalled', 'True', 'RetriesExceeded', 'old'), observedGeneration: 3 }] }) },
    'ready', 'Agent is Ready; 0/0 pods available'],
    ['a False Ready without reason or message says so', { helmRelease: hr({ ready: false, conditions: [] }) },
      'failed', 'HelmRelease is not ready (no reason reported): no message reported'],
    ['a failing init container', { agent: agent(null, true), pods: [{ name: 'p', phase: 'Pending', ready: false, restarts: 2, containers: [{ name: 'skills', state: 'terminated', reason: 'Error', message: 'git clone failed', init: true }] }] },
      'failed', 'pod p container skills is Error: git clone failed'],
    ['a failing container without a message ends at its reason', { pods: [{ name: 'p', phase: 'Pending', ready: false, restarts: 0, containers: [{ name: 'agent', state: 'waiting', reason: 'ImagePullBackOff' }] }] },
      'failed', 'pod p container agent is ImagePullBackOff'],
    ['the first failing container in pod order decides', { pods: [
      { name: 'a', phase: 'Running', ready: false, restarts: 0, containers: [{ name: 'x', state: 'running', reason: 'NotReady' }] },
      { name: 'b', phase: 'Running', ready: false, restarts: 1, containers: [{ name: 'y', state: 'terminated', reason: 'OOMKilled' }] },
      { name: 'c', phase: 'Running', ready: false, restarts: 1, containers: [{ name: 'z', state: 'waiting', reason: 'CrashLoopBackOff' }] },
    ] }, 'failed', 'pod b container y is OOMKilled'],
    ['harmless container reasons do not fail', { agent: agent(null, true), pods: [{ name: 'p', phase: 'Pending', ready: false, restarts: 0, containers: [{ name: 'agent', state: 'waiting', reason: 'ContainerCreating' }] }] },
      'progressing', 'Agent accepted; kagent has not reported readiness yet'],
    ['a rejected Agent without a condition', { agent: agent(null, false) },
      'failed', 'kagent rejected the Agent configuration: no condition reported'],
    ['a rejected Agent with a reason only', { agent: agent(null, false, [cond('Accepted', 'False', 'InvalidSpec')]) },
      'failed', 'kagent rejected the Agent configuration: InvalidSpec'],
    ['Accepted False outranks Ready True', { agent: agent(true, false, [cond('Accepted', 'False', 'InvalidSpec', 'bad')]) },
      'failed', 'kagent rejected the Agent configuration: InvalidSpec: bad'],
    ['Ready without a Deployment reports 0/0', { agent: agent(true, true), deployment: { exists: false, replicas: 0, readyReplicas: 0, availableReplicas: 0 } },
      'ready', 'Agent is Ready; 0/0 pods available'],
    ['Ready with a Deployment scaled to zero', { agent: agent(true, true), deployment: deployment(0, 0) },
      'ready', 'Agent is Ready; 0/0 pods available'],
    ['Ready but no pod available falls through to the Deployment rule', { agent: agent(true, true), deployment: deployment(1, 0) },
      'progressing', 'Deployment has 0/1 pods available'],
    ['a Failed* event reason counts', { agent: agent(false, true), events: [
      { type: 'Warning', reason: 'Unhealthy', message: 'probe failed', object: 'Pod/p' },
      { type: 'Warning', reason: 'FailedMount', message: 'secret "s" not found', object: 'Pod/p' },
    ] }, 'progressing', 'not ready yet; last warning on Pod/p: FailedMount: secret "s" not found'],
    ['an event reason is matched case-sensitively', { agent: agent(null, true), events: [{ type: 'Warning', reason: 'failedSomething', message: 'x', object: 'Pod/p' }] },
      'progressing', 'Agent accepted; kagent has not reported readiness yet'],
    ['a telling event without a message ends at its reason', { events: [{ type: 'Warning', reason: 'BackOff', message: '', object: 'Pod/p' }] },
      'progressing', 'not ready yet; last warning on Pod/p: BackOff'],
    ['a ready release with no Agent facts at all counts the Agent as absent', { helmRelease: hr() },
      'progressing', 'HelmRelease is ready but the Agent has not been rendered yet'],
    ['an Agent not ready without a Ready condition', { agent: agent(false, true) },
      'progressing', 'Agent is not ready: no condition reported'],
    ['no facts at all', {}, 'unknown', 'no Agent and no HelmRelease reported anything yet'],
  ])('edge: %s', (_name, facts, verdict, summary) => {
    expect(statusVerdict(facts)).toEqual({ verdict, summary });
  });

  it('knows the nineteen unrecoverable container reasons', () => {
    expect(FAILED_CONTAINER_REASONS.size).toBe(19);
    expect(FAILED_CONTAINER_REASONS.has('CrashLoopBackOff')).toBe(true);
    expect(FAILED_CONTAINER_REASONS.has('InvalidEnvironmentVariableNames')).toBe(true);
    expect(FAILED_CONTAINER_REASONS.has('NotReady')).toBe(false);
  });
});

describe('a warning from before the release last succeeded', () => {
  // The scenario: an upgrade failed (runtime: rust written straight to the release), the release was rolled
  // back and updated again; at generation 8, observed 8 and Ready since 10:05, kagent has not finished the Agent.
  const upgradeFailed = {
    type: 'Warning', reason: 'UpgradeFailed', message: 'Helm upgrade failed: values don\'t meet the schema',
    object: 'HelmRelease/sre', lastTimestamp: '2024-05-01T10:00:00Z',
  };
  const recovered = hr({ generation: 8, observedGeneration: 8, lastAttemptedGeneration: 8,
    conditions: [{ ...cond('Ready', 'True', 'UpgradeSucceeded', 'ok'), observedGeneration: 8, lastTransitionTime: '2024-05-01T10:05:00Z' }],
    history: [{ version: 9, status: 'deployed', lastDeployed: '2024-05-01T10:05:00.123456789Z' }] });
  const agentSyncing = { ...agent(null, true), generation: 4, observedGeneration: 4 };

  it('is history: the verdict names the stage that is behind now', () => {
    expect(statusVerdict({ helmRelease: recovered, agent: agentSyncing, events: [upgradeFailed] })).toEqual({
      verdict: 'progressing', summary: 'Agent accepted; kagent has not reported readiness yet',
    });
    const scaled = {
      helmRelease: recovered, agent: agent(true, true), deployment: deployment(2, 0), events: [upgradeFailed],
    };
    expect(statusVerdict(scaled)).toEqual({ verdict: 'progressing', summary: 'Deployment has 0/2 pods available' });
  });

  it('still speaks when it came after that success, or in the same second', () => {
    for (const lastTimestamp of ['2024-05-01T10:07:00Z', '2024-05-01T10:05:00Z']) {
      const backOff = { ...backOffEvent, lastTimestamp };
      expect(statusVerdict({ helmRelease: recovered, agent: agentSyncing, events: [backOff, upgradeFailed] }).summary)
        .toBe('not ready yet; last warning on Pod/sre-7d9-abcde: BackOff: Back-off restarting failed container');
    }
  });

  it('counts as long as the release has no success of its current generation to show', () => {
    const unjudged = hr({ ready: null, conditions: [] });
    expect(statusVerdict({ helmRelease: unjudged, agent: agentSyncing, events: [upgradeFailed] }).summary)
      .toBe('not ready yet; last warning on HelmRelease/sre: UpgradeFailed: Helm upgrade failed: values don\'t meet the schema');
  });
});

describe('firstLine', () => {
  it.each<[string, string | undefined, string]>([
    ['one line', 'abc', 'abc'],
    ['several lines', 'a\nb\nc', 'a'],
    ['a leading newline', '\nb', ''],
    ['a carriage return is not a line break', 'a\rb', 'a\rb'],
    ['nothing', undefined, ''],
  ])('cuts %s', (_name, input, want) => {
    expect(firstLine(input)).toBe(want);
  });
});
