import { describe, expect, it } from 'vitest';
import { chartFailureV2, renderReleaseV2 } from './agent-chart-v2.js';
import { releaseFailure, renderRelease } from './chart-lines.js';

const render = (values: Record<string, unknown>, releaseName = 'sre') =>
  renderReleaseV2({ values, releaseName, namespace: 'agents', chartVersion: '2.1.0' }) as any[];
const SHA = 'a'.repeat(40);
const DIGEST = `sha256:${'c'.repeat(64)}`;
const labels = {
  app: 'agent', 'app.kubernetes.io/instance': 'sre', 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/name': 'agent',
  'app.kubernetes.io/version': '2.1.0', 'application.giantswarm.io/team': 'bumblebee', 'helm.sh/chart': 'agent-2.1.0',
};
const helm = { 'meta.helm.sh/release-name': 'sre', 'meta.helm.sh/release-namespace': 'agents' };

describe('renderReleaseV2 (the agent chart 2.x)', () => {
  it('renders the default Agent on the kagent Harness and its muster RemoteMCPServer', () => {
    expect(render({})).toEqual([
      {
        apiVersion: 'api.kagent.dev/v1alpha3', kind: 'Agent',
        metadata: { name: 'sre', namespace: 'agents', labels, annotations: helm },
        spec: {
          harnessRef: { name: 'kagent' },
          template: {
            systemPrompt: 'You are a helpful agent.\n', modelConfig: { name: 'default-model-config' },
            tools: [{ mcp: { server: { kind: 'RemoteMCPServer', name: 'sre' } } }],
          },
        },
      },
      {
        apiVersion: 'api.kagent.dev/v1alpha3', kind: 'RemoteMCPServer',
        metadata: { name: 'sre', namespace: 'agents', labels: { ...labels, 'kagent.dev/discovery': 'disabled' }, annotations: helm },
        spec: {
          description: 'muster gateway for agent sre', protocol: 'STREAMABLE_HTTP',
          url: 'http://muster.agent-platform.svc.cluster.local:8090/mcp', timeout: '180s',
        },
      },
    ]);
  });

  it('renders every value where values.yaml says it goes', () => {
    const [agent, server] = render({
      agent: { name: 'ops', displayName: 'Ops', description: 'd', iconUrl: 'https://i/x.png', systemMessage: 'hi', harness: 'claude',
        egress: ['https://github.com'] },
      modelConfig: { name: 'qwen' },
      skills: [{ name: 'a', git: { url: 'https://github.com/o/r', commit: SHA }, path: 'skills/a' }, { name: 'b', oci: `r.example/b@${DIGEST}` }],
      plugins: [{ git: { url: 'https://github.com/o/p', commit: SHA }, skills: ['x'] }, { oci: `r.example/p@${DIGEST}`, path: 'p', skills: ['y'] }],
      skillsGitAuthSecretRef: { name: 'git' },
      muster: { url: 'https://muster.example/mcp', timeout: '5m', tools: ['list_tools'], requireApproval: true, discovery: { enabled: true } },
      toolset: ['preset:read-only', 'tool:x'],
      extraTools: [{ subAgent: { name: 'helper', description: 'h', templateRef: { name: 'helper' } } }],
      labels: { team: 'x' }, annotations: { note: 'y' },
      extraAgentSpec: { promptTemplate: { dataSources: [] }, modelConfig: { name: 'override' } },
    });
    expect(agent.metadata.name).toBe('ops');
    expect(agent.metadata.labels.team).toBe('x');
    expect(agent.metadata.annotations).toEqual({ ...helm, 'ui.giantswarm.io/display-name': 'Ops', 'ui.giantswarm.io/icon-url': 'https://i/x.png', note: 'y' });
    const credentialRef = { name: 'git', key: 'token' };
    expect(agent.spec).toEqual({
      harnessRef: { name: 'claude' },
      egress: ['https://github.com'],
      template: {
        description: 'd', systemPrompt: 'hi', modelConfig: { name: 'override' },
        skills: [
          { name: 'a', source: { git: { url: 'https://github.com/o/r', commit: SHA, credentialRef }, path: 'skills/a' } },
          { name: 'b', source: { oci: `r.example/b@${DIGEST}` } },
        ],
        plugins: [
          { source: { git: { url: 'https://github.com/o/p', commit: SHA, credentialRef } }, skills: ['x'] },
          { source: { oci: `r.example/p@${DIGEST}`, path: 'p' }, skills: ['y'] },
        ],
        tools: [
          { mcp: { server: { kind: 'RemoteMCPServer', name: 'ops' }, tools: ['list_tools'], requireApproval: true } },
          { subAgent: { name: 'helper', description: 'h', templateRef: { name: 'helper' } } },
        ],
        promptTemplate: { dataSources: [] },
      },
    });
    expect(server.metadata.labels['kagent.dev/discovery']).toBeUndefined();
    expect(server.metadata.labels.team).toBe('x');
    expect(server.metadata.annotations).toEqual(helm);
    expect(server.spec).toEqual({
      description: 'muster gateway for agent ops', protocol: 'STREAMABLE_HTTP', url: 'https://muster.example/mcp', timeout: '5m',
      headersFrom: [{ name: 'X-Muster-Toolset', value: 'preset:read-only,tool:x' }],
    });
  });

  it.each([
    ['exactly ["preset:none"] (a chat-only agent)', { toolset: ['preset:none'] }],
    ['muster disabled', { muster: { enabled: false }, toolset: ['preset:read-only'] }],
  ])('renders no RemoteMCPServer and no muster binding for %s', (_title, values) => {
    const objects = render({ ...values, extraTools: [{ mcp: { server: { kind: 'RemoteMCPServer', name: 'other' } } }] });
    expect(objects.map((o) => o.kind)).toEqual(['Agent']);
    expect(objects[0].spec.template.tools).toEqual([{ mcp: { server: { kind: 'RemoteMCPServer', name: 'other' } } }]);
  });

  it('keeps the discovery label the chart\'s own over an extra label of the same key', () => {
    expect(render({ labels: { 'kagent.dev/discovery': 'enabled' } })[1].metadata.labels['kagent.dev/discovery']).toBe('disabled');
  });

  it('is what a release of a 2.x chart renders, and 0.x releases keep the kagent.dev Agent', () => {
    expect(renderRelease({ values: {}, releaseName: 'sre', namespace: 'agents', chartVersion: '2.0.0' }).map((o) => o.apiVersion))
      .toEqual(['api.kagent.dev/v1alpha3', 'api.kagent.dev/v1alpha3']);
    expect(renderRelease({ values: {}, releaseName: 'sre', namespace: 'kagent', chartVersion: '0.6.1' }).map((o) => o.apiVersion))
      .toEqual(['kagent.dev/v1alpha2']);
  });
});

