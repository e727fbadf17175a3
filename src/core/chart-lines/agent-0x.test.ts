import { describe, expect, it } from 'vitest';
import { parseAgent } from '../objects/agent-view.js';
import { agentOfLine } from './agent-0x.js';

describe('an agent read from its Agent, by chart line', () => {
  it('reads a kagent.dev Agent as chart 0.x: the toolset from the muster entry\'s header, Ready from its conditions', () => {
    const agent = agentOfLine(parseAgent({
      apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent',
      metadata: { name: 'a', namespace: 'kagent', annotations: { 'ui.giantswarm.io/display-name': 'A' } },
      spec: { declarative: { tools: [{ type: 'McpServer', headersFrom: [{ name: 'X-Muster-Toolset', value: 'preset:none' }] }] } },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    }));
    expect(agent).toMatchObject({ name: 'a', namespace: 'kagent', displayName: 'A', toolset: ['preset:none'], ready: true });
    expect(agent.chartLine).toBeUndefined();
  });

  it('reads an api.kagent.dev Agent as chart 2.x, and a 0.x Agent without a muster entry has no toolset to report', () => {
    expect(agentOfLine(parseAgent({ apiVersion: 'api.kagent.dev/v1alpha3', kind: 'Agent', metadata: { name: 'b' } })))
      .toMatchObject({ name: 'b', chartLine: '2.x' });
    const bare = agentOfLine(parseAgent({ apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: { name: 'c' } }));
    expect(bare.toolset).toBeUndefined();
    expect(bare.implicitFullAccess).toBeUndefined();
  });
});
