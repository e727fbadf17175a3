import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { seedAgentCr, seedRelease, seedVerifier } from '../../../test/support/service/seed-agents.js';

let f: FakeServiceFixture;

beforeAll(async () => {
  f = startFakeServiceFixture();
  seedVerifier(f.kube);
  seedRelease(f.kube, {
    name: 'pending', labels: { 'kustomize.toolkit.fluxcd.io/name': 'agents', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' },
    values: { agent: { name: 'pending', displayName: 'Pending' }, modelConfig: { name: 'qwen3-8-27b' }, toolset: ['preset:read-only'] },
  });
  seedAgentCr(f.kube, { name: 'bare', ready: true, accepted: true, toolsetHeader: 'preset:none,tool:x' });
  seedRelease(f.kube, { name: 'not-an-agent', chartRef: { kind: 'OCIRepository', name: 'podinfo', namespace: 'kagent' } });
});

describe('listAgents', () => {
  it('merges Agent CRs with their releases and adds releases not rendered yet, sorted by name', async () => {
    const { agents } = await f.service.listAgents(f.ctx());
    expect(agents.map((a) => a.name)).toEqual(['bare', 'pending', 'verifier']);
    const [bare, pending, verifier] = agents;
    // The release's values are the desired state at the top; what kagent rendered is under rendered.
    expect(verifier).toMatchObject({
      exists: true, displayName: 'Verifier', modelConfig: 'default-model-config', ready: true, accepted: true,
      managed: 'helmrelease', toolNames: ['x_a_b'], implicitFullAccess: true,
      helmRelease: { name: 'verifier', namespace: 'kagent', ready: true, chartVersion: '0.5.2+abc', gitOpsOwned: false, suspended: false },
      rendered: { displayName: 'Display verifier', skills: { gitRefs: [{ url: 'https://github.com/o/r', path: 'a', name: 'a' }] } },
    });
    expect(verifier).not.toHaveProperty('skills');
    expect(pending).toMatchObject({
      exists: false, managed: 'gitops', ready: null, accepted: null, displayName: 'Pending', modelConfig: 'qwen3-8-27b',
      toolset: ['preset:read-only'], helmRelease: { gitOpsOwned: true, ready: null },
    });
    expect(pending).not.toHaveProperty('implicitFullAccess');
    expect(bare).toMatchObject({ exists: true, managed: 'none', toolset: ['preset:none', 'tool:x'] });
    expect(bare).not.toHaveProperty('helmRelease');
  });

  it('always reports ready and accepted, as null when unknown', async () => {
    const { agents } = await f.service.listAgents(f.ctx());
    for (const agent of agents) {
      expect(agent).toHaveProperty('ready');
      expect(agent).toHaveProperty('accepted');
    }
  });

  it('answers one summary row per agent with details: false, and every agent in full without it', async () => {
    const { agents: rows } = await f.service.listAgents(f.ctx(), { details: false });
    expect(rows).toEqual([
      { name: 'bare', namespace: 'kagent', exists: true, modelConfig: 'default-model-config', toolset: ['preset:none', 'tool:x'], ready: true,
        managed: 'none' },
      { name: 'pending', namespace: 'kagent', exists: false, displayName: 'Pending', modelConfig: 'qwen3-8-27b',
        toolset: ['preset:read-only'], ready: null, managed: 'gitops' },
      expect.objectContaining({ name: 'verifier', exists: true, modelConfig: 'default-model-config', ready: true, implicitFullAccess: true }),
    ]);
    for (const row of rows) {
      for (const field of ['values', 'systemMessage', 'conditions', 'helmRelease', 'accepted']) expect(row).not.toHaveProperty(field);
    }
    const { agents } = await f.service.listAgents(f.ctx(), { details: true });
    expect(agents.map((a) => a.name)).toEqual(rows.map((r) => r.name));
    expect(agents[2]).toHaveProperty('values');
  });

  it('leaves out releases of other charts', async () => {
    const { agents } = await f.service.listAgents(f.ctx());
    expect(agents.find((a) => a.name === 'not-an-agent')).toBeUndefined();
  });

  it('answers an empty list for a managed namespace without agents', async () => {
    expect(await f.service.listAgents(f.ctx(), { namespace: 'tenant' })).toEqual({ agents: [] });
  });

  it('refuses an unmanaged namespace and names the managed ones', async () => {
    await expect(f.service.listAgents(f.ctx(), { namespace: 'default' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: 'invalid request: namespace "default" is not managed by agent-manager (managed: kagent, tenant)',
    });
  });

  it('follows provenance labels to a release in another namespace', async () => {
    seedRelease(f.kube, { name: 'sre-agent', namespace: 'tenant', ready: true, labels: { 'kustomize.toolkit.fluxcd.io/name': 'fleet' } });
    seedAgentCr(f.kube, { name: 'sre', release: { name: 'sre-agent', namespace: 'tenant' }, ready: true });
    const { agents } = await f.service.listAgents(f.ctx());
    expect(agents.find((a) => a.name === 'sre')).toMatchObject({
      managed: 'gitops', helmRelease: { name: 'sre-agent', namespace: 'tenant', gitOpsOwned: true },
    });
  });
});

describe('getAgent', () => {
  it('reads back a hand-applied release\'s empty toolset as declared and says it is invalid, never as implicit full access', async () => {
    seedRelease(f.kube, {
      name: 'empty-toolset', ready: false, readyReason: 'InstallFailed', readyMessage: 'toolset is empty',
      values: { agent: { name: 'empty-toolset' }, modelConfig: { name: 'default-model-config' }, toolset: [] },
    });
    const agent = await f.service.getAgent(f.ctx(), { name: 'empty-toolset' });
    expect(agent).toMatchObject({ toolset: [], toolsetProblem: expect.stringMatching(/^toolset is empty; use \["preset:none"\]/) });
    expect(agent).not.toHaveProperty('implicitFullAccess');
  });

  it('reads an agent from its Agent CR and its release', async () => {
    const agent = await f.service.getAgent(f.ctx(), { name: 'verifier' });
    expect(agent).toMatchObject({ name: 'verifier', exists: true, managed: 'helmrelease', values: { agent: { displayName: 'Verifier' } } });
  });

  it('reads a release that has no Agent yet from its values', async () => {
    expect(await f.service.getAgent(f.ctx(), { name: 'pending' })).toMatchObject({ exists: false, managed: 'gitops', displayName: 'Pending' });
  });

  it('answers 404 when neither an Agent nor a release exists', async () => {
    await expect(f.service.getAgent(f.ctx(), { name: 'nothing' })).rejects.toMatchObject({
      code: 'not_found', message: 'not found: agent kagent/nothing: no Agent and no HelmRelease of that name (list_agents lists the agents there are)',
    });
  });

  it.each([
    ['empty', ''],
    ['"."', '.'],
    ['".."', '..'],
    ['with a slash', 'a/b'],
    ['20,000 characters long', 'a'.repeat(20_000)],
    ['254 characters long', 'a'.repeat(254)],
  ])('finds nothing for a name no Kubernetes object can have (%s), without asking the API server', async (_case, name) => {
    f.kube.counters.reset();
    const err = await f.service.getAgent(f.ctx(), { name }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'not_found' });
    expect((err as Error).message).toMatch(/^not found: agent kagent\/.*: no Agent and no HelmRelease of that name \(list_agents lists the agents there are\)$/s);
    expect(f.kube.counters.count()).toBe(0);
  });

  it('does not check the name on get: a bad name is simply not found', async () => {
    await expect(f.service.getAgent(f.ctx(), { name: 'Bad' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
