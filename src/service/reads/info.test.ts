/**
 * get_info, list_model_configs and list_skills without skill repositories: the service's
 * own answers, on the in-memory KubePort (nothing here is about the wire).
 */
import { describe, expect, it } from 'vitest';
import { startFakeServiceFixture } from '../testing/fake-fixture.js';

const f = startFakeServiceFixture();

describe('listModelConfigs', () => {
  it('lists the namespace ModelConfigs sorted, with provider, model and acceptance', async () => {
    const { modelConfigs } = await f.service.listModelConfigs(f.ctx());
    expect(modelConfigs).toEqual([
      { name: 'default-model-config', namespace: 'kagent', provider: 'Anthropic', model: 'claude-sonnet-4-6', accepted: true, message: 'Model configuration accepted' },
      { name: 'qwen3-8-27b', namespace: 'kagent', provider: 'OpenAI', model: 'qwen3-8-27b', accepted: true, message: 'Model configuration accepted' },
    ]);
  });

  it('refuses an unmanaged namespace', async () => {
    await expect(f.service.listModelConfigs(f.ctx(), { namespace: 'kube-system' })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

describe('getInfo', () => {
  it('describes the installation: version, namespaces, identity, capabilities, API versions, chart', async () => {
    const info = await f.service.getInfo(f.ctx());
    expect(info).toMatchObject({
      version: 'test',
      namespaces: { default: 'kagent', managed: ['kagent', 'tenant'] },
      identity: 'serviceAccount',
      capabilities: { list: true, create: true, skills: false, writesAsCaller: false, modelConfigs: true },
      apiVersions: { agent: 'kagent.dev/v1alpha2', modelConfig: 'kagent.dev/v1alpha2', helmRelease: 'helm.toolkit.fluxcd.io/v2', ociRepository: 'source.toolkit.fluxcd.io/v1' },
      chart: { ociUrl: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', semver: 'x.x.x', schemaVersion: '0.5.2', schemaSource: 'embedded' },
      flux: { helmReleaseInterval: '10m', ociRepositoryInterval: '30m' },
      skillsRepositories: [],
    });
  });
});

describe('listSkills', () => {
  it('is unsupported when no skill repositories are configured', async () => {
    await expect(f.service.listSkills(f.ctx())).rejects.toMatchObject({
      code: 'unsupported', message: 'unsupported: no skill repositories are configured',
    });
  });
});
