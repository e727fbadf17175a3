import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  OPERATIONS, openApiPath, operationByTool, operationId, specToUpdate, type OperationService, type ToolHints,
} from './operations.js';
import type { RequestContext } from '../identity/caller.js';
import { pino } from 'pino';

const TOOLS = [
  'get_info', 'list_agents', 'get_agent', 'create_agent', 'update_agent', 'delete_agent', 'get_agent_status',
  'validate_agent', 'list_model_configs', 'list_harnesses', 'list_skills', 'list_agent_revisions', 'get_agent_revision', 'rollback_agent',
  'wait_for_agent', 'start_session', 'send_message', 'list_sessions', 'get_session', 'plan_migration',
];

// The four-hint table, written out again on purpose.
const WANT_HINTS: Record<string, [boolean, boolean, boolean, boolean]> = {
  get_info: [true, false, false, false],
  list_agents: [true, false, false, false],
  get_agent: [true, false, false, false],
  get_agent_status: [true, false, false, false],
  list_model_configs: [true, false, false, false],
  list_harnesses: [true, false, false, false],
  plan_migration: [true, false, false, false],
  validate_agent: [true, false, false, true],
  list_skills: [true, false, false, true],
  create_agent: [false, false, false, true],
  update_agent: [false, true, false, true],
  delete_agent: [false, true, false, false],
  list_agent_revisions: [true, false, false, false],
  get_agent_revision: [true, false, false, false],
  rollback_agent: [false, true, false, true],
  wait_for_agent: [true, false, false, false],
  // The turns spend the agent's model tokens and may act through its tools; the reads change nothing.
  start_session: [false, false, false, true],
  send_message: [false, false, false, true],
  list_sessions: [true, false, false, false],
  get_session: [true, false, false, false],
};

const asTuple = (h: ToolHints) => [h.readOnlyHint, h.destructiveHint, h.idempotentHint, h.openWorldHint];

