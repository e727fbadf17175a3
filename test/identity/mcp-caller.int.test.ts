/**
 * The caller through MCP with the SDK's own client: the id_token rides in a custom
 * `Authorization` header (`requestInit`), as muster forwards it, and every tool call of
 * that connection is made as that person against the sandbox API server (OIDC and RBAC
 * on). Without a token the client cannot even initialize: 401, and no API request.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HR, SERVICE_ACCOUNT, spec, startIdentityStack, type IdentityStack } from './stack.js';

let stack: IdentityStack;
const clients: Client[] = [];
beforeAll(async () => {
  stack = await startIdentityStack();
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  stack.fixture.sandbox.counters.reset();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** An SDK client on /mcp, sending `token` (if any) as its bearer. */
async function connect(token?: string): Promise<Client> {
  const client = new Client({ name: 'identity-test', version: '1.0.0' });
  clients.push(client);
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp`), { requestInit: { headers } }));
  return client;
}

async function call(
  client: Client, name: string, args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { text: (result.content[0] as { text: string }).text, isError: result.isError === true };
}

describe('MCP tools/call as the caller', () => {
  it('reports identity caller and writesAsCaller in get_info', async () => {
    const client = await connect(await stack.tokenFor('bob'));
    const info = await call(client, 'get_info');
    expect(info.isError).toBe(false);
    expect(JSON.parse(info.text)).toMatchObject({ identity: 'caller', capabilities: { writesAsCaller: true } });
  });

  it('creates alice\'s agent as alice and names her in the result', async () => {
    const client = await connect(await stack.tokenFor('alice'));
    const created = await call(client, 'create_agent', spec('mcp-alice'));
    expect(created.isError).toBe(false);
    expect(JSON.parse(created.text)).toMatchObject({ requestedBy: 'alice@lab.local' });
    const { counters } = stack.fixture.sandbox;
    expect(counters.count({ verb: 'create', resource: HR, user: 'alice@lab.local' })).toBe(1);
    expect(counters.count({ user: SERVICE_ACCOUNT })).toBe(0);
    expect(stack.hrExists('mcp-alice')).toBe(true);
  });

  it('answers bob\'s create with a forbidden tool error carrying the API server\'s message, and writes nothing', async () => {
    const client = await connect(await stack.tokenFor('bob'));
    const created = await call(client, 'create_agent', spec('mcp-bob'));
    expect(created.isError).toBe(true);
    expect(created.text).toMatch(/^forbidden: forbidden: /);
    expect(created.text).toContain('is forbidden: User "bob@lab.local" cannot create resource');
    expect(stack.hrExists('mcp-bob')).toBe(false);
  });

  it('cannot initialize without a token: 401, and the API server sees nothing', async () => {
    const presented = stack.witness.tokens.length;
    const refusal = connect();
    await expect(refusal).rejects.toMatchObject({ code: 401 });
    await expect(refusal).rejects.toThrow(/where to sign in: http:\/\/localhost:8080\/\.well-known\/oauth-protected-resource\/mcp/);
    expect(stack.fixture.sandbox.counters.snapshot().total).toBe(0);
    expect(stack.witness.tokens.length).toBe(presented);
  });

  it('cannot initialize with a token for another audience, whose description names it', async () => {
    const refusal = connect(await stack.tokenFor('alice', { aud: 'someone-else' }));
    await expect(refusal).rejects.toMatchObject({ code: 401 });
    await expect(refusal).rejects.toThrow(/token audience \[someone-else\] matches none of the trusted audiences \[agent-platform\]/);
    expect(stack.fixture.sandbox.counters.snapshot().total).toBe(0);
  });
});
