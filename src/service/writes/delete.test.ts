import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { seedAgentCr, seedRelease, seedVerifier } from '../../../test/support/service/seed-agents.js';

let f: FakeServiceFixture;
const exists = (resource: string, name: string, ns = 'kagent') => f.kube.store.find(resource, ns, name) !== undefined;

beforeAll(async () => {
  f = startFakeServiceFixture();
  seedVerifier(f.kube);
  seedAgentCr(f.kube, { name: 'bare' });
  seedRelease(f.kube, { name: 'paused', suspend: true, ready: true });
  seedAgentCr(f.kube, { name: 'paused', release: { name: 'paused', namespace: 'kagent' }, ready: true });
  seedRelease(f.kube, { name: 'gitops', labels: { 'kustomize.toolkit.fluxcd.io/name': 'fleet' } });
  seedRelease(f.kube, { name: 'labelled', labels: { 'kustomize.toolkit.fluxcd.io/name': '' } });
  await f.service.createAgent(f.ctx(), { name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:none'] });
});

describe('deleteAgent', () => {
  it('keeps the shared source while another release renders from it, and says which', async () => {
    const result = await f.service.deleteAgent(f.ctx(), { name: 'sre' });
    expect(result).toMatchObject({ name: 'sre', namespace: 'kagent', helmReleaseDeleted: true, agentDeleted: false, ociRepositoryDeleted: false });
    expect(result.ociRepositoryKept).toBe('still referenced by 4 other HelmRelease(s): gitops, labelled, paused, verifier');
    expect(exists('helmreleases', 'sre')).toBe(false);
    expect(exists('ocirepositories', 'agent')).toBe(true);
  });

  it('refuses a GitOps-owned release without force', async () => {
    await expect(f.service.deleteAgent(f.ctx(), { name: 'gitops' })).rejects.toMatchObject({ code: 'conflict' });
    expect(exists('helmreleases', 'gitops')).toBe(true);
  });

  it('counts the Kustomization label as GitOps ownership by its presence, even with an empty value', async () => {
    await expect(f.service.deleteAgent(f.ctx(), { name: 'labelled' })).rejects.toMatchObject({
      code: 'conflict', message: expect.stringContaining('is applied by Flux Kustomization ""'),
    });
    await expect(f.service.updateAgent(f.ctx(), { name: 'labelled', description: 'x', dryRun: true })).rejects.toMatchObject({ code: 'conflict' });
    expect((await f.service.getAgent(f.ctx(), { name: 'labelled' })).helmRelease).toMatchObject({ gitOpsOwned: true });
    expect(exists('helmreleases', 'labelled')).toBe(true);
    await f.service.deleteAgent(f.ctx(), { name: 'labelled', force: true });
    expect(exists('helmreleases', 'labelled')).toBe(false);
  });

  it('refuses a suspended release without force, and with force deletes the release and the Agent', async () => {
    await expect(f.service.deleteAgent(f.ctx(), { name: 'paused' })).rejects.toMatchObject({
      code: 'conflict', message: expect.stringContaining('is suspended'),
    });
    const forced = await f.service.deleteAgent(f.ctx(), { name: 'paused', force: true });
    expect(forced).toMatchObject({ helmReleaseDeleted: true, agentDeleted: true });
    expect(exists('agents', 'paused')).toBe(false);
  });

  it('refuses a bare Agent CR without force and removes it with force', async () => {
    await expect(f.service.deleteAgent(f.ctx(), { name: 'bare' })).rejects.toMatchObject({
      code: 'conflict', message: expect.stringContaining('is a bare CR with no HelmRelease behind it'),
    });
    const forced = await f.service.deleteAgent(f.ctx(), { name: 'bare', force: true });
    expect(forced).toEqual({ name: 'bare', namespace: 'kagent', helmReleaseDeleted: false, agentDeleted: true, ociRepositoryDeleted: false, mode: 'apply' });
  });

  it('answers 404 for nothing and 400 for a bad name', async () => {
    await expect(f.service.deleteAgent(f.ctx(), { name: 'nothing' }))
      .rejects.toMatchObject({ code: 'not_found', message: 'not found: agent kagent/nothing (list_agents lists the agents there are)' });
    await expect(f.service.deleteAgent(f.ctx(), { name: 'Bad' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('takes the source with the last release, and a second delete meets the Agent left behind as a bare CR', async () => {
    await f.service.deleteAgent(f.ctx(), { name: 'gitops', force: true });
    const last = await f.service.deleteAgent(f.ctx(), { name: 'verifier' });
    expect(last).toMatchObject({ helmReleaseDeleted: true, ociRepositoryDeleted: true });
    expect(last).not.toHaveProperty('ociRepositoryKept');
    expect(exists('ocirepositories', 'agent')).toBe(false);
    // No helm-controller runs in this fixture, so the rendered Agent CR stays behind.
    await expect(f.service.deleteAgent(f.ctx(), { name: 'verifier' })).rejects.toMatchObject({ code: 'conflict' });
  });
});