describe('the operation table', () => {
  it('holds the ten agent tools and list_harnesses in their documented order, then the three history tools, wait_for_agent, the four session tools and plan_migration', () => {
    expect(OPERATIONS.map((o) => o.tool)).toEqual(TOOLS);
  });

  it.each(TOOLS)('sets all four hints of %s as the newest original does', (tool) => {
    expect(asTuple(operationByTool(tool)!.annotations)).toEqual(WANT_HINTS[tool]);
  });

  it.each(OPERATIONS.map((o) => [o.tool, o] as const))('starts the description of %s with its read/write marker', (tool, o) => {
    if (tool === 'validate_agent') expect(o.description).toMatch(/^Read-only dry run of create_agent/);
    else if (tool === 'delete_agent') expect(o.description).toMatch(/^WRITES \(destructive\): /);
    else if (o.annotations.readOnlyHint) expect(o.description).toMatch(/^Read-only\. /);
    else expect(o.description).toMatch(/^WRITES: /);
  });

  it('gives every operation a title, and every argument a description', () => {
    for (const o of OPERATIONS) {
      expect(o.title).not.toBe('');
      const json = z.toJSONSchema(o.input, { io: 'input' }) as { properties?: Record<string, { description?: string }> };
      for (const [field, schema] of Object.entries(json.properties ?? {})) {
        expect(schema.description, `${o.tool}.${field}`).toBeTruthy();
      }
    }
  });

  it('refuses unknown fields in every input schema', () => {
    for (const o of OPERATIONS) {
      const result = o.input.safeParse({ name: 'x', modelConfig: 'm', surprise: 1 });
      expect(result.success, o.tool).toBe(false);
      expect(result.error!.issues.some((i) => i.code === 'unrecognized_keys')).toBe(true);
    }
  });

  it('offers organization and cluster on the agent tools but on no session tool, which would ignore them', () => {
    const sessionTools = ['start_session', 'send_message', 'list_sessions', 'get_session'];
    for (const o of OPERATIONS) {
      const takes = Object.keys(o.input.shape);
      const targeted = takes.includes('organization') && takes.includes('cluster');
      if (sessionTools.includes(o.tool)) expect(takes, o.tool).not.toContain('organization');
      if (o.tool === 'get_agent' || o.tool === 'wait_for_agent') expect(targeted, o.tool).toBe(true);
    }
  });

  it('requires toolset on create only through the service, whose description says REQUIRED', () => {
    const create = operationByTool('create_agent')!;
    expect(create.input.safeParse({ name: 'a', modelConfig: 'm' }).success).toBe(true);
    const json = z.toJSONSchema(create.input, { io: 'input' }) as {
      required: string[]; properties: Record<string, { description: string; enum?: string[] }>;
    };
    expect(json.required.sort()).toEqual(['modelConfig', 'name']);
    expect(json.properties.toolset!.description).toMatch(/^REQUIRED\./);
    expect(json.properties.runtime!.enum).toEqual(['go', 'python']);
    expect(create.input.safeParse({ name: 'a', modelConfig: 'm', toolNames: ['x'] }).success).toBe(true);
  });

  it('names REST paths, ids and statuses', () => {
    const rows = OPERATIONS.map((o) => `${o.rest.method.toUpperCase()} ${openApiPath(o)} ${o.rest.status} ${operationId(o)}`);
    expect(rows).toEqual([
      'GET /api/v1/info 200 getInfo',
      'GET /api/v1/agents 200 listAgents',
      'GET /api/v1/agents/{namespace}/{name} 200 getAgent',
      'POST /api/v1/agents 201 createAgent',
      'PATCH /api/v1/agents/{namespace}/{name} 200 updateAgent',
      'DELETE /api/v1/agents/{namespace}/{name} 200 deleteAgent',
      'GET /api/v1/agents/{namespace}/{name}/status 200 getAgentStatus',
      'POST /api/v1/agents/validate 200 validateAgent',
      'GET /api/v1/modelconfigs 200 listModelConfigs',
      'GET /api/v1/harnesses 200 listHarnesses',
      'GET /api/v1/skills 200 listSkills',
      'GET /api/v1/agents/{namespace}/{name}/revisions 200 listAgentRevisions',
      'GET /api/v1/agents/{namespace}/{name}/revisions/{revision} 200 getAgentRevision',
      'POST /api/v1/agents/{namespace}/{name}/rollback 200 rollbackAgent',
      'GET /api/v1/agents/{namespace}/{name}/wait 200 waitForAgent',
      'POST /api/v1/agents/{namespace}/{name}/sessions 201 startSession',
      'POST /api/v1/agents/{namespace}/{name}/sessions/{sessionId}/messages 200 sendMessage',
      'GET /api/v1/agents/{namespace}/{name}/sessions 200 listSessions',
      'GET /api/v1/agents/{namespace}/{name}/sessions/{sessionId} 200 getSession',
      'POST /api/v1/migrations 200 planMigration',
    ]);
  });
});

describe('specToUpdate', () => {
  it('drops empty strings of an update, so REST validate cannot clear', () => {
    expect(specToUpdate({ name: 'a', update: true, displayName: '', description: 'd', labels: {} }))
      .toEqual({ name: 'a', update: true, description: 'd', labels: {} });
  });

  it('leaves a create dry run as it is', () => {
    expect(specToUpdate({ name: 'a', displayName: '' })).toEqual({ name: 'a', displayName: '' });
  });
});

describe('validate_agent run', () => {
  const ctx: RequestContext = { requestId: 'r', log: pino({ level: 'silent' }) };
  const calls: unknown[] = [];
  const service = {
    validateAgent: async (_ctx: RequestContext, request: unknown) => { calls.push(request); return {}; },
  } as unknown as OperationService;
  const validate = operationByTool('validate_agent')!;

  it('binds an update with force, and a create with an empty modelConfig when none is given', async () => {
    calls.length = 0;
    await validate.run(service, ctx, { name: 'a', update: true, force: true, displayName: '' });
    await validate.run(service, ctx, { name: 'a', toolset: ['preset:none'] });
    expect(calls).toEqual([
      { mode: 'update', update: { name: 'a', displayName: '', force: true } },
      { mode: 'create', spec: { name: 'a', toolset: ['preset:none'], modelConfig: '' } },
    ]);
  });
});
