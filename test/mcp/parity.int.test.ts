/**
 * REST ≡ MCP: the same script of operations runs through both transports, each on a
 * fixture of its own started the same way (a seeded sandbox and a real AgentService),
 * and every step must give the same JSON: a success body equals the tool's JSON text and
 * structuredContent; an error body `{"error":{"code","message"}}` equals the tool error
 * `"<code>: <message>"`. The REST request of a step is built from the operation table
 * (method, path parameters, query parameters, body), so the test also checks the table's
 * REST bindings against its tools. The two transports take each step at once (on their own
 * fixtures); the timed-out waits and the refusals run beside the script, the one test that
 * creates an agent in kagent after it.
 *
 * Where the two transports differ on purpose, the difference is asserted as such:
 * - a schema-invalid argument is `invalid_request` on both, worded for each audience
 *   (REST keeps the Go JSON decoder's text; MCP lists the arguments the tool takes);
 * - REST validate with `update: true` reads "" as "not given" (the Go `SpecToUpdate`),
 *   where the MCP tool binds it as "clear".
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { silentLogger } from '../../src/log/logger.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { seedModelConfig } from '../support/service/seed-agents.js';
import { createApp } from '../../src/app.js';
import { OPERATIONS, operationByTool } from '../../src/transport/operations.js';
import { serveApp, type ServedApp } from '../support/transport/serve-app.js';

type Args = Record<string, unknown>;

/** What a step answered, in one shape for both transports. */
type Outcome = { ok: true; value: unknown } | { ok: false; code: string; message: string };

interface Side {
  fixture: ServiceFixture;
  server: ServedApp;
  base: string;
}

const SPEC = { name: 'parity', namespace: 'kagent', modelConfig: 'default-model-config', toolset: ['preset:none'] };

/** The script: every tool at least once, successes and refusals, in an order that builds on itself. */
const SCRIPT: Array<[tool: string, args: Args]> = [
  ['get_info', {}],
  ['list_model_configs', {}],
  ['list_model_configs', { namespace: 'tenant' }],
  ['list_harnesses', {}],
  ['list_harnesses', { namespace: 'nope' }],
  ['plan_migration', { namespace: 'kagent', dryRun: true }],
  ['plan_migration', { namespace: 'kagent' }],
  ['list_agents', {}],
  ['validate_agent', { ...SPEC, displayName: 'Parity' }],
  ['validate_agent', { ...SPEC, modelConfig: 'nope', runtime: 'rust' }],
  ['create_agent', { ...SPEC, displayName: 'Parity', dryRun: true }],
  ['create_agent', { ...SPEC, displayName: 'Parity', description: 'first' }],
  ['create_agent', { ...SPEC }],
  ['create_agent', { ...SPEC, name: 'Not_A_Label' }],
  ['get_agent', { name: 'parity', namespace: 'kagent' }],
  ['list_agents', { namespace: 'kagent' }],
  ['update_agent', { name: 'parity', namespace: 'kagent', description: 'second', toolset: ['preset:read-only'] }],
  ['list_agent_revisions', { name: 'parity', namespace: 'kagent' }],
  ['get_agent_revision', { name: 'parity', namespace: 'kagent', revision: 1 }],
  ['get_agent_revision', { name: 'parity', namespace: 'kagent', revision: 9 }],
  ['rollback_agent', { name: 'parity', namespace: 'kagent', revision: 9 }],
  ['rollback_agent', { name: 'parity', namespace: 'kagent', revision: 1 }],
  ['rollback_agent', { name: 'parity', namespace: 'kagent', revision: 1, mode: 'commit' }],
  ['rollback_agent', { name: 'parity', namespace: 'kagent', revision: 1, branch: 'main' }],
  ['update_agent', { name: 'parity', namespace: 'kagent', description: 'proposed', mode: 'commit' }],
  ['list_agent_revisions', { name: 'nope', namespace: 'kagent' }],
  ['update_agent', { name: 'parity', namespace: 'kagent', modelConfig: 'nope' }],
  ['update_agent', { name: 'parity', namespace: 'kagent', description: 'draft', dryRun: true }],
  ['update_agent', { name: 'parity', namespace: 'kagent', description: 'stale', version: '1-00000000' }],
  ['delete_agent', { name: 'parity', namespace: 'kagent', version: '1-00000000' }],
  ['delete_agent', { name: 'parity', namespace: 'kagent', dryRun: true }],
  ['validate_agent', { name: 'parity', namespace: 'kagent', update: true, runtime: 'rust' }],
  ['get_agent_status', { name: 'parity', namespace: 'kagent' }],
  ['update_agent', { name: 'parity', namespace: 'kagent', description: 'waited', wait: 5, dryRun: true }],
  ['create_agent', { ...SPEC, name: 'parity-waited', wait: 601 }],
  ['wait_for_agent', { name: 'parity', namespace: 'kagent', timeoutSeconds: 601 }],
  ['list_skills', {}],
  ['delete_agent', { name: 'parity', namespace: 'kagent' }],
  ['delete_agent', { name: 'parity', namespace: 'kagent' }],
  ['get_agent', { name: 'parity', namespace: 'kagent' }],
  ['get_agent_status', { name: 'parity', namespace: 'kagent' }],
  ['wait_for_agent', { name: 'parity', namespace: 'kagent' }],
  ['wait_for_agent', { name: 'parity', namespace: 'kagent', until: 'deleted' }],
  ['list_agents', { namespace: 'kube-system' }],
  // This fixture offers no A2A endpoint: the session tools are 501 on both (their turns are test/sessions').
  ['start_session', { name: 'parity', namespace: 'kagent', message: 'hi', requestId: 'p-1' }],
  ['send_message', { name: 'parity', namespace: 'kagent', sessionId: 's-1', message: 'hi' }],
  ['list_sessions', { name: 'parity', namespace: 'kagent' }],
  ['get_session', { name: 'parity', namespace: 'kagent', sessionId: 's-1' }],
];

