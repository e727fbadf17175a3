/**
 * The muster double, driven through the MCP SDK's own client over streamable HTTP as agent-manager drives
 * muster: the presets resolve over the fixed catalogue and overlap as muster's do, servers needing sign-in
 * are reported per person, filter_tools pages, an unknown token is a 401 with WWW-Authenticate, and the
 * double can answer errors or stop.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMuster, type Muster } from '../src/index.js';

let muster: Muster;
const clients: Client[] = [];

beforeAll(async () => {
  muster = await startMuster({ tokens: { 'jane-token': 'jane', 'joe-token': 'joe' }, signedIn: { joe: ['github'] } });
});
afterEach(() => {
  muster.fault = undefined;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await muster.stop();
});

async function session(token = 'jane-token', m = muster): Promise<Client> {
  const client = new Client({ name: 'muster-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(m.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return client;
}

async function filter(client: Client, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }> {
  const result = await client.callTool({ name: 'filter_tools', arguments: args });
  const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
  return { isError: result.isError === true, body: result.isError ? text : JSON.parse(text) };
}

const names = (body: any): string[] => body.tools.map((t: { name: string }) => t.name);

describe('the muster double', () => {
  it('resolves preset:read-only to the tools marked read-only, core and agent-platform ones included', async () => {
    const { body } = await filter(await session(), { toolset: ['preset:read-only'], limit: 200 });
    expect(names(body)).toEqual(['core_service_list', 'core_workflow_list', 'workflow_incident-triage',
      'x_agent-manager_get_agent', 'x_agent-manager_list_agents', 'x_kagent_list_agent_instances',
      'x_kubernetes_get', 'x_kubernetes_list', 'x_kubernetes_logs', 'x_prometheus_query']);
    expect(body.tools[0]).toEqual({ name: 'core_service_list', description: 'List the MCP servers', kind: 'core',
      annotations: { readOnlyHint: true, destructiveHint: false } });
    expect(body.toolset).toEqual(['preset:read-only']);
    // Its readOnly rule could select the signed-out server's tools once listed.
    expect(body.toolset_requiring_auth).toEqual([{ name: 'github', auth_tool: 'core_auth_login', tool_prefix: 'x_github_' }]);
  });

  it('overlaps preset:agent-platform with read-only on the read-only platform and core tools', async () => {
    const { body } = await filter(await session(), { toolset: ['preset:agent-platform'], limit: 200 });
    expect(names(body)).toEqual(['core_auth_login', 'core_service_list', 'core_workflow_delete', 'core_workflow_list',
      'x_agent-manager_create_agent', 'x_agent-manager_delete_agent', 'x_agent-manager_get_agent',
      'x_agent-manager_list_agents', 'x_kagent_invoke_agent_instance', 'x_kagent_list_agent_instances']);
    expect(body.toolset_requiring_auth).toBeUndefined();
  });

  it('resolves infrastructure by label, none to nothing (never unmatched) and full to the caller\'s catalogue', async () => {
    const client = await session();
    expect(names((await filter(client, { toolset: ['preset:infrastructure'] })).body)).toEqual(['x_kubernetes_apply',
      'x_kubernetes_delete', 'x_kubernetes_get', 'x_kubernetes_list', 'x_kubernetes_logs', 'x_prometheus_query',
      'x_prometheus_query_range']);
    const none = (await filter(client, { toolset: ['preset:none'] })).body;
    expect([none.tools, none.toolset_unmatched]).toEqual([[], undefined]);
    const full = (await filter(client, { toolset: ['preset:full'], limit: 200 })).body;
    expect(full.total).toBe(full.total_tools);
    expect(full.tools.find((t: { name: string }) => t.name === 'x_prometheus_query_range'))
      .toEqual({ name: 'x_prometheus_query_range', description: 'prometheus: query_range', server: 'prometheus', kind: 'tool' });
    expect(names(full)).toContain('x_kagent_invoke_agent_instance');
  });

  it('lists a sign-in server only for a person who signed in to it, and names it for the others', async () => {
    const jane = (await filter(await session(), { toolset: ['server:github', 'tool:x_kubernetes_get'] })).body;
    expect(names(jane)).toEqual(['x_kubernetes_get']);
    expect(jane.toolset_unmatched).toEqual(['server:github']);
    expect(jane.toolset_requiring_auth.map((s: { name: string }) => s.name)).toEqual(['github']);
    expect(jane.servers_requiring_auth).toEqual([{ name: 'github', status: 'Auth Required', auth_tool: 'core_auth_login' }]);
    const joe = (await filter(await session('joe-token'), { toolset: ['server:github'] })).body;
    expect(names(joe)).toEqual(['x_github_create_issue', 'x_github_get_issue']);
    expect(joe.toolset_requiring_auth).toBeUndefined();
  });

  it('answers as the person the bearer names', async () => {
    const before = muster.calls.length;
    await filter(await session('joe-token'), { toolset: ['preset:none'] });
    expect(muster.calls.slice(before)).toEqual([{ subject: 'joe', tool: 'filter_tools',
      arguments: { toolset: ['preset:none'] } }]);
  });

  it('pages with limit and offset, truncated until the last page', async () => {
    const client = await session();
    const whole = names((await filter(client, { toolset: ['preset:full'], limit: 200 })).body);
    const paged: string[] = [];
    for (let offset = 0; ; offset += 4) {
      const { body } = await filter(client, { toolset: ['preset:full'], limit: 4, offset });
      paged.push(...names(body));
      expect(body.filters).toMatchObject({ limit: 4, offset });
      if (!body.truncated) break;
    }
    expect(paged).toEqual(whole);
  });

  it.each([
    [['preset:foo'], 'toolset [preset:foo] names unknown preset "foo"; known presets: read-only, none, full, ' +
      'agent-platform, infrastructure'],
    [[], 'toolset [] is empty; use "preset:none" for an agent without tools'],
    [['label:a=b'], 'toolset [label:a=b] selector "label:a=b" is allowed inside presets only'],
    ['preset:read-only', 'toolset must be an array of selector strings'],
  ])('refuses the toolset %j in muster\'s words', async (toolset, text) => {
    expect(await filter(await session(), { toolset })).toEqual({ isError: true, body: text });
  });

  it('answers an unknown token 401 with WWW-Authenticate, and the SDK client fails on it', async () => {
    const res = await fetch(muster.url, { method: 'POST', headers: { authorization: 'Bearer nobody',
      'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${new URL(muster.url).origin}` +
      '/.well-known/oauth-protected-resource/mcp", error="invalid_token"');
    const failed = await session('nobody').catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(StreamableHTTPError);
    expect((failed as StreamableHTTPError).code).toBe(401);
  });

  it('answers errors when told to: error results, or HTTP 500', async () => {
    const client = await session();
    muster.fault = 'tool-error';
    expect(await filter(client, { toolset: ['preset:read-only'] }))
      .toEqual({ isError: true, body: 'muster failed on purpose (the double was told to)' });
    muster.fault = 'http-error';
    expect(((await session().catch((err: unknown) => err)) as StreamableHTTPError).code).toBe(500);
  });

  it('refuses connections once stopped', async () => {
    const stopped = await startMuster();
    await filter(await session(stopped.token, stopped), { toolset: ['preset:none'] });
    await stopped.stop();
    await expect(fetch(stopped.url, { method: 'POST' })).rejects.toThrow();
  });
});