describe('chartFailureV2', () => {
  it('accepts the values agent-manager composes for 2.x', () => {
    expect(chartFailureV2({ agent: { name: 'sre', harness: 'kagent' }, modelConfig: { name: 'm' }, toolset: ['preset:read-only'] }, '2.1.0'))
      .toBeUndefined();
  });

  it('refuses what the 2.x schema refuses, in Helm\'s words', () => {
    const failure = chartFailureV2({ skills: { gitRefs: [] }, agent: { runtime: 'go' } }, '2.1.0');
    expect(failure).toEqual({ kind: 'schema', message: "values don't meet the specifications of the schema(s) in the following chart(s):\n" +
      "agent:\n- at '/agent': additional properties 'runtime' not allowed\n- at '/skills': got object, want array" });
  });

  it.each([
    ['an empty toolset', { toolset: [] }, 'templates/remotemcpserver.yaml:1:1): toolset is empty; say ["preset:none"] for an agent without tools'],
    ['a toolset selector muster cannot read', { toolset: ['label:x'] }, 'label: selectors exist only inside presets'],
    ['two skills of one name', { skills: [{ name: 'a', oci: `r/a@${DIGEST}` }, { name: 'a', oci: `r/b@${DIGEST}` }] },
      'skills[1].name "a" is already used by skills[0]'],
    ['a credential with an http:// git source', { skillsGitAuthSecretRef: { name: 'git' }, plugins: [{ git: { url: 'http://git.example/p', commit: SHA }, skills: ['x'] }] },
      'plugins[0]: skillsGitAuthSecretRef.name is set, so every git source needs an https:// URL'],
  ])('fails the render for %s', (_title, values, message) => {
    expect(chartFailureV2(values, '2.0.0')).toEqual({ kind: 'render', message: expect.stringContaining(message) });
  });

  it('judges agent.egress by the chart version: 2.1.0 declares it, 2.0.0 does not', () => {
    const values = { agent: { egress: ['https://github.com'] } };
    expect(releaseFailure(values, '2.1.0')).toBeUndefined();
    expect(releaseFailure(values, '2.0.0')?.message).toContain("- at '/agent': additional properties 'egress' not allowed");
  });

  it('refuses a chart line the sandbox does not simulate', () => {
    expect(releaseFailure({}, '1.5.1')).toEqual({ kind: 'render', message: 'the sandbox simulates the agent chart lines 0.x and 2.x, not 1.5.1' });
  });
});