/**
 * The waits that run out of time (a second each, the least they take), each on an agent of its
 * own in tenant, beside each other and the script (whose list steps read kagent). Without
 * controllers an agent stays progressing.
 */
const timed = (name: string, wait: [tool: string, args: Args]): Array<[tool: string, args: Args]> => [
  ['create_agent', { ...SPEC, name, namespace: 'tenant' }],
  wait,
  ['delete_agent', { name, namespace: 'tenant' }],
];
const TIMED_WAIT = timed('parity-timed-out', ['wait_for_agent', { name: 'parity-timed-out', namespace: 'tenant', timeoutSeconds: 1 }]);
const TIMED_WRITE = timed('parity-written', ['update_agent', { name: 'parity-written', namespace: 'tenant', description: 'waited', wait: 1 }]);

async function startSide(): Promise<Side> {
  const fixture = await startServiceFixture();
  // For the timed script's agent in tenant (which the script's list_model_configs then lists).
  seedModelConfig(fixture.sandbox, 'tenant', 'default-model-config');
  const app = createApp({ service: fixture.service, log: silentLogger(), version: 'test' });
  const server = await serveApp(app);
  return { fixture, server, base: server.url };
}

async function stopSide(side: Side | undefined): Promise<void> {
  if (!side) return;
  await side.server.close();
  await side.fixture.close();
}

/** The REST request of a step, from the operation's REST binding. */
function restRequest(base: string, tool: string, args: Args): { url: string; init: RequestInit } {
  const operation = operationByTool(tool)!;
  const rest = operation.rest;
  const restArgs = { ...args };
  // REST names the agent's namespace in the path; the MCP tool defaults it.
  const path = rest.path.replace(/:(\w+)/g, (_m, name: string) => {
    const value = restArgs[name] ?? (name === 'namespace' ? 'kagent' : '');
    delete restArgs[name];
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const name of Object.keys(rest.query ?? {})) {
    if (restArgs[name] === undefined) continue;
    query.set(name, String(restArgs[name]));
    delete restArgs[name];
  }
  const url = `${base}/api/v1${path}${query.size > 0 ? `?${query}` : ''}`;
  const headers: Record<string, string> = {};
  // REST carries the precondition as If-Match, the MCP tool as the version argument.
  if (rest.ifMatch && restArgs.version !== undefined) {
    headers['if-match'] = `"${String(restArgs.version)}"`;
    delete restArgs.version;
  }
  const init: RequestInit = { method: rest.method.toUpperCase(), headers };
  if (rest.body) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(restArgs);
  } else {
    expect(Object.keys(restArgs), `${tool}: arguments REST cannot carry`).toEqual([]);
  }
  return { url, init };
}

