/**
 * The MCP surface over real HTTP, with the SDK's own client, against a real AgentService
 * on a seeded sandbox API server: every tool mirrors its REST route (the Go service's
 * TestMCPToolsMirrorREST, kept by name). The expected hints are the published contract,
 * written out here rather than read from the operation table, so a drift in the table
 * fails this test.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMcp, type ServedMcp } from './served-mcp.js';
import { TOOL_NAMES_REFUSAL } from '../../src/core/toolset/toolset-grammar.js';

// [readOnlyHint, destructiveHint, idempotentHint, openWorldHint]
const HINTS: Record<string, [boolean, boolean, boolean, boolean]> = {
  get_info: [true, false, false, false],
  list_agents: [true, false, false, false],
  get_agent: [true, false, false, false],
  get_agent_status: [true, false, false, false],
  list_model_configs: [true, false, false, false],
  list_harnesses: [true, false, false, false],
  validate_agent: [true, false, false, true],
  list_skills: [true, false, false, true],
  create_agent: [false, false, false, true],
  update_agent: [false, true, false, true],
  delete_agent: [false, true, false, false],
  list_agent_revisions: [true, false, false, false],
  get_agent_revision: [true, false, false, false],
  rollback_agent: [false, true, false, true],
  wait_for_agent: [true, false, false, false],
  start_session: [false, false, false, true],
  send_message: [false, false, false, true],
  list_sessions: [true, false, false, false],
  get_session: [true, false, false, false],
  plan_migration: [true, false, false, false],
};

const WRITES = new Set(['create_agent', 'update_agent', 'rollback_agent', 'start_session', 'send_message']);

describe('MCP tools over streamable HTTP (TestMCPToolsMirrorREST)', () => {
  let served: ServedMcp;
  let client: Client;

  beforeAll(async () => {
    served = await serveMcp('mirror-test');
    ({ client } = served);
  });

  afterAll(() => served?.close());

  async function call(
    name: string, args: Record<string, unknown> = {},
  ): Promise<{ text: string; isError: boolean; json?: unknown }> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.content).toHaveLength(1);
    const text = (result.content[0] as { text: string }).text;
    if (result.isError) return { text, isError: true };
    expect(result.structuredContent).toEqual(JSON.parse(text));
    return { text, isError: false, json: JSON.parse(text) };
  }

  it('lists exactly the twenty tools, each described with the read/write prefix and all four hints', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(HINTS).sort());
    for (const tool of tools) {
      const [readOnlyHint, destructiveHint, idempotentHint, openWorldHint] = HINTS[tool.name]!;
      expect(tool.annotations, tool.name).toEqual({
        title: tool.title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint,
      });
      if (tool.name === 'delete_agent') expect(tool.description).toMatch(/^WRITES \(destructive\): /);
      else if (WRITES.has(tool.name)) expect(tool.description).toMatch(/^WRITES: /);
      else if (tool.name === 'validate_agent') expect(tool.description).toMatch(/^Read-only dry run of create_agent/);
      else expect(tool.description).toMatch(/^Read-only\. /);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties).toBe(false);
    }
  });

  it('advertises every seconds argument as a whole number with its range and default, as the REST contract does', async () => {
    const { tools } = await client.listTools();
    const property = (tool: string, name: string) =>
      (tools.find((t) => t.name === tool)!.inputSchema.properties as Record<string, object>)[name];
    expect(property('wait_for_agent', 'timeoutSeconds')).toMatchObject({ type: 'integer', minimum: 1, maximum: 600, default: 60 });
    for (const tool of ['create_agent', 'update_agent']) {
      expect(property(tool, 'wait'), tool).toMatchObject({ type: 'integer', minimum: 0, maximum: 600, default: 0 });
    }
  });

  it('declares no removed argument in any input schema, and still refuses toolNames in today\'s words', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(JSON.stringify(tool.inputSchema), tool.name).not.toContain('toolNames');
    for (const tool of ['create_agent', 'update_agent']) {
      const { text, isError } = await call(tool, { name: 'sre', modelConfig: 'default-model-config', toolNames: ['kubectl'] });
      expect(isError, tool).toBe(true);
      expect(text, tool).toContain(TOOL_NAMES_REFUSAL);
    }
  });

  it('get_info reports the ServiceAccount identity as pretty JSON', async () => {
    const { text, isError } = await call('get_info');
    expect(isError).toBe(false);
    expect(text).toContain('"identity": "serviceAccount"');
    expect(text).toContain('"writesAsCaller": false');
  });

  it('list_model_configs lists the seeded ModelConfigs', async () => {
    const { json } = await call('list_model_configs');
    expect((json as { modelConfigs: Array<{ name: string }> }).modelConfigs.map((m) => m.name)).toEqual(['default-model-config', 'qwen3-8-27b']);
  });

  it.each([
    ['an unknown ModelConfig', { name: 'helper', modelConfig: 'nope', toolset: ['preset:none'] },
      'invalid_request: invalid request: modelConfig "nope" does not exist in namespace kagent; valid: default-model-config, qwen3-8-27b'],
    ['an unknown argument', { name: 'helper', modelConfig: 'default-model-config', toolset: ['preset:none'], colour: 'red' },
      'invalid_request: invalid request: unknown field "colour"'],
    ['a missing name', { modelConfig: 'default-model-config' }, 'invalid_request: invalid request: name is required'],
    ['a name that is not a DNS-1123 label', { name: 'Helper_1', modelConfig: 'default-model-config', toolset: ['preset:none'] },
      'invalid_request: invalid request: '],
  ])('create_agent refuses %s as an invalid_request tool error', async (_case, args, prefix) => {
    const { text, isError } = await call('create_agent', args);
    expect(isError).toBe(true);
    expect(text.startsWith(prefix), text).toBe(true);
  });

  describe('one agent through its life', () => {
    it('create_agent writes the release and stores a gitRef with its derived name', async () => {
      const { json, isError, text } = await call('create_agent', {
        name: 'helper', modelConfig: 'default-model-config', displayName: 'Helper', toolset: ['preset:read-only'],
        skills: { gitRefs: [{ url: 'https://github.com/giantswarm/agent-skills', path: 'skills/kubernetes', ref: 'main' }] },
      });
      expect(isError, text).toBe(false);
      const result = json as {
        created: Record<string, boolean>;
        manifests: { values: { skills: { gitRefs: Array<Record<string, string>> } } };
      };
      expect(result.created).toEqual({ ociRepository: false, helmRelease: true });
      expect(result.manifests.values.skills.gitRefs).toEqual([
        { url: 'https://github.com/giantswarm/agent-skills', path: 'skills/kubernetes', ref: 'main', name: 'kubernetes' },
      ]);
    });

    it('create_agent of the same name is a conflict', async () => {
      const { text, isError } = await call('create_agent', { name: 'helper', modelConfig: 'default-model-config', toolset: ['preset:none'] });
      expect(isError).toBe(true);
      expect(text).toMatch(/^conflict: conflict: /);
    });

    it('list_agents and get_agent read it back', async () => {
      const { json: list } = await call('list_agents');
      expect((list as { agents: Array<{ name: string }> }).agents.map((a) => a.name)).toEqual(['helper']);
      const { json } = await call('get_agent', { name: 'helper' });
      expect(json).toMatchObject({ name: 'helper', namespace: 'kagent', displayName: 'Helper', managed: 'helmrelease' });
    });

    it('list_agents with details: false answers summary rows', async () => {
      const { json } = await call('list_agents', { details: false });
      const [row] = (json as { agents: Array<Record<string, unknown>> }).agents;
      expect(row).toMatchObject({ name: 'helper', displayName: 'Helper', modelConfig: 'default-model-config', toolset: ['preset:read-only'] });
      expect(row).not.toHaveProperty('values');
      expect(row).not.toHaveProperty('helmRelease');
    });

    it('update_agent with displayName "" clears it and reports it changed', async () => {
      const { json, isError, text } = await call('update_agent', { name: 'helper', displayName: '' });
      expect(isError, text).toBe(false);
      expect((json as { changed: string[] }).changed).toEqual(['agent.displayName']);
    });

    it('validate_agent in update mode with runtime rust is not valid', async () => {
      const { text, isError } = await call('validate_agent', { name: 'helper', update: true, runtime: 'rust' });
      expect(isError).toBe(false);
      expect(text).toContain('"valid": false');
      expect(text).toContain('"mode": "update"');
    });

    it('get_agent_status of a fresh release is progressing', async () => {
      const { json } = await call('get_agent_status', { name: 'helper' });
      expect((json as { verdict: string }).verdict).toBe('progressing');
    });

    it('delete_agent deletes the release and the source nothing else uses', async () => {
      const { text, isError } = await call('delete_agent', { name: 'helper' });
      expect(isError, text).toBe(false);
      expect(text).toContain('"helmReleaseDeleted": true');
      expect(text).toContain('"ociRepositoryDeleted": true');
    });

    it('get_agent after the delete is not_found', async () => {
      const { text, isError } = await call('get_agent', { name: 'helper' });
      expect(isError).toBe(true);
      expect(text).toMatch(/^not_found: not found: /);
    });
  });

  it('list_skills without repositories is unsupported', async () => {
    const { text, isError } = await call('list_skills');
    expect(isError).toBe(true);
    expect(text).toBe('unsupported: unsupported: no skill repositories are configured');
  });

  it('a namespace outside the managed set is refused with the managed ones named', async () => {
    const { text, isError } = await call('list_agents', { namespace: 'kube-system' });
    expect(isError).toBe(true);
    expect(text).toBe('invalid_request: invalid request: namespace "kube-system" is not managed by agent-manager (managed: kagent, tenant)');
  });
});
