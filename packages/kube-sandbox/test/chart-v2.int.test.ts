/**
 * The agent chart's 2.x line, driven through the real @kubernetes/client-node: a release of a 2.x source
 * renders the `api.kagent.dev/v1alpha3` Agent on its Harness and the agent's muster RemoteMCPServer (none
 * for a chat-only agent), values the 2.x contract refuses fail the release in Helm's words, 2.1.0 takes
 * `agent.egress` where 2.0.0 refuses it, and kagent reports revisions and conditions: a missing Harness is
 * ResolvedRefs False until it appears, and a new generation is a new revision compiled one reconcile later.
 * A release moved from a 0.x to a 2.x source leaves no kagent.dev Agent behind, as Helm's upgrade prunes.
 * The tests run at once, each on objects of its own; every wait is a poll with a deadline.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { eventually, HR, helmRelease, rejection, startHarness, type Harness } from './harness.js';

const V2 = { group: 'api.kagent.dev', version: 'v1alpha3' } as const;
const AGENT = { ...V2, plural: 'agents' } as const;
const SERVER = { ...V2, plural: 'remotemcpservers' } as const;
const HARNESS = { ...V2, plural: 'harnesses' } as const;
const OCI = { group: 'source.toolkit.fluxcd.io', version: 'v1', plural: 'ocirepositories' } as const;
const NS = 'agents';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ controllers: true, reconcileDelayMs: 10 });
});
afterAll(async () => {
  await h.sandbox.close();
});

const cond = (obj: any, type: string) => (obj?.status?.conditions ?? []).find((c: any) => c.type === type);
const get = (api: typeof AGENT | typeof SERVER | typeof HR, name: string, namespace = NS) =>
  h.custom.getNamespacedCustomObject({ ...api, namespace, name }) as Promise<any>;

async function create(name: string, values: Record<string, unknown>, source = 'agent', namespace = NS) {
  const body = helmRelease(name, namespace);
  body.spec.chartRef.name = source;
  body.spec.values = { agent: { name, harness: 'kagent' }, modelConfig: { name: 'default-model-config' }, ...values };
  await h.custom.createNamespacedCustomObject({ ...HR, namespace, body });
}

async function settled(name: string, namespace = NS) {
  return eventually(async () => {
    const hr = await get(HR, name, namespace);
    return hr.status?.observedGeneration === hr.metadata.generation && cond(hr, 'Ready')?.status !== 'Unknown'
      ? hr : undefined;
  }, 10_000, `HelmRelease ${namespace}/${name} reconciled`);
}

async function agentWhere(name: string, holds: (agent: any) => boolean, what: string) {
  return eventually(async () => {
    const agent = await get(AGENT, name).catch(() => undefined);
    return agent && holds(agent) ? agent : undefined;
  }, 10_000, `Agent ${NS}/${name} ${what}`);
}

const readyAgent = (name: string) => agentWhere(name, (a) => cond(a, 'Ready')?.status === 'True', 'Ready');

describe.concurrent('the agent chart 2.x in the sandbox', () => {
  it('renders the Agent on its Harness and the muster RemoteMCPServer, with Flux\'s labels, and records both', async ({ expect }) => {
    await create('renders', { agent: { name: 'renders', displayName: 'Renders', harness: 'kagent' }, toolset: ['preset:read-only'] });
    const hr = await settled('renders');
    expect(cond(hr, 'Ready')).toMatchObject({ status: 'True', reason: 'InstallSucceeded' });
    expect(hr.status.history[0].chartVersion).toMatch(/^2\.1\.0\+[0-9a-f]{12}$/);
    expect(hr.status.inventory.entries).toEqual([
      { id: 'agents_renders_api.kagent.dev_Agent', v: 'v1alpha3' },
      { id: 'agents_renders_api.kagent.dev_RemoteMCPServer', v: 'v1alpha3' },
    ]);
    const labels = {
      app: 'agent', 'app.kubernetes.io/instance': 'renders', 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/name': 'agent',
      'app.kubernetes.io/version': '2.1.0', 'application.giantswarm.io/team': 'bumblebee', 'helm.sh/chart': 'agent-2.1.0',
      'helm.toolkit.fluxcd.io/name': 'renders', 'helm.toolkit.fluxcd.io/namespace': NS,
    };
    const helmAnnotations = { 'meta.helm.sh/release-name': 'renders', 'meta.helm.sh/release-namespace': NS };
    const agent = await readyAgent('renders');
    expect(agent.metadata.labels).toEqual(labels);
    expect(agent.metadata.annotations).toEqual({ ...helmAnnotations, 'ui.giantswarm.io/display-name': 'Renders' });
    expect(agent.spec).toEqual({
      harnessRef: { name: 'kagent' },
      template: {
        systemPrompt: 'You are a helpful agent.\n', modelConfig: { name: 'default-model-config' },
        tools: [{ mcp: { server: { kind: 'RemoteMCPServer', name: 'renders' } } }],
      },
    });
    expect(agent.status).toMatchObject({
      observedGeneration: 1, desiredRevision: 1, latestSuccessfulRevision: 1, warnings: [],
    });
    expect(cond(agent, 'Accepted')).toMatchObject({ status: 'True' });
    expect(cond(agent, 'ResolvedRefs')).toMatchObject({ status: 'True' });
    expect(cond(agent, 'Ready')).toMatchObject({ status: 'True', reason: 'Ready' });
    const server = await get(SERVER, 'renders');
    expect(server.metadata.labels).toEqual({ ...labels, 'kagent.dev/discovery': 'disabled' });
    expect(server.metadata.annotations).toEqual(helmAnnotations);
    expect(server.spec).toEqual({
      description: 'muster gateway for agent renders', protocol: 'STREAMABLE_HTTP',
      url: 'http://muster.agent-platform.svc.cluster.local:8090/mcp', timeout: '180s',
      headersFrom: [{ name: 'X-Muster-Toolset', value: 'preset:read-only' }], terminateOnClose: true,
    });
    // No pods: a 2.x agent runs on its Harness.
    expect((await h.apps.listNamespacedDeployment({ namespace: NS })).items.map((d) => d.metadata?.name)).not.toContain('renders');
  });

  it('renders no RemoteMCPServer for a chat-only agent, and deletes the one an upgrade stops rendering', async ({ expect }) => {
    await create('chatty', { toolset: ['preset:read-only'] });
    await eventually(() => get(SERVER, 'chatty').catch(() => undefined), 10_000, 'the RemoteMCPServer');
    await h.objects.patch({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'chatty', namespace: NS },
      spec: { values: { toolset: ['preset:none'] } } } as any, undefined, undefined, undefined, undefined, 'application/merge-patch+json' as any);
    const hr = await eventually(async () => {
      const r = await get(HR, 'chatty');
      return r.status?.history?.[0]?.version === 2 ? r : undefined;
    }, 10_000, 'the upgrade');
    expect(hr.status.inventory.entries).toEqual([{ id: 'agents_chatty_api.kagent.dev_Agent', v: 'v1alpha3' }]);
    expect((await rejection(get(SERVER, 'chatty'))).code).toBe(404);
    const agent = await agentWhere('chatty', (a) => a.metadata.generation === 2, 'at generation 2');
    expect(agent.spec.template.tools).toBeUndefined();
  });

  it('reports a missing Harness as ResolvedRefs False, and becomes Ready once the Harness is created', async ({ expect }) => {
    await create('waiting', { agent: { name: 'waiting', harness: 'codex' } });
    const agent = await agentWhere('waiting', (a) => cond(a, 'ResolvedRefs'), 'reported');
    expect(cond(agent, 'ResolvedRefs')).toMatchObject({ status: 'False', reason: 'HarnessNotFound', message: `Harness "codex" not found in namespace ${NS}` });
    expect(cond(agent, 'Ready')).toMatchObject({ status: 'False', reason: 'HarnessNotFound' });
    expect(agent.status).toMatchObject({ observedGeneration: 1, desiredRevision: 1 });
    expect(agent.status.latestSuccessfulRevision).toBeUndefined();
    await h.custom.createNamespacedCustomObject({ ...HARNESS, namespace: NS,
      body: { apiVersion: 'api.kagent.dev/v1alpha3', kind: 'Harness', metadata: { name: 'codex', namespace: NS }, spec: { codex: {} } } });
    const ready = await readyAgent('waiting');
    expect(ready.status).toMatchObject({ desiredRevision: 1, latestSuccessfulRevision: 1 });
    expect(cond(ready, 'ResolvedRefs')).toMatchObject({ status: 'True' });
    const harness = await eventually(async () => {
      const found = await h.custom.getNamespacedCustomObject({ ...HARNESS, namespace: NS, name: 'codex' }) as any;
      return cond(found, 'Ready') ? found : undefined;
    });
    expect(cond(harness, 'Ready')).toMatchObject({ status: 'True', observedGeneration: 1 });
  });

  it('reports a missing ModelConfig as ResolvedRefs False', async ({ expect }) => {
    await create('modelless', { modelConfig: { name: 'nowhere' } });
    const agent = await agentWhere('modelless', (a) => cond(a, 'ResolvedRefs'), 'reported');
    expect(cond(agent, 'ResolvedRefs')).toMatchObject({ status: 'False', reason: 'ModelConfigNotFound', message: `ModelConfig "nowhere" not found in namespace ${NS}` });
    expect(cond(agent, 'Ready')).toMatchObject({ status: 'False', reason: 'ModelConfigNotFound' });
  });

  it('counts a changed template as a new revision; observedGeneration lags until kagent reconciles', async ({ expect }) => {
    await create('revised', {});
    await readyAgent('revised');
    const release = h.sandbox.controllers!.hold({ controllers: ['kagent-v2-agents'], namespace: NS, name: 'revised' });
    try {
      await h.objects.patch({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'revised', namespace: NS },
        spec: { values: { agent: { systemMessage: 'You review.' } } } } as any, undefined, undefined, undefined, undefined, 'application/merge-patch+json' as any);
      const held = await agentWhere('revised', (a) => a.metadata.generation === 2, 'at generation 2');
      expect(held.spec.template.systemPrompt).toBe('You review.');
      expect(held.status).toMatchObject({ observedGeneration: 1, desiredRevision: 1, latestSuccessfulRevision: 1 });
    } finally {
      release();
    }
    const ready = await agentWhere('revised', (a) => a.status?.latestSuccessfulRevision === 2, 'at revision 2');
    expect(ready.status).toMatchObject({ observedGeneration: 2, desiredRevision: 2, latestSuccessfulRevision: 2 });
    expect(cond(ready, 'Ready')).toMatchObject({ status: 'True', observedGeneration: 2 });
  });

  it('warns when a muster binding narrows tools while the server\'s discovery is off', async ({ expect }) => {
    await create('narrow', { muster: { tools: ['list_tools'] } });
    const agent = await agentWhere('narrow', (a) => a.status?.warnings?.length > 0, 'warned');
    expect(agent.status.warnings).toEqual([
      'the binding of RemoteMCPServer "narrow" selects 1 tool(s), but tool discovery is off for that server: the Harness ' +
      'cannot enforce the selection and may expose every tool the server offers',
    ]);
  });

  it('fails a release whose values the 2.x contract refuses, in Helm\'s words, and installs nothing', async ({ expect }) => {
    await create('refused', { skills: { gitRefs: [{ url: 'https://github.com/o/r' }] }, agent: { name: 'refused', runtime: 'go' } });
    const hr = await settled('refused');
    expect(cond(hr, 'Ready')).toMatchObject({ status: 'False', reason: 'InstallFailed' });
    expect(cond(hr, 'Ready').message).toMatch(/^Helm install failed for release agents\/refused with chart agent@2\.1\.0\+[0-9a-f]{12}: /);
    expect(cond(hr, 'Ready').message).toContain("values don't meet the specifications of the schema(s) in the following chart(s):\nagent:\n" +
      "- at '/agent': additional properties 'runtime' not allowed\n- at '/skills': got object, want array");
    expect(cond(hr, 'Stalled')).toMatchObject({ status: 'True', reason: 'RetriesExceeded' });
    expect((await rejection(get(AGENT, 'refused'))).code).toBe(404);
  });

  it('takes agent.egress on chart 2.1.0 and refuses it on 2.0.0 (a source pinned to 2.0.x)', async ({ expect }) => {
    await h.custom.createNamespacedCustomObject({ ...OCI, namespace: NS, body: { apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository',
      metadata: { name: 'agent-20', namespace: NS }, spec: { interval: '30m', url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', ref: { semver: '2.0.x' } } } });
    const egress = { agent: { harness: 'kagent', egress: ['https://github.com:443', 'https://*.githubusercontent.com'] } };
    await create('egress-21', { agent: { name: 'egress-21', ...egress.agent } });
    await create('egress-20', { agent: { name: 'egress-20', ...egress.agent } }, 'agent-20');
    expect((await readyAgent('egress-21')).spec.egress).toEqual(['https://github.com:443', 'https://*.githubusercontent.com']);
    const refused = await settled('egress-20');
    expect(cond(refused, 'Ready').message).toMatch(/with chart agent@2\.0\.0\+[0-9a-f]{12}: values don't meet/);
    expect(cond(refused, 'Ready').message).toContain("- at '/agent': additional properties 'egress' not allowed");
  });

  it('moves a release from a 0.x to a 2.x source and back: Helm\'s upgrade removes what the other line rendered', async ({ expect }) => {
    const body = helmRelease('mover', 'kagent');
    body.spec.values = { agent: { name: 'mover' }, modelConfig: { name: 'default-model-config' } };
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body });
    await eventually(() => h.apps.readNamespacedDeployment({ namespace: 'kagent', name: 'mover' }).catch(() => undefined), 10_000, 'the 0.x Deployment');
    await h.custom.createNamespacedCustomObject({ ...OCI, namespace: 'kagent', body: { apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository',
      metadata: { name: 'agent-2', namespace: 'kagent' }, spec: { interval: '30m', url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', ref: { semver: '2.x' } } } });
    await h.objects.patch({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'mover', namespace: 'kagent' },
      spec: { chartRef: { name: 'agent-2' }, values: { agent: { harness: 'kagent' } } } } as any, undefined, undefined, undefined, undefined, 'application/merge-patch+json' as any);
    const hr = await eventually(async () => {
      const r = await get(HR, 'mover', 'kagent');
      return r.status?.history?.[0]?.chartVersion?.startsWith('2.1.0') && cond(r, 'Ready')?.status === 'True' ? r : undefined;
    }, 10_000, 'the upgrade to 2.1.0');
    expect(hr.status.inventory.entries.map((e: any) => e.id)).toEqual(['kagent_mover_api.kagent.dev_Agent', 'kagent_mover_api.kagent.dev_RemoteMCPServer']);
    const old = { group: 'kagent.dev', version: 'v1alpha2', plural: 'agents', namespace: 'kagent', name: 'mover' };
    expect((await rejection(h.custom.getNamespacedCustomObject(old))).code).toBe(404);
    await eventually(async () => ((await rejection(h.apps.readNamespacedDeployment({ namespace: 'kagent', name: 'mover' }))).code === 404 ? true : undefined),
      10_000, 'the 0.x Deployment gone');
    const agent = await eventually(() => h.custom.getNamespacedCustomObject({ ...AGENT, namespace: 'kagent', name: 'mover' })
      .then((a: any) => (cond(a, 'Ready')?.status === 'True' ? a : undefined)), 10_000, 'the 2.x Agent Ready on the kagent Harness');
    expect(agent.spec.harnessRef).toEqual({ name: 'kagent' });
    // And back (a reverse migration): the 0.x chart renders the kagent.dev Agent again and prunes the 2.x objects.
    await h.objects.patch({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'mover', namespace: 'kagent' },
      spec: { chartRef: { name: 'agent' }, values: { agent: { harness: null } } } } as any, undefined, undefined, undefined, undefined, 'application/merge-patch+json' as any);
    await eventually(() => h.custom.getNamespacedCustomObject(old).catch(() => undefined), 10_000, 'the kagent.dev Agent back');
    const back = await get(HR, 'mover', 'kagent');
    expect(back.status.inventory.entries).toEqual([{ id: 'kagent_mover_kagent.dev_Agent', v: 'v1alpha2' }]);
    expect((await rejection(h.custom.getNamespacedCustomObject({ ...AGENT, namespace: 'kagent', name: 'mover' }))).code).toBe(404);
    expect((await rejection(get(SERVER, 'mover', 'kagent'))).code).toBe(404);
  });

  it('uninstalls a 2.x release: the Agent and its RemoteMCPServer go', async ({ expect }) => {
    await create('leaving', {});
    await eventually(() => get(SERVER, 'leaving').catch(() => undefined), 10_000, 'the RemoteMCPServer');
    await h.custom.deleteNamespacedCustomObject({ ...HR, namespace: NS, name: 'leaving' });
    await eventually(async () => ((await rejection(get(HR, 'leaving'))).code === 404 ? true : undefined), 10_000, 'the release gone');
    expect((await rejection(get(AGENT, 'leaving'))).code).toBe(404);
    expect((await rejection(get(SERVER, 'leaving'))).code).toBe(404);
  });

  it('refuses at admission a skill source that is not pinned, or names two sources', async ({ expect }) => {
    const agent = (skills: unknown[]) => ({ apiVersion: 'api.kagent.dev/v1alpha3', kind: 'Agent', metadata: { name: 'bare', namespace: NS },
      spec: { harnessRef: { name: 'kagent' }, template: { modelConfig: { name: 'default-model-config' }, skills } } });
    const branch = await rejection(h.custom.createNamespacedCustomObject({ ...AGENT, namespace: NS,
      body: agent([{ name: 's', source: { git: { url: 'https://github.com/o/r', commit: 'main' } } }]) }));
    expect(branch.code).toBe(422);
    expect(branch.status.message).toContain('spec.template.skills[0].source.git.commit');
    const both = await rejection(h.custom.createNamespacedCustomObject({ ...AGENT, namespace: NS,
      body: agent([{ name: 's', source: { oci: `r.example/s@sha256:${'a'.repeat(64)}`, git: { url: 'https://github.com/o/r', commit: 'a'.repeat(40) } } }]) }));
    expect(both.status.message).toContain('spec.template.skills[0].source: Invalid value: "object": exactly one of oci, git or bucket must be specified');
  });
});

describe('the sample platform\'s namespace agents (chart 2.x)', () => {
  let samples: Harness;
  beforeAll(async () => {
    samples = await startHarness({ seed: 'samples', controllers: true, reconcileDelayMs: 10 });
  });
  afterAll(async () => {
    await samples.sandbox.close();
  });

  it('is seeded Ready: its source on 2.1.0, its Harnesses, and platform-helper on the kagent Harness', async ({ expect }) => {
    const source = samples.sandbox.store.get('ocirepositories', NS, 'agent') as any;
    expect(source.spec.ref).toEqual({ semver: '2.x' });
    expect(source.status.artifact.revision).toMatch(/^2\.1\.0@sha256:[0-9a-f]{64}$/);
    const release = samples.sandbox.store.get('helmreleases', NS, 'platform-helper') as any;
    expect(cond(release, 'Ready')).toMatchObject({ status: 'True', reason: 'InstallSucceeded' });
    expect(release.spec.values).toEqual({
      agent: { name: 'platform-helper', displayName: 'Platform Helper',
        description: 'Answers questions about the platform (chart 2.x, on the kagent Harness).', harness: 'kagent' },
      modelConfig: { name: 'default-model-config' }, toolset: ['preset:read-only'],
    });
    const agent = await eventually(async () => {
      const a = await samples.custom.getNamespacedCustomObject({ ...AGENT, namespace: NS, name: 'platform-helper' }) as any;
      return cond(a, 'Ready')?.status === 'True' ? a : undefined;
    }, 10_000, 'platform-helper Ready');
    expect(agent.status).toMatchObject({ desiredRevision: 1, latestSuccessfulRevision: 1, warnings: [] });
    const harnesses = await samples.custom.listNamespacedCustomObject({ ...HARNESS, namespace: NS }) as any;
    expect(harnesses.items.map((x: any) => [x.metadata.name, cond(x, 'Ready')?.status])).toEqual([['claude', 'True'], ['kagent', 'True']]);
    expect(samples.sandbox.store.find('remotemcpservers', NS, 'platform-helper')).toBeDefined();
    // The 0.x namespace keeps its line and holds the Harness kagent already.
    expect((samples.sandbox.store.get('ocirepositories', 'kagent', 'agent') as any).status.artifact.revision).toMatch(/^0\.6\.1@/);
    expect(samples.sandbox.store.find('harnesses', 'kagent', 'kagent')).toBeDefined();
  });
});
