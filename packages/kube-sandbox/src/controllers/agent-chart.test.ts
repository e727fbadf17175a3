import { describe, expect, it } from 'vitest';
import { agentName, chartFailure, renderAgent } from './agent-chart.js';

const render = (values: Record<string, unknown>, releaseName = 'sre') => renderAgent({ values, releaseName, namespace: 'kagent', chartVersion: '0.6.1' });
const muster = { kind: 'RemoteMCPServer', apiGroup: 'kagent.dev', name: 'muster', namespace: 'agent-platform', allowedHeaders: ['authorization'] };

describe('renderAgent (the agent chart 0.6.x)', () => {
  it('renders the default Agent of the chart', () => {
    expect(render({})).toEqual({
      apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent',
      metadata: {
        name: 'sre', namespace: 'kagent',
        labels: {
          app: 'agent', 'app.kubernetes.io/instance': 'sre', 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/name': 'agent',
          'app.kubernetes.io/version': '0.6.1', 'application.giantswarm.io/team': 'bumblebee', 'helm.sh/chart': 'agent-0.6.1',
        },
        annotations: { 'meta.helm.sh/release-name': 'sre', 'meta.helm.sh/release-namespace': 'kagent' },
      },
      spec: {
        type: 'Declarative',
        declarative: {
          runtime: 'go', modelConfig: 'default-model-config', systemMessage: 'You are a helpful agent.\n',
          tools: [{ type: 'McpServer', mcpServer: muster }],
          deployment: {
            replicas: 1, env: [{ name: 'KAGENT_PROPAGATE_TOKEN', value: 'true' }],
            resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
          },
        },
      },
    });
  });

  it('renders identity, skills, labels and annotations from the values', () => {
    const agent = render({
      agent: { name: 'ops', displayName: 'Ops', description: 'd', iconUrl: 'https://i', systemMessage: 'hi', runtime: 'python' },
      modelConfig: { name: 'qwen3-8-27b' },
      skills: { gitRefs: [{ url: 'https://github.com/o/r', path: 'a', name: 'a' }], gitAuthSecretRef: { name: 'git' } },
      labels: { team: 'x' }, annotations: { note: 'y' },
    }) as any;
    expect(agent.metadata.name).toBe('ops');
    expect(agent.metadata.labels.team).toBe('x');
    expect(agent.metadata.annotations).toMatchObject({ 'ui.giantswarm.io/display-name': 'Ops', note: 'y' });
    expect(agent.spec).toMatchObject({ description: 'd', iconUrl: 'https://i', skills: { refs: [], gitRefs: [{ url: 'https://github.com/o/r', path: 'a', name: 'a' }], gitAuthSecretRef: { name: 'git' } } });
    expect(agent.spec.declarative).toMatchObject({ runtime: 'python', modelConfig: 'qwen3-8-27b', systemMessage: 'hi' });
  });

  it.each([
    ['a toolset becomes the X-Muster-Toolset header of the muster tool', { toolset: ['preset:read-only', 'tool:x'] },
      [{ type: 'McpServer', mcpServer: muster, headersFrom: [{ name: 'X-Muster-Toolset', value: 'preset:read-only,tool:x' }] }]],
    ['exactly preset:none renders no tool', { toolset: ['preset:none'] }, undefined],
    ['preset:none among others is a normal toolset', { toolset: ['preset:none', 'tool:x'] },
      [{ type: 'McpServer', mcpServer: muster, headersFrom: [{ name: 'X-Muster-Toolset', value: 'preset:none,tool:x' }] }]],
    ['muster disabled renders no tool', { muster: { enabled: false } }, undefined],
    ['extraTools follow the muster entry verbatim, never with the header', { toolset: ['tool:x'], extraTools: [{ type: 'Agent', agent: { name: 'b' } }] },
      [{ type: 'McpServer', mcpServer: muster, headersFrom: [{ name: 'X-Muster-Toolset', value: 'tool:x' }] }, { type: 'Agent', agent: { name: 'b' } }]],
    ['muster toolNames narrow the server entry', { muster: { toolNames: ['x_a_b'] } }, [{ type: 'McpServer', mcpServer: { ...muster, toolNames: ['x_a_b'] } }]],
  ])('%s', (_name, values, tools) => {
    expect((render(values) as any).spec.declarative.tools).toEqual(tools);
  });

  it('deep-merges extraAgentSpec over the curated spec', () => {
    const spec = (render({ extraAgentSpec: { declarative: { stream: true, deployment: { replicas: 3 } } } }) as any)
      .spec;
    expect(spec.declarative.stream).toBe(true);
    expect(spec.declarative.deployment.replicas).toBe(3);
    expect(spec.declarative.deployment.env).toEqual([{ name: 'KAGENT_PROPAGATE_TOKEN', value: 'true' }]);
  });

  it('names the Agent after the release when agent.name is empty (63 characters, no trailing dash)', () => {
    expect(agentName({}, 'sre')).toBe('sre');
    expect(agentName({}, `${'a'.repeat(62)}-b`)).toBe('a'.repeat(62));
  });
});

describe('chartFailure', () => {
  it('accepts the values agent-manager composes', () => {
    expect(chartFailure({ agent: { name: 'sre', displayName: 'SRE' }, modelConfig: { name: 'm' }, toolset: ['preset:read-only'] })).toBeUndefined();
  });

  it('refuses schema violations with Helm\'s text and every violation', () => {
    const failure = chartFailure({ agent: { name: 'SRE', runtime: 'rust' }, bogus: 1 });
    expect(failure?.kind).toBe('schema');
    expect(failure?.message.split('\n')[0]).toBe("values don't meet the specifications of the schema(s) in the following chart(s):");
    expect(failure?.message).toContain('\nagent:\n- ');
    for (const path of ['/agent/name', '/agent/runtime', '']) expect(failure?.message).toContain(`- at '${path}': `);
  });

  it('refuses a toolset the template fails on', () => {
    expect(chartFailure({ toolset: [] })).toMatchObject({ kind: 'render', message: expect.stringContaining('toolset is empty') });
    expect(chartFailure({ toolset: 'preset:full' })).toMatchObject({ kind: 'render', message: expect.stringContaining('toolset must be a list') });
  });
});
