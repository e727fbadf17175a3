import { beforeEach, describe, expect, it } from 'vitest';
import { ManagedNamespaces } from '../namespaces.js';
import { startFakeServiceFixture, type FakeServiceFixture } from '../../../test/support/service/fake-fixture.js';
import { CHART_URL } from '../../../test/support/service/fixture-settings.js';
import { embeddedSchema } from '../../chart/embedded/embedded-schemas.js';
import { ToolsetCheckError, type ToolsetResolver } from '../guards/toolset-port.js';

const COMMIT = 'a'.repeat(40);
const DIGEST = `sha256:${'b'.repeat(64)}`;
const V2 = 'api.kagent.dev/v1alpha3';
let f: FakeServiceFixture;

function seedLine2(namespace: string, harnesses: Record<string, string>): void {
  f.kube.store.create('ocirepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository', metadata: { name: 'agent', namespace },
    spec: { interval: '30m', url: CHART_URL, ref: { semver: '2.x' } },
    status: { artifact: { revision: `2.1.0@${DIGEST}` } },
  });
  f.kube.store.create('modelconfigs.api.kagent.dev', {
    apiVersion: V2, kind: 'ModelConfig', metadata: { name: 'default-model-config', namespace }, spec: {},
  });
  for (const [name, ready] of Object.entries(harnesses)) {
    f.kube.store.create('harnesses.api.kagent.dev', {
      apiVersion: V2, kind: 'Harness', metadata: { name, namespace }, spec: { [name === 'claude' ? 'claude' : 'kagent']: {} },
      status: { conditions: [{ type: 'Ready', status: ready }] },
    });
  }
}

const create = (overrides: Record<string, unknown> = {}) => f.service.createAgent(f.ctx(), {
  name: 'helper', namespace: 'agents', modelConfig: 'default-model-config', toolset: ['preset:read-only'], ...overrides,
});
const refusal = (p: Promise<unknown>) => p.then(() => { throw new Error('not refused'); }, (e: Error) => e.message);
const releaseValues = () => f.kube.peek({ group: 'helm.toolkit.fluxcd.io', version: 'v2', resource: 'helmreleases',
  kind: 'HelmRelease' }, 'agents', 'helper')?.spec as { values: Record<string, unknown> } | undefined;

beforeEach(() => {
  f = startFakeServiceFixture({ settings: {
    namespaces: new ManagedNamespaces('kagent', ['agents']),
    line2: { harnessName: 'kagent', musterUrl: 'http://muster.agent-platform.svc:8090/mcp' },
  } });
  seedLine2('agents', { kagent: 'True', gpu: 'True', codex: 'False' });
});

