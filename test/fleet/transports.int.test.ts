/**
 * An agent on workload cluster alpha through MCP and REST over the production app, and a
 * wait that follows it across both clusters: the release's watch on the management
 * cluster, the Agent's on the workload cluster.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { silentLogger } from '../../src/log/logger.js';
import { eventually } from '../support/eventually.js';
import { startFleet, ORG_NS, TARGET, type Fleet } from './two-sandboxes.js';
import { serveApp, type ServedApp } from '../support/transport/serve-app.js';

let fleet: Fleet;
let server: ServedApp | undefined;
let base = '';
let client: Client;

beforeAll(async () => {
  fleet = await startFleet();
  const app = createApp({ service: fleet.f.service, log: silentLogger(), version: 'test' });
  server = await serveApp(app);
  base = server.url;
  client = new Client({ name: 'fleet-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await fleet?.close();
});

const tool = async (name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]!.text;
  return { isError: result.isError === true, text, json: result.isError ? undefined : JSON.parse(text) };
};

describe('MCP tools on workload cluster alpha', () => {
  it('create_agent, get_agent, list_agents and delete_agent take organization and cluster', async () => {
    const created = await tool('create_agent', { ...TARGET, name: 'mcp-sre', modelConfig: 'default-model-config', toolset: ['preset:read-only'] });
    expect(created.isError).toBe(false);
    expect(fleet.f.sandbox.store.find('helmreleases', ORG_NS, 'alpha-mcp-sre')).toBeDefined();
    const got = await tool('get_agent', { ...TARGET, name: 'mcp-sre' });
    expect(got.json).toMatchObject({ name: 'mcp-sre', organization: 'acme', cluster: 'alpha', helmRelease: { namespace: ORG_NS, name: 'alpha-mcp-sre' } });
    const listed = await tool('list_agents', { ...TARGET });
    expect(listed.json.agents.map((a: { name: string }) => a.name)).toEqual(['mcp-sre']);
    const deleted = await tool('delete_agent', { ...TARGET, name: 'mcp-sre' });
    expect(deleted.json).toMatchObject({ helmReleaseDeleted: true });
    expect(fleet.f.sandbox.store.find('helmreleases', ORG_NS, 'alpha-mcp-sre')).toBeUndefined();
  });

  it('refuses one of the pair with the text that names both', async () => {
    const refused = await tool('get_agent_status', { organization: 'x', name: 'sre' });
    expect(refused).toMatchObject({
      isError: true, text: 'invalid_request: invalid request: a target cluster needs both organization and cluster (got organization "x", cluster "")',
    });
  });
});

describe('REST routes on workload cluster alpha', () => {
  it('reads take organization and cluster as query parameters', async () => {
    await fleet.f.service.createAgent(fleet.f.ctx(), { ...TARGET, name: 'rest-sre', modelConfig: 'default-model-config', toolset: ['preset:read-only'] });
    const res = await fetch(`${base}/api/v1/agents/kagent/rest-sre?organization=acme&cluster=alpha`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'rest-sre', organization: 'acme', cluster: 'alpha' });
    const revisions = await fetch(`${base}/api/v1/agents/kagent/rest-sre/revisions?organization=acme&cluster=alpha`);
    expect(((await revisions.json()) as { revisions: unknown[] }).revisions).toHaveLength(1);
  });

  it('a cluster without organization is a 400 naming both', async () => {
    const res = await fetch(`${base}/api/v1/agents/kagent/rest-sre?cluster=alpha`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message)
      .toBe('invalid request: a target cluster needs both organization and cluster (got organization "", cluster "alpha")');
  });
});

describe('wait_for_agent across both clusters', () => {
  it('ends when the release is gone on the management cluster and the Agent on the workload cluster', async () => {
    await fleet.f.service.createAgent(fleet.f.ctx(), { ...TARGET, name: 'waited', modelConfig: 'default-model-config', toolset: ['preset:read-only'] });
    fleet.alpha.store.create('agents', {
      apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: { name: 'waited', namespace: 'kagent' }, spec: {},
    });
    const waiting = fleet.f.service.waitForAgent(fleet.f.ctx(), { ...TARGET, name: 'waited', until: 'deleted', timeoutSeconds: 20 });
    let settled = false;
    void waiting.finally(() => { settled = true; });
    await fleet.f.service.deleteAgent(fleet.f.ctx(), { ...TARGET, name: 'waited' });
    // The release is gone, the Agent on alpha is not: the wait goes on until it is.
    await eventually(() => (fleet.f.sandbox.store.find('helmreleases', ORG_NS, 'alpha-waited') ? undefined : true), 5_000, 'release gone');
    expect(settled).toBe(false);
    fleet.alpha.store.delete('agents', 'kagent', 'waited');
    const result = await waiting;
    expect(result).toMatchObject({ name: 'waited', namespace: 'kagent', timedOut: false, verdict: 'unknown' });
    expect(result.summary).toMatch(/deleted/);
  });
});
