import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { CHART_URL } from '../../../test/support/service/fixture-settings.js';
import { seedRelease } from '../../../test/support/service/seed-agents.js';

let f: FakeServiceFixture;
const find = (resource: string, name: string) => f.kube.store.find(resource, 'kagent', name);
const notAnAgent = (name: string) => ({
  code: 'not_found',
  message: expect.stringContaining(`agent kagent/${name}: HelmRelease kagent/${name} renders OCIRepository podinfo, not the agent chart`),
});

beforeAll(() => {
  f = startFakeServiceFixture();
  // Another team's release in a managed namespace, with its own chart source.
  f.kube.store.create('ocirepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository', metadata: { name: 'podinfo', namespace: 'kagent' },
    spec: { url: 'oci://ghcr.io/stefanprodan/charts/podinfo', interval: '10m', ref: { semver: '6.x' } },
  });
  seedRelease(f.kube, { name: 'podinfo', chartRef: { kind: 'OCIRepository', name: 'podinfo', namespace: 'kagent' }, values: { replicaCount: 2 }, ready: true });
  // An agent whose source has another name but the agent chart's URL.
  f.kube.store.create('ocirepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository', metadata: { name: 'agent-mirror', namespace: 'kagent' },
    spec: { url: CHART_URL, interval: '10m', ref: { semver: '0.x' } },
  });
  seedRelease(f.kube, { name: 'mirrored', chartRef: { kind: 'OCIRepository', name: 'agent-mirror', namespace: 'kagent' }, ready: true });
});

describe('a HelmRelease of another chart in a managed namespace', () => {
  it('is not listed', async () => {
    const { agents } = await f.service.listAgents(f.ctx(), {});
    expect(agents.map((a) => a.name)).not.toContain('podinfo');
    expect(agents.map((a) => a.name)).toContain('mirrored');
  });

  it('is a 404 naming its chart on get, status, revisions and waits', async () => {
    await expect(f.service.getAgent(f.ctx(), { name: 'podinfo' })).rejects.toMatchObject(notAnAgent('podinfo'));
    await expect(f.service.getAgentStatus(f.ctx(), { name: 'podinfo' })).rejects.toMatchObject(notAnAgent('podinfo'));
    await expect(f.service.listAgentRevisions(f.ctx(), { name: 'podinfo' })).rejects.toMatchObject(notAnAgent('podinfo'));
    await expect(f.service.waitForAgent(f.ctx(), { name: 'podinfo', timeoutSeconds: 1 })).rejects.toMatchObject(notAnAgent('podinfo'));
  });

  it('is never written: update, rollback and delete are 404s and the release and its source stay as they were', async () => {
    const before = structuredClone(find('helmreleases', 'podinfo'));
    await expect(f.service.updateAgent(f.ctx(), { name: 'podinfo', description: 'hijack', toolset: ['preset:full'] }))
      .rejects.toMatchObject(notAnAgent('podinfo'));
    await expect(f.service.rollbackAgent(f.ctx(), { name: 'podinfo', revision: 1 })).rejects.toMatchObject(notAnAgent('podinfo'));
    await expect(f.service.deleteAgent(f.ctx(), { name: 'podinfo', force: true })).rejects.toMatchObject(notAnAgent('podinfo'));
    expect(find('helmreleases', 'podinfo')).toEqual(before);
    expect(find('ocirepositories', 'podinfo')).toBeDefined();
    expect(f.kube.calls.filter((c) => c.verb !== 'get' && c.verb !== 'list')).toEqual([]);
  });
});

describe('a release of the agent chart from a source of another name', () => {
  it('is an agent: read by name, as listed', async () => {
    await expect(f.service.getAgent(f.ctx(), { name: 'mirrored' })).resolves.toMatchObject({ name: 'mirrored', managed: 'helmrelease' });
  });
});