async function viaRest(base: string, tool: string, args: Args): Promise<Outcome> {
  const { url, init } = restRequest(base, tool, args);
  const res = await fetch(url, init);
  const body = (await res.json()) as { error?: { code: string; message: string } };
  if (res.ok) {
    const rest = operationByTool(tool)!.rest;
    expect(res.status).toBe(rest.statusOf?.(body) ?? rest.status);
    return { ok: true, value: body };
  }
  return { ok: false, code: body.error!.code, message: body.error!.message };
}

async function viaMcp(client: Client, tool: string, args: Args): Promise<Outcome> {
  const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  if (!result.isError) {
    expect(result.structuredContent).toEqual(JSON.parse(text));
    return { ok: true, value: JSON.parse(text) };
  }
  const colon = text.indexOf(': ');
  return { ok: false, code: text.slice(0, colon), message: text.slice(colon + 2) };
}

/** Times and ids the API server assigns differ between the two fixtures, nothing else may. */
function normalize(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v: unknown) => {
    if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(v)) return '<time>';
    // An agent's version hashes its release's uid, which each fixture's API server makes up.
    if (key === 'uid' || key === 'resourceVersion' || key === 'version') return '<id>';
    if (typeof v === 'string') return v.replace(/\b\d+-[0-9a-f]{8}\b/g, '<version>');
    // How long a wait took is the clock's, not the transport's.
    if (key === 'waitedSeconds' && typeof v === 'number') return '<seconds>';
    return v;
  }) as unknown;
}