describe('a create on a namespace of chart 2.x', () => {
  it('writes the 2.x values: the Harness, the pinned skills list, plugins and muster.url', async () => {
    const result = await create({
      harness: 'gpu', displayName: 'Helper',
      skills: { gitRefs: [{ url: 'https://github.com/o/skills', path: 'k8s', commit: COMMIT }],
        refs: [`r.example.io/skills/runbooks@${DIGEST}`] },
      plugins: [{ oci: `r.example.io/plugins/triage@${DIGEST}`, skills: ['triage'] }],
    });
    expect(releaseValues()?.values).toEqual({
      agent: { name: 'helper', displayName: 'Helper', harness: 'gpu' },
      modelConfig: { name: 'default-model-config' },
      skills: [{ name: 'k8s', git: { url: 'https://github.com/o/skills', commit: COMMIT }, path: 'k8s' },
        { name: 'runbooks', oci: `r.example.io/skills/runbooks@${DIGEST}` }],
      plugins: [{ oci: `r.example.io/plugins/triage@${DIGEST}`, skills: ['triage'] }],
      toolset: ['preset:read-only'],
      muster: { url: 'http://muster.agent-platform.svc:8090/mcp' },
    });
    expect(result.agent).toMatchObject({ harness: 'gpu', plugins: [{ skills: ['triage'] }] });
  });

  it('names the installation\'s Harness when the request names none', async () => {
    await create();
    expect((releaseValues()?.values.agent as { harness: string }).harness).toBe('kagent');
  });

  it.each([
    ['a Harness the namespace does not have', { harness: 'byo' },
      'harness "byo" does not exist in namespace agents; valid: codex, gpu, kagent'],
    ['a runtime', { runtime: 'go' }, 'runtime is gone'],
    ['a prompt over 20000 characters', { systemMessage: 'x'.repeat(20_001) }, 'systemMessage is 20001 characters'],
    ['an unpinned plugin', { plugins: [{ git: { url: 'https://github.com/o/p', commit: 'main' }, skills: ['a'] }] },
      'plugins[0].git.commit "main" is not a full commit id'],
    ['a ModelConfig only kagent.dev has', { modelConfig: 'qwen3-8-27b' },
      'modelConfig "qwen3-8-27b" does not exist in namespace agents; valid: default-model-config'],
  ])('refuses %s and writes nothing', async (_title, overrides, text) => {
    expect(await refusal(create(overrides))).toContain(text);
    expect(releaseValues()).toBeUndefined();
  });

  it('refuses the 2.x arguments on a namespace of chart 0.x, naming its line', async () => {
    const text = await refusal(f.service.createAgent(f.ctx(), {
      name: 'old', modelConfig: 'default-model-config', toolset: ['preset:none'], harness: 'kagent',
    }));
    expect(text).toContain('harness is for agents of chart 2.x, and namespace kagent renders chart 0.x');
  });

  it('refuses a namespace whose source resolved the AgentTemplate line', async () => {
    f.kube.store.create('ocirepositories', {
      apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository', metadata: { name: 'agent', namespace: 'agents' },
      spec: { url: CHART_URL, ref: { semver: '1.x' } }, status: { artifact: { revision: `1.5.1@${DIGEST}` } },
    });
    expect(await refusal(create())).toContain('resolves the agent chart 1.x (the AgentTemplate line)');
  });
});

describe('an update of an agent of chart 2.x', () => {
  it('moves it to a Ready Harness as a revision, and a rollback brings the old one back', async () => {
    await create();
    const moved = await f.service.updateAgent(f.ctx(), { name: 'helper', namespace: 'agents', harness: 'gpu' });
    expect(moved.changed).toEqual(['agent.harness']);
    expect(moved.revision).toBe(2);
    const back = await f.service.rollbackAgent(f.ctx(), { name: 'helper', namespace: 'agents', revision: 1 });
    expect(back.changed).toEqual(['agent.harness']);
    expect((releaseValues()?.values.agent as { harness: string }).harness).toBe('kagent');
  });

  it('refuses a Harness that is not Ready, and runtime, writing nothing', async () => {
    await create();
    expect(await refusal(f.service.updateAgent(f.ctx(), { name: 'helper', namespace: 'agents', harness: 'codex' })))
      .toContain('harness "codex" in namespace agents is not Ready');
    expect(await refusal(f.service.updateAgent(f.ctx(), { name: 'helper', namespace: 'agents', runtime: 'python' })))
      .toContain('runtime is gone');
    expect((releaseValues()?.values.agent as { harness: string }).harness).toBe('kagent');
  });
});

describe('reading an agent of chart 2.x', () => {
  it('lists the Harnesses with their runtime and readiness', async () => {
    expect(await f.service.listHarnesses(f.ctx(), { namespace: 'agents' })).toEqual({ harnesses: [
      { name: 'codex', runtime: 'kagent', ready: false }, { name: 'gpu', runtime: 'kagent', ready: true },
      { name: 'kagent', runtime: 'kagent', ready: true }] });
  });

  it('reads the Agent\'s status and fails a missing Harness on ResolvedRefs', async () => {
    await create({ harness: 'gpu' });
    f.kube.store.create('agents.api.kagent.dev', {
      apiVersion: V2, kind: 'Agent', metadata: { name: 'helper', namespace: 'agents', generation: 1 },
      spec: { harnessRef: { name: 'gpu' }, template: { description: 'd', modelConfig: { name: 'default-model-config' } } },
      status: { observedGeneration: 1, desiredRevision: 1, conditions: [
        { type: 'Accepted', status: 'True' }, { type: 'ResolvedRefs', status: 'False', reason: 'HarnessNotFound',
          message: 'Harness "gpu" not found' }, { type: 'Ready', status: 'False', reason: 'HarnessNotFound' }] },
    });
    const agent = await f.service.getAgent(f.ctx(), { name: 'helper', namespace: 'agents' });
    expect(agent).toMatchObject({ exists: true, harness: 'gpu', ready: false,
      status: { exists: true, resolvedRefs: false, desiredRevision: 1 } });
    const status = await f.service.getAgentStatus(f.ctx(), { name: 'helper', namespace: 'agents' });
    expect(status).toMatchObject({ verdict: 'failed',
      summary: 'Harness gpu: ResolvedRefs is False (HarnessNotFound: Harness "gpu" not found)' });
    expect(status.agent).toMatchObject({ apiVersion: V2, harness: 'gpu', resolvedRefs: false });
  });
});

