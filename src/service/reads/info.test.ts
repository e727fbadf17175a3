/**
 * get_info (and the answer it keeps while unchanged), list_model_configs and list_skills without skill
 * repositories: the service's own answers, on the in-memory KubePort (nothing here is about the wire).
 */
import { describe, expect, it } from 'vitest';
import type { ChartInfo } from '../../core/types.js';
import type { ReadCacheStatus } from '../../kube/cache/read-cache.js';
import type { OperationEnv } from '../operation-env.js';
import { startFakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { InfoAnswer } from './info.js';

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
      chart: { ociUrl: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', semver: '0.x', schemaVersion: '0.5.2', schemaSource: 'embedded' },
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

describe('InfoAnswer', () => {
  const ctx = f.ctx();
  const source = { metadata: { name: 'agent', namespace: 'kagent' }, spec: { ref: { semver: '0.x' } },
    status: { artifact: { revision: '0.6.1@sha256:abc' } } };
  const chart: ChartInfo = { ociUrl: 'oci://r.example/charts/agent', semver: '>=0.5.0', schemaVersion: '0.5.2', schemaSource: 'embedded' };

  function answerOver(state: { chart: ChartInfo; cache?: ReadCacheStatus }): InfoAnswer {
    const env = {
      settings: {
        version: 'v1', namespaces: { defaultNamespace: 'kagent', managed: ['kagent'] }, apiVersions: {}, toolsetPresets: {},
      },
      types: { ociRepository: { group: 'source.toolkit.fluxcd.io', version: 'v1', resource: 'ocirepositories' } },
      reads: () => ({ get: () => Promise.resolve(source) }),
      deps: {
        chart: {
          info: () => Promise.resolve({ ...state.chart }),
          schema: () => Promise.resolve({ version: '0.5.2', source: 'embedded', schema: {} }),
        },
        kube: { identity: 'serviceAccount' },
        ...(state.cache ? { readCache: { status: () => structuredClone(state.cache) } } : {}),
      },
      compose: { helmReleaseInterval: '10m', ociRepositoryInterval: '30m', chartOciUrl: 'oci://r.example/charts/agent',
        chartSemver: '0.x' },
    };
    return new InfoAnswer(env as unknown as OperationEnv);
  }

  it('answers the same frozen object while the chart and the read cache report the same state', async () => {
    const answer = answerOver({ chart, cache: { enabled: true, state: 'ready', feeds: { syncing: 0, synced: 4, stale: 0, overflow: 0 }, objects: 8, relists: 0 } });
    const first = await answer.get(ctx);
    expect(Object.isFrozen(first) && Object.isFrozen(first.chart) && Object.isFrozen(first.readCache)).toBe(true);
    expect(await answer.get(ctx)).toBe(first);
  });

  it('answers anew once the chart source or the read cache reports something else', async () => {
    const state = { chart, cache: { enabled: true as const, state: 'syncing' as const, feeds: { syncing: 1, synced: 3, stale: 0, overflow: 0 }, objects: 5, relists: 0 } };
    const answer = answerOver(state);
    const first = await answer.get(ctx);
    state.chart = { ...chart, schemaVersion: '0.6.0', schemaSource: 'registry' };
    const second = await answer.get(ctx);
    expect(second).not.toBe(first);
    expect(second.chart).toMatchObject({ schemaVersion: '0.6.0', schemaSource: 'registry' });
    state.cache = { ...state.cache, feeds: { syncing: 0, synced: 4, stale: 0, overflow: 0 }, state: 'ready' as never };
    const third = await answer.get(ctx);
    expect(third).not.toBe(second);
    expect(third.readCache).toMatchObject({ state: 'ready', feeds: { synced: 4 } });
    expect(first.chart.schemaVersion).toBe('0.5.2');
  });

  it('reports the chart line of each managed namespace from its source', async () => {
    expect((await answerOver({ chart }).get(ctx)).chartLines).toEqual([
      { namespace: 'kagent', line: '0.x', chartVersion: '0.6.1', schemaSource: 'embedded', capabilities: ['runtime'] },
    ]);
  });

  it('reports the read cache as off without one', async () => {
    expect((await answerOver({ chart }).get(ctx)).readCache).toEqual({ enabled: false, state: 'off' });
  });
});
