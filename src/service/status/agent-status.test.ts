import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { seedAgentCr, seedRelease, seedVerifier, seedWarning, seedWorkload } from '../../../test/support/service/seed-agents.js';

let f: FakeServiceFixture;

beforeAll(async () => {
  f = startFakeServiceFixture();
  seedVerifier(f.kube);
  seedWorkload(f.kube, { name: 'verifier', pods: [{ name: 'verifier-6d4f-abcde', ready: true, restarts: 7 }] });

  seedRelease(f.kube, { name: 'crashy', ready: true });
  seedAgentCr(f.kube, { name: 'crashy', release: { name: 'crashy', namespace: 'kagent' }, ready: false, accepted: true });
  seedWorkload(f.kube, {
    name: 'crashy', available: 0,
    pods: [{ name: 'crashy-7c9-xyz', ready: false, restarts: 3, waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container\nsecond line' } }],
  });
  seedWarning(f.kube, 'kagent', { kind: 'Pod', name: 'crashy-7c9-xyz' }, 'BackOff', 'Back-off restarting failed container');

  seedRelease(f.kube, { name: 'broken', ready: false, readyReason: 'InstallFailed', readyMessage: 'values don\'t meet the specifications of the schema(s)' });
  seedRelease(f.kube, { name: 'fresh' });
});

describe('getAgentStatus', () => {
  it('is ready when the Agent is Ready and its Deployment has pods available', async () => {
    const status = await f.service.getAgentStatus(f.ctx(), { name: 'verifier' });
    expect(status).toMatchObject({
      name: 'verifier', namespace: 'kagent', verdict: 'ready', summary: 'Agent is Ready; 1/1 pods available',
      agent: { exists: true, ready: true, accepted: true },
      helmRelease: { exists: true, ready: true, suspended: false, gitOpsOwned: false, deleting: false, history: [{ version: 1, chartVersion: '0.5.2+abc', status: 'deployed' }] },
      deployment: { exists: true, replicas: 1, availableReplicas: 1 },
      pods: [{ name: 'verifier-6d4f-abcde', phase: 'Running', ready: true, restarts: 7 }],
    });
  });

  it('is failed for a pod in CrashLoopBackOff, naming pod and container and the first line of the message', async () => {
    const status = await f.service.getAgentStatus(f.ctx(), { name: 'crashy' });
    expect(status.verdict).toBe('failed');
    expect(status.summary).toBe('pod crashy-7c9-xyz container kagent is CrashLoopBackOff: back-off 40s restarting failed container');
    expect(status.events).toEqual([expect.objectContaining({ type: 'Warning', reason: 'BackOff', object: 'Pod/crashy-7c9-xyz' })]);
    expect(status.pods?.[0]?.containers).toEqual([
      { name: 'kagent', state: 'waiting', reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container\nsecond line' },
    ]);
  });

  it('is failed for a release whose install failed, before any Agent exists', async () => {
    const status = await f.service.getAgentStatus(f.ctx(), { name: 'broken' });
    expect(status).toMatchObject({
      verdict: 'failed',
      summary: 'HelmRelease is not ready (InstallFailed): values don\'t meet the specifications of the schema(s)',
      agent: { exists: false }, deployment: { exists: false },
    });
  });

  it('is progressing for a fresh release without status', async () => {
    const status = await f.service.getAgentStatus(f.ctx(), { name: 'fresh' });
    expect(status).toMatchObject({ verdict: 'progressing', summary: 'HelmRelease created; Flux has not reconciled it yet' });
  });

  it('answers 404 for an agent that does not exist and 400 for a bad name', async () => {
    await expect(f.service.getAgentStatus(f.ctx(), { name: 'nothing' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(f.service.getAgentStatus(f.ctx(), { name: '-bad' })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