describe.concurrent('REST ≡ MCP on the same fixture', () => {
  let rest: Side | undefined;
  let mcp: Side | undefined;
  let client: Client;

  beforeAll(async () => {
    [rest, mcp] = await Promise.all([startSide(), startSide()]);
    client = new Client({ name: 'parity', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${mcp.base}/mcp`)));
  });

  afterAll(async () => {
    await client?.close();
    await Promise.all([stopSide(rest), stopSide(mcp)]);
  });

  it('the script calls every tool of the table', ({ expect }) => {
    const tools = [...SCRIPT, ...TIMED_WAIT, ...TIMED_WRITE].map(([tool]) => tool);
    expect(new Set(tools)).toEqual(new Set(OPERATIONS.map((o) => o.tool)));
  });

  /** Runs a script through both transports; what each step answered (the same on both). */
  const runScript = async (script: typeof SCRIPT, expect: ExpectStatic): Promise<Outcome[]> => {
    const outcomes: Outcome[] = [];
    for (const [index, [tool, args]] of script.entries()) {
      const [viaRestOutcome, viaMcpOutcome] =
        await Promise.all([viaRest(rest!.base, tool, args), viaMcp(client, tool, args)]);
      expect(normalize(viaMcpOutcome), `step ${index + 1}: ${tool} ${JSON.stringify(args)}`).toEqual(normalize(viaRestOutcome));
      outcomes.push(viaRestOutcome);
    }
    return outcomes;
  };

  // The refusals beside it write nothing, so its list steps see the agents it made and no others.
  it('every step answers the same JSON through both transports', async ({ expect }) => {
    await runScript(SCRIPT, expect);
  });

  it('a wait that runs out of time answers the same JSON through both transports', async ({ expect }) => {
    const [waitSteps, writeSteps] = await Promise.all([runScript(TIMED_WAIT, expect), runScript(TIMED_WRITE, expect)]);
    expect(waitSteps).toMatchObject([
      { ok: true }, { ok: true, value: { verdict: 'progressing', timedOut: true } }, { ok: true },
    ]);
    expect(writeSteps).toMatchObject([
      { ok: true }, { ok: true, value: { changed: ['agent.description'], timedOut: true } }, { ok: true },
    ]);
  });

  it('a schema-invalid argument is invalid_request on both, worded for each audience', async ({ expect }) => {
    const args = { name: 'parity', namespace: 'kagent', colour: 'red' };
    const restOutcome = await viaRest(rest!.base, 'update_agent', args);
    const mcpOutcome = await viaMcp(client, 'update_agent', args);
    expect(restOutcome).toEqual({ ok: false, code: 'invalid_request', message: 'invalid request: invalid JSON: json: unknown field "colour"' });
    expect(mcpOutcome).toMatchObject({ ok: false, code: 'invalid_request' });
    expect((mcpOutcome as { message: string }).message).toMatch(/^invalid request: unknown field "colour" \(update_agent takes: name, namespace, /);
  });

  it.for<[string, Args]>([
    ['a NUL in a selector', { toolset: ['tool:a\u0000b'] }],
    ['an ESC in a selector', { toolset: ['preset:none', 'tool:a\u001b[31m'] }],
    ['a selector of 100,000 characters', { toolset: [`tool:${'x'.repeat(99_995)}`] }],
    ['32 selectors of 30,000 characters', { toolset: Array.from({ length: 32 }, (_, i) => `tool:${i}${'y'.repeat(29_990)}`) }],
  ])('refuses %s on both surfaces, in the same words, and writes nothing', async ([_name, bad], { expect }) => {
    const args = { ...SPEC, name: 'unsendable', ...bad };
    const restCreate = await viaRest(rest!.base, 'create_agent', args);
    expect(restCreate).toMatchObject({ ok: false, code: 'invalid_request', message: expect.stringMatching(/^invalid request: toolset selector /) });
    expect(await viaMcp(client, 'create_agent', args)).toEqual(restCreate);
    const restValidate = await viaRest(rest!.base, 'validate_agent', args);
    expect(restValidate).toMatchObject({ ok: true, value: { valid: false, errors: expect.arrayContaining([expect.stringMatching(/^toolset selector /)]) } });
    expect(await viaMcp(client, 'validate_agent', args)).toEqual(restValidate);
    expect(rest!.fixture.sandbox.store.find('helmreleases', 'kagent', 'unsendable')).toBeUndefined();
    expect(mcp!.fixture.sandbox.store.find('helmreleases', 'kagent', 'unsendable')).toBeUndefined();
  });

  it('refuses a git skill name with a NUL on both surfaces, in the same words, and writes nothing', async ({ expect }) => {
    const args = { ...SPEC, name: 'nul-skill', skills: { gitRefs: [{ url: 'https://github.com/giantswarm/agent-skills', name: 'run\u0000books' }] } };
    const restOutcome = await viaRest(rest!.base, 'create_agent', args);
    expect(restOutcome).toEqual({
      ok: false, code: 'invalid_request',
      message: 'invalid request: skills.gitRefs[0].name "run\\x00books" contains a control character; use printable characters only',
    });
    expect(await viaMcp(client, 'create_agent', args)).toEqual(restOutcome);
    expect(rest!.fixture.sandbox.store.find('helmreleases', 'kagent', 'nul-skill')).toBeUndefined();
  });

  it.for<[string, Args, string]>([
    ['a string for the toolset', { toolset: 'preset:none' }, 'field "toolset" must be a list, not a string'],
    ['a number in a label map', { labels: { team: 1 } }, 'field "labels.team" must be a string, not a number'],
    ['an object for a skill ref', { skills: { refs: [{}] } }, 'field "skills.refs[0]" must be a string, not an object'],
  ])('words a wrong type the same on both surfaces: %s', async ([_name, bad, text], { expect }) => {
    const args = { ...SPEC, name: 'typed', ...bad };
    const restOutcome = await viaRest(rest!.base, 'create_agent', args);
    expect(restOutcome).toEqual({ ok: false, code: 'invalid_request', message: `invalid request: invalid JSON: ${text}` });
    expect(await viaMcp(client, 'create_agent', args)).toEqual(restOutcome);
  });

  // After the script: the agents it creates would show in the script's list steps.
  it('REST validate in update mode reads "" as not given, the MCP tool as clear', { concurrent: false }, async ({ expect }) => {
    const create = { ...SPEC, name: 'blank', displayName: 'Blank' };
    await viaRest(rest!.base, 'create_agent', create);
    await viaMcp(client, 'create_agent', create);
    const args = { name: 'blank', namespace: 'kagent', update: true, displayName: '' };
    const restOutcome = (await viaRest(rest!.base, 'validate_agent', args)) as { ok: true; value: { manifests: { values: { agent: Record<string, unknown> } } } };
    const mcpOutcome = (await viaMcp(client, 'validate_agent', args)) as { ok: true; value: { manifests: { values: { agent: Record<string, unknown> } } } };
    expect(restOutcome.value.manifests.values.agent.displayName).toBe('Blank');
    expect(mcpOutcome.value.manifests.values.agent.displayName).toBeUndefined();
  });
});
