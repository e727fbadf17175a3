/**
 * Every Kubernetes call made as the caller, end to end on loopback: a local OIDC issuer,
 * the sandbox API server trusting the same issuer (OIDC authenticator, RBAC on: alice's
 * group may write in `kagent`, bob may only read), and the real service app (createApp,
 * AgentService, the bearer guards, a CallerProvider built from the sandbox's address and
 * CA only: no ServiceAccount token anywhere) on 127.0.0.1:0.
 *
 * The sandbox's request counters (by verb, resource and user) say who each API request
 * was made as; a witness authenticator says whether a bearer reached the API server at
 * all. Together they show the refusals below happen before any Kubernetes request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedChartRepository } from '@agent-manager/kube-sandbox';
import { challengeOf, MCP_HEADERS, request, toolsCall } from './helpers.js';
import { APISERVER_AUDIENCE } from './sandbox-identity.js';
import { BASE_URL, CLIENT_ID, HR, SERVICE_ACCOUNT, spec, startIdentityStack, type IdentityStack } from './stack.js';

let stack: IdentityStack;
let base: string;
beforeAll(async () => {
  stack = await startIdentityStack();
  base = stack.base;
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  stack.fixture.sandbox.counters.reset();
});

const now = () => Math.floor(Date.now() / 1000);
const tokenFor = (who: 'alice' | 'bob', claims?: Record<string, unknown>) => stack.tokenFor(who, claims);
const counters = () => stack.fixture.sandbox.counters;

describe('REST with downstream OAuth (TestForwardedIDTokenBecomesTheCaller, TestMutationsCarryTheCaller)', () => {
  it('writes alice\'s agent as alice: the HelmRelease create is hers, none is the ServiceAccount\'s, and the result names her', async () => {
    const res = await request(`${base}/api/v1/agents`, { method: 'POST', token: await tokenFor('alice'), body: spec('alice-agent') });
    expect(res.status).toBe(201);
    expect(res.json?.requestedBy).toBe('alice@lab.local');
    expect(counters().count({ verb: 'create', resource: HR, user: 'alice@lab.local' })).toBe(1);
    expect(Object.keys(counters().snapshot().byUser)).toEqual(['alice@lab.local']);
    expect(counters().count({ user: SERVICE_ACCOUNT })).toBe(0);
    expect(stack.hrExists('alice-agent')).toBe(true);
    expect(stack.logs.lines.find((l) => l.msg === 'agent created' && l.agent === 'alice-agent')).toMatchObject({ caller: 'alice@lab.local' });
  });

  it('names alice on her update and delete too, each made as her', async () => {
    const token = await tokenFor('alice');
    expect((await request(`${base}/api/v1/agents`, { method: 'POST', token, body: spec('alice-second') })).status).toBe(201);
    counters().reset();
    const updated = await request(`${base}/api/v1/agents/kagent/alice-second`, { method: 'PATCH', token, body: { description: 'hers' } });
    expect(updated.status).toBe(200);
    expect(updated.json?.requestedBy).toBe('alice@lab.local');
    const deleted = await request(`${base}/api/v1/agents/kagent/alice-second`, { method: 'DELETE', token });
    expect(deleted.status).toBe(200);
    expect(deleted.json?.requestedBy).toBe('alice@lab.local');
    expect(stack.hrExists('alice-second')).toBe(false);
    expect(counters().count({ verb: 'update', resource: HR, user: 'alice@lab.local' })).toBe(1);
    expect(counters().count({ verb: 'delete', resource: HR, user: 'alice@lab.local' })).toBe(1);
    expect(Object.keys(counters().snapshot().byUser)).toEqual(['alice@lab.local']);
  });

  it('refuses bob\'s create with 403 forbidden carrying the API server\'s message, and writes nothing', async () => {
    // With the shared source in place (as seeded) the release is the one write.
    if (!stack.fixture.sandbox.store.find('ocirepositories', 'kagent', 'agent')) seedChartRepository(stack.fixture.sandbox.store);
    counters().reset();
    const res = await request(`${base}/api/v1/agents`, { method: 'POST', token: await tokenFor('bob'), body: spec('bob-agent') });
    expect(res.status).toBe(403);
    expect(res.json?.error.code).toBe('forbidden');
    expect(res.json?.error.message).toMatch(/^forbidden: /);
    expect(res.json?.error.message).toContain(
      `${HR} is forbidden: User "bob@lab.local" cannot create resource "helmreleases" in API group "helm.toolkit.fluxcd.io" in the namespace "kagent"`,
    );
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(stack.hrExists('bob-agent')).toBe(false);
    expect(Object.keys(counters().snapshot().byUser)).toEqual(['bob@lab.local']);
  });

  it('lets bob read, as bob', async () => {
    const res = await request(`${base}/api/v1/modelconfigs`, { token: await tokenFor('bob') });
    expect(res.status).toBe(200);
    expect(res.json?.modelConfigs.map((m: { name: string }) => m.name)).toEqual(['default-model-config', 'qwen3-8-27b']);
    expect(counters().count({ verb: 'list', user: 'bob@lab.local' })).toBe(1);
  });

  it('reports identity caller and writesAsCaller in get_info', async () => {
    const res = await request(`${base}/api/v1/info`, { token: await tokenFor('bob') });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ identity: 'caller', capabilities: { writesAsCaller: true } });
  });

  it('accepts a token signed with a key published after start (rotation), refetching the key set', async () => {
    const fetched = stack.issuer.requestCount('/keys');
    const rotated = await stack.issuer.addKey('RS256');
    try {
      const token = await stack.issuer.mint({ aud: CLIENT_ID, sub: 'sub-alice', email: 'alice@lab.local' }, { kid: rotated.kid });
      const res = await request(`${base}/api/v1/info`, { token });
      expect(res.status).toBe(200);
      expect(stack.issuer.requestCount('/keys')).toBe(fetched + 1);
    } finally {
      stack.issuer.removeKey(rotated.kid);
    }
  });
});

type Attack = [name: string, authorization: () => Promise<string | undefined>, description: RegExp | undefined];

const ATTACKS: Attack[] = [
  ['no token', async () => undefined, undefined],
  ['garbage', async () => 'Bearer not-a-token', /^token is not a JWT/],
  ['alg none', async () => `Bearer ${stack.issuer.mintAlgNone({ aud: CLIENT_ID })}`, /^token algorithm "none" is not allowed/],
  ['HS256 signed with the public key', async () => `Bearer ${await stack.issuer.mintHs256WithPublicKey({ aud: CLIENT_ID })}`, /^token algorithm "HS256" is not allowed/],
  ['a wrong signature', async () => `Bearer ${await stack.issuer.mintWithForeignKey({ aud: CLIENT_ID })}`, /^token signature is invalid$/],
  ['an unknown kid, not in the refreshed key set', async () => `Bearer ${await stack.issuer.mint({ aud: CLIENT_ID }, { header: { kid: 'retired-key' } })}`,
    /^token key id "retired-key" is not in the identity provider's key set \(JWKS\), even after refetching it$/],
  ['an expired token', async () => `Bearer ${await tokenFor('alice', { iat: now() - 7200, exp: now() - 3600 })}`, /^token expired at .*; sign in again for a fresh token$/],
  ['nbf in the future', async () => `Bearer ${await tokenFor('alice', { nbf: now() + 3600 })}`, /^token is not valid yet/],
  ['a wrong issuer', async () => `Bearer ${await tokenFor('alice', { iss: 'https://evil.example' })}`, /^token issuer "https:\/\/evil\.example" is not the trusted issuer/],
  ['an untrusted audience', async () => `Bearer ${await tokenFor('alice', { aud: 'someone-else' })}`,
    /^token audience \[someone-else\] matches none of the trusted audiences \[agent-platform\] \(--oauth-trusted-audiences\)$/],
  // The API server itself would accept this one: it carries its audience, not ours.
  ['a token for another client id', async () => `Bearer ${await tokenFor('alice', { aud: APISERVER_AUDIENCE })}`,
    /^token audience \[dex-k8s-authenticator\] matches none of the trusted audiences \[agent-platform\]/],
  ['an oversized header', async () => `Bearer ${'a'.repeat(20_000)}`, /^the Authorization header is too large \(20007 bytes; the limit is 16391\)$/],
  ['another scheme', async () => 'Basic YWxpY2U6c2VjcmV0', undefined],
];

describe.each([
  ['REST', '/api/v1/agents', `${BASE_URL}/.well-known/oauth-protected-resource`, (name: string) => spec(name)],
  ['MCP', '/mcp', `${BASE_URL}/.well-known/oauth-protected-resource/mcp`,
    (name: string) => toolsCall('create_agent', spec(name))],
])('the attack table through %s: 401 with a challenge, and no API server request', (_surface, path, metadata, body) => {
  it.each(ATTACKS)('refuses %s', async (_name, authorization, description) => {
    const presented = stack.witness.tokens.length;
    const header = await authorization();
    const res = await request(`${base}${path}`, {
      method: 'POST', body: body('attack'), headers: MCP_HEADERS,
      ...(header === undefined ? {} : { authorization: header }),
    });
    expect(res.status).toBe(401);
    expect(res.json?.error.code).toBe('unauthenticated');
    const challenge = challengeOf(res);
    expect(challenge.resource_metadata).toBe(metadata);
    if (description === undefined) {
      expect(challenge).toEqual({ resource_metadata: metadata });
    } else {
      expect(challenge.error).toBe('invalid_token');
      expect(res.json?.error.message).toMatch(new RegExp(`^unauthenticated: ${description.source.replace(/^\^/, '')}`));
    }
    expect(counters().snapshot().total).toBe(0);
    expect(stack.witness.tokens.length).toBe(presented);
    expect(stack.hrExists('attack')).toBe(false);
  });
});

describe('the attack rows', () => {
  it('differ from an accepted token in one thing only', async () => {
    await expect(stack.verifier.verify(await tokenFor('alice'))).resolves.toMatchObject({ email: 'alice@lab.local', groups: ['platform-admins'] });
  });

  it('refetch the key set for an unknown kid before refusing it', async () => {
    const fetched = stack.issuer.requestCount('/keys');
    const res = await request(`${base}/api/v1/info`, { token: await stack.issuer.mint({ aud: CLIENT_ID }, { header: { kid: 'retired-key' } }) });
    expect(res.status).toBe(401);
    expect(stack.issuer.requestCount('/keys')).toBe(fetched + 1);
  });
});
