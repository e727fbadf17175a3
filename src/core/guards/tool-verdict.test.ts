import { describe, expect, it } from 'vitest';
import { explicitSelectors, isDeniedTool, toolsetViolations, type ToolsetResolution } from './tool-verdict.js';

const ro = (name: string) => ({ name, readOnly: true });
const rw = (name: string) => ({ name, readOnly: false });

const PLATFORM = [ro('x_agent-manager_list_agents'), rw('x_agent-manager_create_agent'), ro('core_service_list'),
  rw('core_workflow_delete'), rw('x_kagent_invoke_agent_instance')];

const resolution = (over: Partial<ToolsetResolution>): ToolsetResolution => ({
  tools: [], signInRequired: [], unmatched: [], agentPlatformTools: PLATFORM, ...over,
});

describe('toolsetViolations', () => {
  it('allows read-only tools, read-only agent-platform and core tools included (they are in both presets)', () => {
    expect(toolsetViolations(resolution({
      tools: [ro('x_kubernetes_get'), ro('x_agent-manager_list_agents'), ro('core_service_list')],
    }))).toEqual([]);
  });

  it('refuses tools without readOnlyHint, sorted', () => {
    expect(toolsetViolations(resolution({ tools: [ro('x_kubernetes_get'), rw('x_prometheus_query_range'),
      rw('x_kubernetes_apply')] }))).toEqual(['toolset reaches tools that are not marked read-only (no readOnlyHint): ' +
      "x_kubernetes_apply, x_prometheus_query_range; a claude Harness agent's writes are git and the forge's CLI from " +
      'its workspace, so its muster tools are read-only (preset:read-only)']);
  });

  it('denies agent-platform tools that are not read-only and invoke_agent_instance, apart from the other writes', () => {
    expect(toolsetViolations(resolution({ tools: [rw('x_agent-manager_create_agent'), rw('core_workflow_delete'),
      rw('x_kubernetes_apply')] }))).toEqual([
      'toolset reaches tools a claude Harness agent may not use (invoke_agent_instance and the preset:agent-platform ' +
        'tools that are not read-only): core_workflow_delete, x_agent-manager_create_agent',
      expect.stringMatching(/^toolset reaches tools that are not marked read-only \(no readOnlyHint\): x_kubernetes_apply;/),
    ]);
  });

  it('denies invoke_agent_instance under any prefix, even marked read-only and outside agent-platform', () => {
    expect(toolsetViolations(resolution({ tools: [ro('x_other-gateway_invoke_agent_instance')],
      agentPlatformTools: [] }))[0]).toMatch(/may not use .*: x_other-gateway_invoke_agent_instance$/);
  });

  it('refuses servers awaiting the caller\'s sign-in and does not count their selectors as unknown again', () => {
    expect(toolsetViolations(resolution({ signInRequired: ['github'], unmatched: ['server:github'] }))).toEqual([
      'toolset names servers whose tools are unknown until you sign in to them (github): sign in through muster, then ' +
        'write the agent again',
    ]);
  });

  it('refuses selectors that select nothing, but not presets (preset:none selects nothing on purpose)', () => {
    expect(toolsetViolations(resolution({ unmatched: ['tool:x_gone_tool', 'preset:none', 'server:absent'] }))).toEqual([
      'toolset selectors resolve to no tool for you: server:absent, tool:x_gone_tool; name existing read-only tools, ' +
        'servers or workflows, or a preset such as preset:read-only',
    ]);
  });
});

describe('explicitSelectors', () => {
  it('keeps the selectors that are not presets', () => {
    expect(explicitSelectors(['preset:read-only', 'server:github', 'tool:x_a_b'])).toEqual(['server:github', 'tool:x_a_b']);
  });
});

describe('isDeniedTool', () => {
  it.each([['invoke_agent_instance', true], ['x_kagent_invoke_agent_instance', true],
    ['x_kagent_invoke_agent_instances', false], ['x_kagent_reinvoke_agent_instance', false]])('%s → %s', (name, denied) => {
    expect(isDeniedTool(name)).toBe(denied);
  });
});