describe('egress on chart 2.x', () => {
  it('is refused where the chart has no agent.egress (2.0), naming the chart', async () => {
    expect(await refusal(create({ egress: ['https://github.com'] })))
      .toContain('egress needs agent chart 2.1 or later: chart 2.0.0, which namespace agents follows, has no agent.egress');
  });

  it('is written where the chart declares it, and checked by the origin rules first', async () => {
    const base = embeddedSchema('2.x').schema as { properties: { agent: { properties: Record<string, unknown> } } };
    const withEgress = structuredClone(base);
    withEgress.properties.agent.properties.egress = { type: 'array', items: { type: 'string' } };
    const chart = { schema: async () => ({ version: '2.1.0', source: 'registry' as const, schema: withEgress }),
      info: async () => ({ ociUrl: CHART_URL, semver: '2.x', schemaVersion: '2.1.0', schemaSource: 'registry' as const }) };
    f = startFakeServiceFixture({ chart, settings: { namespaces: new ManagedNamespaces('kagent', ['agents']),
      line2: { harnessName: 'kagent' } } });
    seedLine2('agents', { kagent: 'True' });
    expect(await refusal(create({ egress: ['github.com'] }))).toContain('egress[0] "github.com" is not an HTTP(S) origin');
    await create({ egress: ['https://github.com'] });
    expect(releaseValues()?.values.agent).toEqual({ name: 'helper', harness: 'kagent', egress: ['https://github.com'] });
    await f.service.updateAgent(f.ctx(), { name: 'helper', namespace: 'agents', egress: [] });
    expect(releaseValues()?.values.agent).toEqual({ name: 'helper', harness: 'kagent' });
  });
});

describe('the claude-Harness guards fail closed', () => {
  const claudeFixture = (toolsets?: ToolsetResolver) => {
    f = startFakeServiceFixture({ toolsets, settings: {
      namespaces: new ManagedNamespaces('kagent', ['agents']), line2: { harnessName: 'kagent' },
      claudeGuard: { harnessEgress: {}, musterUrl: 'http://127.0.0.1:9/mcp', oauth: true },
    } });
    seedLine2('agents', { kagent: 'True', claude: 'True' });
  };
  const claude = () => f.service.createAgent(f.ctx({ token: 'caller-token' }), { name: 'reviewer', namespace: 'agents',
    modelConfig: 'default-model-config', harness: 'claude', toolset: ['preset:read-only'] });

  it('refuses when muster cannot be reached, with a 502 and nothing written', async () => {
    claudeFixture({ resolve: () => Promise.reject(new ToolsetCheckError({ kind: 'unreachable',
      detail: 'muster http://127.0.0.1:9/mcp did not answer: ECONNREFUSED' })) });
    await create(); // the kagent Harness is not guarded
    const refused = await claude().then(() => undefined, (e: { code: string; message: string }) => e);
    expect(refused).toMatchObject({ code: 'backend_error',
      message: expect.stringContaining('toolset could not be checked with muster\'s filter_tools') });
    expect(f.kube.store.find('helmreleases', 'agents', 'reviewer')).toBeUndefined();
  });

  it('refuses without a muster client at all', async () => {
    claudeFixture();
    expect(await refusal(claude())).toContain('toolset could not be checked: this agent-manager has no muster client');
    expect(f.kube.store.find('helmreleases', 'agents', 'reviewer')).toBeUndefined();
  });
});
