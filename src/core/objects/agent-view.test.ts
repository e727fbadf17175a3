import { describe, expect, it } from 'vitest';
import { isLine2Agent, parseAgent } from './agent-view.js';

describe('parseAgent', () => {
  it('reads a chart 0.x Agent (kagent.dev) from spec and spec.declarative', () => {
    const view = parseAgent({
      apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: { name: 'sre', namespace: 'kagent' },
      spec: {
        description: 'd', iconUrl: 'i', skills: { refs: ['r'] },
        declarative: { modelConfig: 'm', runtime: 'python', systemMessage: 's', tools: [{ type: 'McpServer' }, 'x'] },
      },
      status: { conditions: [{ type: 'Ready', status: 'True' }], observedGeneration: 1 },
    });
    expect(view).toMatchObject({
      line: '0.x', apiVersion: 'kagent.dev/v1alpha2', description: 'd', iconUrl: 'i', skills: { refs: ['r'] },
      modelConfig: 'm', runtime: 'python', systemMessage: 's', tools: [{ type: 'McpServer' }],
      conditions: [{ type: 'Ready', status: 'True' }], observedGeneration: 1,
    });
  });

  it('reads a chart 2.x Agent (api.kagent.dev) from its template, Harness and revisions', () => {
    const view = parseAgent({
      apiVersion: 'api.kagent.dev/v1alpha3', kind: 'Agent', metadata: { name: 'sre', generation: 2 },
      spec: {
        harnessRef: { name: 'kagent' },
        template: { description: 'd', modelConfig: { name: 'm' }, systemPrompt: 'p', skills: [{ name: 's' }],
          plugins: [{ source: {} }] },
      },
      status: { desiredRevision: 3, latestSuccessfulRevision: 2, warnings: ['w', 1] },
    });
    expect(view).toMatchObject({
      line: '2.x', harness: 'kagent', description: 'd', modelConfig: 'm', systemPrompt: 'p', skills: [{ name: 's' }],
      plugins: [{ source: {} }], desiredRevision: 3, latestSuccessfulRevision: 2, warnings: ['w'],
      meta: { name: 'sre', generation: 2 },
    });
  });

  it('a partial Agent reads with nothing set, on the line its group says', () => {
    expect(parseAgent({ metadata: { name: 'a' } })).toMatchObject({ line: '0.x', tools: [], conditions: [] });
    expect(parseAgent({ apiVersion: 'api.kagent.dev/v1', metadata: { name: 'a' } }))
      .toMatchObject({ line: '2.x', skills: [], plugins: [], warnings: [] });
  });

  it('forged field types read as absent instead of throwing', () => {
    const line0 = parseAgent({ apiVersion: 'kagent.dev/v1alpha2', spec: { description: 1, declarative: 'x' },
      status: 'Ready' });
    expect(line0).toMatchObject({ line: '0.x', tools: [], conditions: [] });
    expect(line0).not.toHaveProperty('description', expect.anything());
    const line2 = parseAgent({ apiVersion: 'api.kagent.dev/v1alpha3', spec: { harnessRef: 'kagent', template: [] },
      status: { desiredRevision: '3', warnings: 'w' } });
    expect(line2).toMatchObject({ line: '2.x', harness: undefined, desiredRevision: undefined, warnings: [] });
    expect(parseAgent(42)).toMatchObject({ line: '0.x', meta: { name: '' } });
  });

  it('the line is the API group: only api.kagent.dev is chart 2.x', () => {
    expect(isLine2Agent({ apiVersion: 'api.kagent.dev/v1alpha3' })).toBe(true);
    for (const apiVersion of ['kagent.dev/v1alpha2', 'api.kagent.dev', 3, undefined]) {
      expect(isLine2Agent({ apiVersion })).toBe(false);
    }
    expect(isLine2Agent(undefined)).toBe(false);
  });
});
