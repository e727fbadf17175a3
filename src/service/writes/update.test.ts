import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { seedAgentCr, seedRelease, seedVerifier } from '../../../test/support/service/seed-agents.js';

let f: FakeServiceFixture;
const releaseValues = (name: string, ns = 'kagent') =>
  (f.kube.store.get('helmreleases', ns, name) as { spec: { values: Record<string, unknown> } }).spec.values;
const updates = () => f.kube.counters.count({ verb: 'update' });

beforeAll(async () => {
  f = startFakeServiceFixture();
  seedVerifier(f.kube);
  seedRelease(f.kube, { name: 'gitops', ready: true, labels: { 'kustomize.toolkit.fluxcd.io/name': 'agents-kustomization' } });
  seedRelease(f.kube, { name: 'paused', ready: true, suspend: true });
  seedAgentCr(f.kube, { name: 'bare' });
  await f.service.createAgent(f.ctx(), {
    name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:read-only'],
    displayName: 'SRE', description: 'first', skills: { refs: ['registry.example.io/skills/a:1'] },
  });
});
beforeEach(() => f.kube.counters.reset());

describe('updateAgent', () => {
  it('merges into the values and reports the sorted changed paths', async () => {
    const result = await f.service.updateAgent(f.ctx(), {
      name: 'sre', description: 'second', displayName: 'SRE Assistant', modelConfig: 'qwen3-8-27b', toolset: ['preset:none'],
    });
    expect(result.changed).toEqual(['agent.description', 'agent.displayName', 'modelConfig.name', 'toolset']);
    expect(result.before).toMatchObject({ agent: { description: 'first' } });
    expect(result.after).toMatchObject({ agent: { description: 'second' }, toolset: ['preset:none'] });
    expect(releaseValues('sre')).toEqual(result.after);
    expect(result.agent).toMatchObject({ toolset: ['preset:none'], managed: 'helmrelease' });
  });

  it('clears a field given as an empty string and replaces skills whole', async () => {
    const result = await f.service.updateAgent(f.ctx(), {
      name: 'sre', description: '  ', skills: { gitRefs: [{ url: 'https://github.com/o/r.git' }] },
    });
    expect(result.changed).toEqual(['agent.description', 'skills.gitRefs', 'skills.refs']);
    expect(releaseValues('sre').agent).not.toHaveProperty('description');
    expect(releaseValues('sre').skills).toEqual({ gitRefs: [{ url: 'https://github.com/o/r.git', name: 'r' }] });
  });

  it('writes nothing when nothing changed', async () => {
    const result = await f.service.updateAgent(f.ctx(), { name: 'sre', displayName: 'SRE Assistant' });
    expect(result.changed).toEqual([]);
    expect(updates()).toBe(0);
  });

  it.each([
    ['an unknown modelConfig', { modelConfig: 'nope' }, 'invalid_request', 'modelConfig "nope" does not exist in namespace kagent; valid: default-model-config, qwen3-8-27b'],
    ['a cleared modelConfig', { modelConfig: '' }, 'invalid_request', 'modelConfig cannot be cleared'],
    ['a runtime outside go|python', { runtime: 'rust' }, 'invalid_request', '/agent/runtime'],
    ['an empty toolset', { toolset: [] }, 'invalid_request', 'toolset is empty'],
    ['toolNames', { toolNames: [] }, 'invalid_request', 'toolNames never narrowed anything'],
    ['a label key Kubernetes refuses', { labels: { 'a b': 'x' } }, 'invalid_request', 'labels key "a b" is not a valid Kubernetes label key'],
  ])('refuses %s and writes nothing', async (_name, change, code, text) => {
    const err = await f.service.updateAgent(f.ctx(), { name: 'sre', ...change }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code });
    expect((err as Error).message).toContain(text);
    expect(updates()).toBe(0);
  });

  it('says a refused value is the live release\'s, not the change\'s, and how to get past it', async () => {
    // Someone wrote a runtime the chart refuses straight into the release; the caller only fixes a description.
    seedRelease(f.kube, {
      name: 'hand-edited', ready: false,
      values: { agent: { name: 'hand-edited', runtime: 'rust' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] },
    });
    const err = await f.service.updateAgent(f.ctx(), { name: 'hand-edited', description: 'fix attempt' }).catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'invalid_request' });
    expect((err as Error).message).toMatch(/^invalid request: values do not satisfy the agent chart schema \S+ \(embedded\): \/agent\/runtime: "rust" is not one of "go", "python"\. /);
    expect((err as Error).message).toContain(
      'The live release already carries the value at /agent/runtime, which this change does not set: set runtime ' +
      '(runtime: "go", or "" for the chart default) in this update, or roll back to a revision without it (rollback_agent)',
    );
    expect(updates()).toBe(0);
    // Setting the field in the same update gets past it.
    const fixed = await f.service.updateAgent(f.ctx(), { name: 'hand-edited', description: 'fix attempt', runtime: '' });
    expect(fixed.changed).toEqual(['agent.description', 'agent.runtime']);
  });

  it('blames the change when it sends the refused value itself, even one the live release carries', async () => {
    seedRelease(f.kube, {
      name: 'resent', ready: false,
      values: { agent: { name: 'resent', runtime: 'rust' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] },
    });
    const err = await f.service.updateAgent(f.ctx(), { name: 'resent', runtime: 'rust', description: 'x' }).catch((e: Error) => e);
    expect((err as Error).message).toContain('/agent/runtime');
    expect((err as Error).message).not.toContain('live release');
  });

  it('answers 404 for an agent that does not exist, in the write guard\'s words', async () => {
    await expect(f.service.updateAgent(f.ctx(), { name: 'nothing', description: 'x' }))
      .rejects.toMatchObject({ code: 'not_found', message: 'not found: agent kagent/nothing (list_agents lists the agents there are)' });
  });

  it('refuses a GitOps-owned release unless forced, naming the Kustomization', async () => {
    const err = (await f.service.updateAgent(f.ctx(), { name: 'gitops', description: 'x' }).catch((e: Error) => e)) as Error;
    expect(err).toMatchObject({ code: 'conflict' });
    expect(err.message).toBe('conflict: HelmRelease kagent/gitops is applied by Flux Kustomization "agents-kustomization": its desired state lives in git, a live write would be undone. Change it in the GitOps repository, or pass force to write anyway');
    const forced = await f.service.updateAgent(f.ctx(), { name: 'gitops', description: 'x', force: true });
    expect(forced.changed).toEqual(['agent.description']);
  });

  it('refuses a suspended release unless forced', async () => {
    await expect(f.service.updateAgent(f.ctx(), { name: 'paused', description: 'x' })).rejects.toMatchObject({
      code: 'conflict', message: 'conflict: HelmRelease kagent/paused is suspended: Flux will not act on a change. Resume it first, or pass force',
    });
    await expect(f.service.updateAgent(f.ctx(), { name: 'paused', description: 'x', force: true })).resolves.toBeDefined();
  });

  it('refuses a bare Agent CR', async () => {
    await expect(f.service.updateAgent(f.ctx(), { name: 'bare', description: 'x' })).rejects.toMatchObject({
      code: 'conflict',
      message: 'conflict: Agent kagent/bare is a bare CR with no HelmRelease behind it; agent-manager only writes HelmRelease values (recreate it with create_agent, or delete it with force)',
    });
  });

  it('loses no update when twenty updates of different fields race on one agent', async () => {
    const changes = [
      { displayName: 'Concurrent' }, { description: 'many writers' }, { systemMessage: 'Be brief.' },
      { iconUrl: 'https://example.com/i.png' }, { runtime: 'python' }, { modelConfig: 'qwen3-8-27b' },
      { toolset: ['preset:read-only'] }, { labels: { team: 'sre' } }, { annotations: { owner: 'alice' } },
      { skills: { refs: ['registry.example.io/skills/b:2'] } },
    ];
    // Twenty writers: every field twice, all at once.
    const results = await Promise.all([...changes, ...changes].map((change) =>
      f.service.updateAgent(f.ctx(), { name: 'verifier', ...change })));
    expect(results).toHaveLength(20);
    const values = releaseValues('verifier');
    expect(values.agent).toMatchObject({
      displayName: 'Concurrent', description: 'many writers', systemMessage: 'Be brief.', iconUrl: 'https://example.com/i.png', runtime: 'python',
    });
    expect(values).toMatchObject({
      modelConfig: { name: 'qwen3-8-27b' }, toolset: ['preset:read-only'], labels: { team: 'sre' },
      annotations: { owner: 'alice' }, skills: { refs: ['registry.example.io/skills/b:2'] },
    });
  });
});
