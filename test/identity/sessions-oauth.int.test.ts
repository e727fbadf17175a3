/**
 * The session tools under OAuth, through the real app with its bearer guard, a caller
 * provider and the sandbox trusting the issuer: the caller's own id_token is what reaches
 * kagent's A2A endpoint (with the caller as X-User-Id), over REST and over MCP; the
 * ServiceAccount's token never does; another caller does not see the session.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spec, startIdentityStack, type IdentityStack } from './stack.js';

let stack: IdentityStack;
let alice: string;
let carol: string;

const call = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${stack.base}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });

beforeAll(async () => {
  stack = await startIdentityStack({ controllers: true, sessions: true });
  alice = await stack.tokenFor('alice');
  // Another person with the same rights: what separates their sessions is who they are.
  carol = await stack.tokenFor('alice', { sub: 'sub-carol', email: 'carol@lab.local' });
  const created = await call('/agents', alice, { method: 'POST', body: JSON.stringify({ ...spec('oauth-talker'), wait: 60 }) });
  expect(created.status).toBe(201);
});
afterAll(() => stack?.close());

describe('sessions as the caller', () => {
  it('presents the caller\'s id_token and user to kagent over REST, never the ServiceAccount\'s token', async () => {
    const before = stack.fixture.sandbox.a2aRequests.length;
    const res = await call('/agents/kagent/oauth-talker/sessions', alice, { method: 'POST', body: JSON.stringify({ message: 'hi' }) });
    expect(res.status).toBe(201);
    const seen = stack.fixture.sandbox.a2aRequests.slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((r) => r.authorization === `Bearer ${alice}` && r.userId === 'alice@lab.local')).toBe(true);
    expect(
      stack.fixture.sandbox.a2aRequests.some((r) =>
        r.authorization?.includes(stack.fixture.sandbox.serviceAccountToken),
      ),
    ).toBe(false);
  });

  it('does the same over MCP', async () => {
    const client = new Client({ name: 'oauth-sessions', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${alice}` } } }));
    try {
      const before = stack.fixture.sandbox.a2aRequests.length;
      const result = await client.callTool({ name: 'start_session', arguments: { name: 'oauth-talker', message: 'from MCP' } }) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(stack.fixture.sandbox.a2aRequests.slice(before).every((r) => r.authorization === `Bearer ${alice}`)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('keeps one caller\'s sessions from another', async () => {
    const started = await (await call('/agents/kagent/oauth-talker/sessions', alice, { method: 'POST', body: JSON.stringify({ message: 'private' }) })).json() as any;
    const carols = await (await call('/agents/kagent/oauth-talker/sessions', carol)).json() as any;
    expect(carols.sessions.map((s: any) => s.id)).not.toContain(started.session.id);
    expect((await call(`/agents/kagent/oauth-talker/sessions/${started.session.id}`, carol)).status).toBe(404);
    const alices = await (await call('/agents/kagent/oauth-talker/sessions', alice)).json() as any;
    expect(alices.sessions.map((s: any) => s.id)).toContain(started.session.id);
  });
});
