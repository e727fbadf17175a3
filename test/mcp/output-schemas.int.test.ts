/**
 * Every tool declares the shape of its answer and keeps to it: `tools/list` gives each tool an
 * `outputSchema` (an object at its root, as MCP asks) equal to the success response api/openapi.yaml
 * documents for its operation, and each tool, called through the MCP SDK's own client on a sandbox
 * with controllers, A2A and skill repositories, answers `structuredContent` that the schema accepts.
 * The client checks it too once it has listed the tools (a mismatch fails every MCP suite); this
 * test checks with an Ajv of its own, strict, so the schemas themselves are sound draft-07.
 */
import { readFileSync } from 'node:fs';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSessions } from '../support/service/fixture.js';
import { GitHubSkillCatalog } from '../../src/skills/github-skill-catalog.js';
import { sampleRepositories, startGitHubDouble, type GitHubDouble } from '../support/github/skills-github-double.js';
import { DEFAULT_OPENAPI_PATH } from '../../src/transport/rest/openapi-document.js';
import { OPERATIONS, openApiPath } from '../../src/transport/operations.js';
import { serveMcp, type ServedMcp } from './served-mcp.js';

let served: ServedMcp;
let github: GitHubDouble;
let tools: Tool[];
const ajv = new Ajv({ strict: true, allErrors: true });
const answered = new Set<string>();

beforeAll(async () => {
  github = await startGitHubDouble({ repositories: sampleRepositories() });
  const skills = new GitHubSkillCatalog({
    repositories: ['https://github.com/giantswarm/agent-skills.git', 'https://github.com/giantswarm/private-skills'],
    apiUrl: github.url, retryBaseMs: 1,
  });
  served = await serveMcp('output-schemas-test', {
    sandbox: { controllers: true, reconcileDelayMs: 20 }, sessions: sandboxSessions(), skills,
  });
  ({ tools } = await served.client.listTools());
});
afterAll(async () => {
  await served?.close();
  await github?.close();
});

/** Calls a tool, expects a success and checks its structuredContent against the tool's outputSchema. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = (await served.client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  const schema = tools.find((t) => t.name === name)!.outputSchema!;
  const validate = ajv.compile(schema);
  expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  answered.add(name);
  return result.structuredContent as Record<string, any>;
}

/** A schema without description, example(s) and title, except as field names under properties. */
function shapeOf(node: any, fields = false): any {
  if (Array.isArray(node)) return node.map((n) => shapeOf(n));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node)
    .filter(([k]) => fields || !['description', 'example', 'examples', 'title'].includes(k))
    .map(([k, v]) => [k, shapeOf(v, !fields && (k === 'properties' || k === 'patternProperties'))]));
}

// api/openapi.yaml, parsed once: each parse takes the event loop for a while (and the served app with it).
let openApi: any;

/** A JSON Schema with `#/components/schemas/…` resolved by JSON text substitution, to compare with. */
function documented(tool: string): unknown {
  const document = openApi ??= parse(readFileSync(DEFAULT_OPENAPI_PATH, 'utf8'));
  const operation = OPERATIONS.find((o) => o.tool === tool)!;
  const responses = document.paths[openApiPath(operation)][operation.rest.method].responses;
  const expand = (node: any): any => {
    if (Array.isArray(node)) return node.map(expand);
    if (node === null || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string') {
      const { $ref, ...rest } = node;
      return expand({ ...document.components.schemas[$ref.replace('#/components/schemas/', '')], ...rest });
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expand(v)]));
  };
  const statuses = ['200', '201'].filter((s) => responses[s]);
  const schemas = statuses.map((s) => expand(responses[s].content['application/json'].schema));
  // Where both are documented (a create: 201, or 200 for a dry run), they are the same schema.
  for (const schema of schemas) expect(schema).toEqual(schemas[0]);
  return schemas[0];
}

describe('the tools’ output schemas', () => {
  it('are on every tool, an object at the root, equal to the documented success response', () => {
    expect(tools.map((t) => t.name)).toEqual(OPERATIONS.map((o) => o.tool));
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      // The documented shape; the annotations (field prose) stay in api/openapi.yaml, out of every tools/list.
      expect(tool.outputSchema, tool.name).toEqual(shapeOf(documented(tool.name)));
      expect(JSON.stringify(tool.outputSchema), tool.name).not.toContain('$ref');
    }
  });

  it('accept every tool’s real answer', async () => {
    const agent = { name: 'shaped', namespace: 'kagent' };
    const spec = { ...agent, displayName: 'Shaped', modelConfig: 'default-model-config', toolset: ['preset:none'] };
    await call('get_info');
    await call('list_model_configs');
    await call('list_harnesses');
    await call('list_skills');
    await call('plan_migration', { namespace: 'kagent', dryRun: true });
    await call('validate_agent', spec);
    await call('create_agent', { ...spec, dryRun: true });
    await call('create_agent', spec);
    await call('wait_for_agent', { ...agent, timeoutSeconds: 60 });
    await call('get_agent', agent);
    await call('get_agent_status', agent);
    await call('list_agents', { details: true });
    await call('update_agent', { ...agent, description: 'second' });
    await call('list_agent_revisions', agent);
    await call('get_agent_revision', { ...agent, revision: 1 });
    await call('rollback_agent', { ...agent, revision: 1 });
    await call('validate_agent', { ...agent, update: true, description: 'third' });
    await call('wait_for_agent', { ...agent, timeoutSeconds: 60 });
    const started = await call('start_session', { ...agent, message: 'good morning' });
    await call('send_message', { ...agent, sessionId: started.session.id, message: 'Which tools?' });
    await call('list_sessions', agent);
    await call('get_session', { ...agent, sessionId: started.session.id });
    await call('delete_agent', { ...agent, dryRun: true });
    await call('delete_agent', agent);
    expect([...answered].sort()).toEqual(OPERATIONS.map((o) => o.tool).sort());
  });
});
