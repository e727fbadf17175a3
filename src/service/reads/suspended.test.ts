/**
 * A suspended agent (its HelmRelease's spec.suspend) as the reads tell it: Flux does not reconcile it, so a change
 * written to it is not applied until it is resumed. Its rows and agents say `suspended: true`; while it has such a
 * change they are not `ready` (kagent's Ready speaks of the spec before it), and its status is `failed` with the
 * summary that says to resume it (a wait on it: rollout-generation.int.test.ts). One whose generation was acted on
 * reads as any agent, plus `suspended`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { seedAgentCr, seedWorkload } from '../../../test/support/service/seed-agents.js';

let f: FakeServiceFixture;

/** A suspended release at generation 3 whose last Helm action was for `lastAttempted`, and its Ready Agent. */
function seedSuspended(name: string, lastAttempted: number): void {
  const at = '2024-05-01T10:00:00Z';
  const release = f.kube.store.create('helmreleases', {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: { name, namespace: 'kagent', generation: 3, labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: {
      interval: '10m', suspend: true, chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'kagent' },
      values: { agent: { name }, modelConfig: { name: 'default-model-config' } },
    },
  });
  f.kube.store.updateStatus('helmreleases', {
    ...release,
    status: {
      observedGeneration: 3, lastAttemptedGeneration: lastAttempted,
      conditions: [{ type: 'Ready', status: 'True', reason: 'UpgradeSucceeded', message: 'ok', lastTransitionTime: at,
        observedGeneration: lastAttempted }],
    },
  });
  seedAgentCr(f.kube, { name, release: { name, namespace: 'kagent' }, ready: true, accepted: true });
  seedWorkload(f.kube, { name, pods: [{ name: `${name}-6d4f-abcde`, ready: true, restarts: 0 }] });
}

beforeAll(() => {
  f = startFakeServiceFixture();
  seedSuspended('paused', 2);
  seedSuspended('parked', 3);
});

describe('a suspended agent with a change Flux has not applied', () => {
  it('is suspended and not ready in list rows, in full agents and in get_agent', async () => {
    const { agents: rows } = await f.service.listAgents(f.ctx(), { details: false });
    expect(rows.find((r) => r.name === 'paused')).toMatchObject({ suspended: true, ready: false });
    const { agents } = await f.service.listAgents(f.ctx(), { details: true });
    expect(agents.find((a) => a.name === 'paused')).toMatchObject({ suspended: true, ready: false, accepted: true });
    expect(await f.service.getAgent(f.ctx(), { name: 'paused' })).toMatchObject({
      suspended: true, ready: false, helmRelease: { suspended: true },
    });
  });

  it('has the status failed, saying Flux does not reconcile it and to resume it', async () => {
    const status = await f.service.getAgentStatus(f.ctx(), { name: 'paused' });
    expect(status).toMatchObject({ verdict: 'failed', suspended: true, generation: 3 });
    expect(status.summary).toBe(
      'suspended: Flux does not reconcile it; resume it to apply changes (generation 3 is not applied; last attempted 2)');
  });
});

describe('a suspended agent whose generation was acted on', () => {
  it('reads as any agent, with suspended beside kagent\'s readiness', async () => {
    const { agents: rows } = await f.service.listAgents(f.ctx(), { details: false });
    expect(rows.find((r) => r.name === 'parked')).toMatchObject({ suspended: true, ready: true });
    const status = await f.service.getAgentStatus(f.ctx(), { name: 'parked' });
    expect(status).toMatchObject({ verdict: 'ready', suspended: true, summary: 'Agent is Ready; 1/1 pods available' });
  });

  it('says nothing of suspension for a release that is not suspended', async () => {
    const { agents } = await f.service.listAgents(f.ctx(), { details: true });
    for (const agent of agents.filter((a) => !a.helmRelease?.suspended)) expect(agent).not.toHaveProperty('suspended');
  });
});
