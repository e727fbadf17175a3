/**
 * The two ways a request can reach the Kubernetes API without a token the API server
 * accepts, and what the caller sees:
 *
 * - The token expires between our check and the API server's. Deterministically: our
 *   guard allows 30 s of clock leeway, the sandbox's OIDC authenticator (like
 *   kube-apiserver's go-oidc verifier) allows none on `exp`, so a token that expired 10 s
 *   ago passes our guard and is refused by the API server. The CallerProvider still
 *   presents it (no fallback), the API server's 401 fails the request as `unauthenticated`
 *   with the `invalid_token` challenge, and the log attributes it to the caller.
 * - A request that reaches the CallerProvider with no token at all (the guard configured
 *   to let tokenless requests through): 401 with the documented text, and nothing is sent.
 */
import { duplicateKey } from '../../src/transport/input/duplicate-keys.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_CALLER_TOKEN } from '../../src/kube/providers.js';
import { challengeOf, MCP_HEADERS, request, toolsCall } from './helpers.js';
import { BASE_URL, spec, startIdentityStack, type IdentityStack } from './stack.js';

const now = () => Math.floor(Date.now() / 1000);
// client-node drops the body of a 401 (its generated code throws without one), so the
// message ends in the status only.
const API_REFUSED = "the API server refused the caller's token (401)";

describe('a token that expired after our check (within our leeway, beyond the API server\'s)', () => {
  let stack: IdentityStack;
  beforeAll(async () => {
    stack = await startIdentityStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const justExpired = () => stack.tokenFor('alice', { iat: now() - 600, exp: now() - 10 });

  it('is still presented; the API server\'s 401 fails the REST request with the challenge, attributed to the caller', async () => {
    const token = await justExpired();
    const res = await request(`${stack.base}/api/v1/agents`, { method: 'POST', token, body: spec('expired-write') });
    expect(res.status).toBe(401);
    expect(res.json?.error.code).toBe('unauthenticated');
    expect(res.json?.error.message).toMatch(/^unauthenticated: [a-z]+ [a-z]+ .+: the API server refused the caller's token \(401\)/);
    expect(challengeOf(res)).toMatchObject({
      resource_metadata: `${BASE_URL}/.well-known/oauth-protected-resource`, error: 'invalid_token',
    });
    expect(challengeOf(res).error_description).toContain(API_REFUSED);
    expect(stack.witness.tokens).toContain(token);
    expect(stack.hrExists('expired-write')).toBe(false);

    const expiredLine = stack.logs.lines.find((l) => String(l.msg).startsWith('caller token expired'));
    expect(expiredLine).toMatchObject({ level: 'warn', caller: 'alice@lab.local' });
    const refusedLine = stack.logs.lines.find((l) => String(l.msg).startsWith('request refused') && String(l.reason).includes(API_REFUSED));
    expect(refusedLine).toMatchObject({ level: 'info', caller: 'alice@lab.local', path: '/api/v1/agents' });
    expect(stack.logs.text()).not.toContain(token.split('.')[2]);
    for (const line of stack.logs.text().split('\n')) expect(duplicateKey(line), line).toBeUndefined();
  });

  it('fails an MCP tool call with an unauthenticated tool error naming the API server\'s refusal', async () => {
    const res = await request(`${stack.base}/mcp`, {
      method: 'POST', token: await justExpired(), headers: MCP_HEADERS, body: toolsCall('list_agents'),
    });
    expect(res.status).toBe(200);
    const result = res.json?.result as { isError?: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^unauthenticated: unauthenticated: .*the API server refused the caller's token \(401\)/);
  });
});

describe('a request that reaches the CallerProvider without a token', () => {
  let stack: IdentityStack;
  beforeAll(async () => {
    stack = await startIdentityStack({ requireToken: false });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('is refused over REST with 401, the documented text and the challenge, before any API request', async () => {
    const res = await request(`${stack.base}/api/v1/agents`);
    expect(res.status).toBe(401);
    expect(res.json?.error).toEqual({ code: 'unauthenticated', message: `unauthenticated: ${NO_CALLER_TOKEN}` });
    expect(challengeOf(res)).toEqual({
      resource_metadata: `${BASE_URL}/.well-known/oauth-protected-resource`, error: 'invalid_token', error_description: NO_CALLER_TOKEN,
    });
    expect(stack.fixture.sandbox.counters.snapshot().total).toBe(0);
    expect(stack.witness.tokens).toEqual([]);
  });

  it('is an unauthenticated tool error over MCP, and never falls back to the ServiceAccount', async () => {
    const res = await request(`${stack.base}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: toolsCall('create_agent', spec('tokenless')) });
    const result = res.json?.result as { isError?: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toBe(`unauthenticated: unauthenticated: ${NO_CALLER_TOKEN}`);
    expect(stack.fixture.sandbox.counters.snapshot().total).toBe(0);
    expect(stack.hrExists('tokenless')).toBe(false);
  });
});
