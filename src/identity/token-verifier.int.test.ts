import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../core/errors.js';
import { startFakeIssuer, type FakeIssuer } from '../../test/support/identity/fake-issuer.js';
import { acceptedIssuers, createTokenVerifier, GOOGLE_ISSUER, type OAuthVerifierConfig, type VerifierDeps } from './token-verifier.js';

const TRUSTED = ['agent-manager', 'dex-k8s-authenticator'];

let issuer: FakeIssuer;
beforeAll(async () => {
  issuer = await startFakeIssuer();
});
afterAll(async () => {
  await issuer.close();
});

function verifierFor(overrides: Partial<OAuthVerifierConfig> = {}, deps: VerifierDeps = {}) {
  return createTokenVerifier(
    { provider: 'dex', issuerUrl: issuer.url, allowPrivateUrls: true, trustedAudiences: TRUSTED, ...overrides },
    deps,
  );
}

/** The rejection of a promise, which must be an AppError. */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('OidcTokenVerifier', () => {
  it('names the caller of a token for a trusted audience: subject, email, name, groups, source sso', async () => {
    const token = await issuer.mint({
      aud: 'agent-manager',
      sub: 'CiRhbGljZQ',
      email: 'alice@example.com',
      name: 'Alice',
      groups: ['platform-admins', 'everyone'],
    });
    await expect(verifierFor().verify(token)).resolves.toEqual({
      subject: 'CiRhbGljZQ',
      email: 'alice@example.com',
      name: 'Alice',
      groups: ['platform-admins', 'everyone'],
      source: 'sso',
    });
  });

  it('accepts a token whose audiences include one trusted audience (muster forwards such tokens)', async () => {
    const token = await issuer.mint({ aud: ['muster', 'dex-k8s-authenticator'], email: 'bob@example.com' });
    await expect(verifierFor().verify(token)).resolves.toMatchObject({ email: 'bob@example.com', groups: [] });
  });

  it('accepts an ES256 token', async () => {
    const es = issuer.keys().find((k) => k.alg === 'ES256')!;
    const token = await issuer.mint({ aud: 'agent-manager' }, { kid: es.kid });
    await expect(verifierFor().verify(token)).resolves.toMatchObject({ subject: 'alice-subject' });
  });

  it('trusts the OAuth client id when no trusted audiences are configured', async () => {
    const token = await issuer.mint({ aud: 'platform-client' });
    const verifier = verifierFor({ trustedAudiences: [], clientId: 'platform-client' });
    await expect(verifier.verify(token)).resolves.toMatchObject({ source: 'sso' });
  });

  const now = () => Math.floor(Date.now() / 1000);
  const attacks: [string, () => Promise<string> | string, RegExp | string][] = [
    ['garbage', () => 'not-a-token', /^token is not a JWT/],
    ['an encrypted token (JWE, five parts)', () => 'a.b.c.d.e', /^token is not a JWT/],
    ['a header that is not JSON', () => 'bm90anNvbg.e30.c2ln', /^token is not a JWT \(its header/],
    ['alg none', () => issuer.mintAlgNone({ aud: 'agent-manager' }), /^token algorithm "none" is not allowed \(want one of RS256, /],
    ['HS256 signed with the public key', () => issuer.mintHs256WithPublicKey({ aud: 'agent-manager' }), /^token algorithm "HS256" is not allowed/],
    ['a signature by a key the issuer never published', () => issuer.mintWithForeignKey({ aud: 'agent-manager' }), 'token signature is invalid'],
    ['a payload changed after signing', () => tamper(issuer.mint({ aud: 'agent-manager', email: 'bob@example.com' })), 'token signature is invalid'],
    ['an unknown kid', () => issuer.mint({ aud: 'agent-manager' }, { header: { kid: 'not-published' } }), /^token key id "not-published" is not in the identity provider's key set/],
    ['no kid', () => issuer.mint({ aud: 'agent-manager' }, { header: { kid: undefined } }), /^token header has no key id/],
    ['an expired token', () => issuer.mint({ aud: 'agent-manager', iat: now() - 7200, exp: now() - 3600 }), /^token expired at \d{4}-.*; sign in again/],
    ['no exp', () => issuer.mint({ aud: 'agent-manager', exp: undefined }), /^token has no exp claim; id_tokens without an expiry are refused/],
    ['nbf in the future', () => issuer.mint({ aud: 'agent-manager', nbf: now() + 3600 }), /^token is not valid yet \(nbf /],
    ['iat in the future', () => issuer.mint({ aud: 'agent-manager', iat: now() + 3600, exp: now() + 7200 }), /^token was issued in the future/],
    ['a wrong issuer', () => issuer.mint({ aud: 'agent-manager', iss: 'https://evil.example' }), /^token issuer "https:\/\/evil\.example" is not the trusted issuer "http:\/\/127\.0\.0\.1:\d+"$/],
    ['an untrusted audience', () => issuer.mint({ aud: 'kubernetes' }), 'token audience [kubernetes] matches none of the trusted audiences [agent-manager, dex-k8s-authenticator] (--oauth-trusted-audiences)'],
    ['a token for another client id', () => issuer.mint({ aud: ['portal', 'muster'], azp: 'portal' }), 'token audience [portal, muster] matches none of the trusted audiences [agent-manager, dex-k8s-authenticator] (--oauth-trusted-audiences)'],
    ['no audience', () => issuer.mint({ aud: undefined }), /^token has no audience \(aud\); want one of the trusted audiences \[agent-manager, dex-k8s-authenticator\]/],
    ['no subject', () => issuer.mint({ aud: 'agent-manager', sub: undefined }), /^token has no sub claim/],
    ['an oversized token', () => `${'a'.repeat(17_000)}.b.c`, 'token is too large (17004 bytes; the limit is 16384)'],
  ];

  it.each(attacks)('refuses %s as unauthenticated (401) with a description that says why', async (_name, forge, text) => {
    const err = await refusal(verifierFor().verify(await forge()));
    expect(err.code).toBe('unauthenticated');
    expect(err.status).toBe(401);
    if (typeof text === 'string') expect(err.detail).toBe(text);
    else expect(err.detail).toMatch(text);
    expect(err.message).toBe(`unauthenticated: ${err.detail}`);
  });

  it('refuses an untrusted audience before fetching any key', async () => {
    const fresh = await startFakeIssuer();
    try {
      const verifier = createTokenVerifier({ provider: 'dex', issuerUrl: fresh.url, allowPrivateUrls: true, trustedAudiences: TRUSTED });
      await refusal(verifier.verify(await fresh.mint({ aud: 'kubernetes' })));
      expect(fresh.requestCount('/.well-known/openid-configuration')).toBe(0);
      expect(fresh.requestCount('/keys')).toBe(0);
    } finally {
      await fresh.close();
    }
  });

  it('clips and cleans audience values it repeats in the description', async () => {
    const token = await issuer.mint({ aud: ['x"\\\n'.padEnd(300, 'y')] });
    const err = await refusal(verifierFor().verify(token));
    expect(err.detail).toMatch(/^token audience \[x"\\\?y+… ?\] matches none/);
    expect(err.detail.length).toBeLessThan(300);
  });
});

describe('OidcTokenVerifier clock leeway', () => {
  const T = 1_900_000_000;
  const at = () => T * 1000;
  it.each([
    ['exp 20 s ago', { exp: T - 20, iat: T - 3600 }, true],
    ['exp 40 s ago', { exp: T - 40, iat: T - 3600 }, false],
    ['nbf in 20 s', { nbf: T + 20, iat: T, exp: T + 3600 }, true],
    ['nbf in 40 s', { nbf: T + 40, iat: T, exp: T + 3600 }, false],
    ['iat in 20 s', { iat: T + 20, exp: T + 3600 }, true],
    ['iat in 40 s', { iat: T + 40, exp: T + 3600 }, false],
  ])('with %s the token is accepted: %s', async (_name, claims, accepted) => {
    const token = await issuer.mint({ aud: 'agent-manager', ...claims });
    const result = verifierFor({}, { now: at }).verify(token);
    if (accepted) await expect(result).resolves.toMatchObject({ source: 'sso' });
    else expect((await refusal(result)).code).toBe('unauthenticated');
  });
});

describe('OidcTokenVerifier key set', () => {
  let rotating: FakeIssuer;
  beforeAll(async () => {
    rotating = await startFakeIssuer({ algs: ['RS256'] });
  });
  afterAll(async () => {
    await rotating.close();
  });
  const verifierOn = (deps: VerifierDeps) =>
    createTokenVerifier({ provider: 'dex', issuerUrl: rotating.url, allowPrivateUrls: true, trustedAudiences: TRUSTED }, deps);

  it('verifies a token signed by a newly added key after refetching the key set', async () => {
    const verifier = verifierOn({ jwksCooldownMs: 0 });
    await verifier.verify(await rotating.mint({ aud: 'agent-manager' }));
    const fetchesBefore = rotating.requestCount('/keys');
    const fresh = await rotating.addKey('PS256');
    await expect(verifier.verify(await rotating.mint({ aud: 'agent-manager' }, { kid: fresh.kid }))).resolves.toMatchObject({
      source: 'sso',
    });
    expect(rotating.requestCount('/keys')).toBe(fetchesBefore + 1);
  });

  it('refuses a key that was dropped once the key set is fetched again', async () => {
    const old = await rotating.addKey('RS256');
    const token = await rotating.mint({ aud: 'agent-manager' }, { kid: old.kid });
    const verifier = verifierOn({ jwksMaxAgeMs: 0 });
    await expect(verifier.verify(token)).resolves.toMatchObject({ source: 'sso' });
    rotating.removeKey(old.kid);
    expect((await refusal(verifier.verify(token))).detail).toMatch(/is not in the identity provider's key set/);
  });

  it('refetches the key set for an unknown kid at most once per cooldown', async () => {
    const verifier = verifierOn({});
    await verifier.verify(await rotating.mint({ aud: 'agent-manager' }));
    const fetches = rotating.requestCount('/keys');
    for (const kid of ['unknown-1', 'unknown-2', 'unknown-3']) {
      await refusal(verifier.verify(await rotating.mint({ aud: 'agent-manager' }, { header: { kid } })));
    }
    expect(rotating.requestCount('/keys')).toBe(fetches);
  });

  it('tries every key that shares a kid', async () => {
    const first = await rotating.addKey('RS256', 'shared');
    const second = await rotating.addKey('RS256', 'shared');
    const verifier = verifierOn({});
    for (const key of [first, second]) {
      await expect(verifier.verify(await rotating.mint({ aud: 'agent-manager' }, { key }))).resolves.toMatchObject({ source: 'sso' });
    }
    const foreign = await rotating.mintWithForeignKey({ aud: 'agent-manager' }, 'shared');
    expect((await refusal(verifier.verify(foreign))).detail).toBe('token signature is invalid');
    rotating.removeKey('shared');
    rotating.removeKey('shared');
  });
});

describe('OidcTokenVerifier and the identity provider', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  async function issuerWith(options: Parameters<typeof startFakeIssuer>[0]) {
    const started = await startFakeIssuer(options);
    cleanups.push(() => started.close());
    return started;
  }

  it('fetches discovery and keys over https trusting the --dex-ca-file CA', async () => {
    const tls = await issuerWith({ tls: true, path: '/dex' });
    const caFile = await tls.writeCaFile();
    const verifier = createTokenVerifier({ provider: 'dex', issuerUrl: tls.url, caFile, allowPrivateUrls: true, trustedAudiences: TRUSTED });
    await expect(verifier.verify(await tls.mint({ aud: 'agent-manager' }))).resolves.toMatchObject({ source: 'sso' });
    expect(tls.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/dex$/);
  });

  it('cannot reach an https issuer whose CA it was not given (backend_error, 502)', async () => {
    const tls = await issuerWith({ tls: true });
    const verifier = createTokenVerifier({ provider: 'dex', issuerUrl: tls.url, allowPrivateUrls: true, trustedAudiences: TRUSTED });
    const err = await refusal(verifier.verify(await tls.mint({ aud: 'agent-manager' })));
    expect(err.code).toBe('backend_error');
    expect(err.status).toBe(502);
    expect(err.message).toMatch(/^cannot verify tokens: .*certificate/);
  });

  it('refuses a loopback issuer unless --allow-private-oauth-urls is set', async () => {
    const verifier = verifierFor({ allowPrivateUrls: false });
    const err = await refusal(verifier.discover());
    expect(err.code).toBe('backend_error');
    expect(err.message).toMatch(/private or loopback address; set --allow-private-oauth-urls/);
  });

  it('refuses a discovery document that names another issuer', async () => {
    const other = await issuerWith({});
    other.discovery = { ...other.discovery, issuer: 'https://dex.example.com' };
    const verifier = createTokenVerifier({ provider: 'dex', issuerUrl: other.url, allowPrivateUrls: true, trustedAudiences: TRUSTED });
    const err = await refusal(verifier.verify(await other.mint({ aud: 'agent-manager' })));
    expect(err.code).toBe('backend_error');
    expect(err.message).toMatch(/names the issuer "https:\/\/dex\.example\.com", not "http:\/\/127\.0\.0\.1:\d+"/);
    expect(other.requestCount('/keys')).toBe(0);
  });

  it('reports an unreachable identity provider as backend_error, not as the caller\'s fault', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const verifier = verifierFor({ issuerUrl: `http://127.0.0.1:${port}` });
    const err = await refusal(verifier.verify(await issuer.mint({ aud: 'agent-manager', iss: `http://127.0.0.1:${port}` })));
    expect(err.code).toBe('backend_error');
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('verifies tokens of the google provider against its issuer', async () => {
    const google = await issuerWith({});
    const verifier = createTokenVerifier({ provider: 'google', issuerUrl: google.url, allowPrivateUrls: true, trustedAudiences: ['client.apps.googleusercontent.com'] });
    await expect(verifier.verify(await google.mint({ aud: 'client.apps.googleusercontent.com' }))).resolves.toMatchObject({ source: 'sso' });
    expect(acceptedIssuers('google', GOOGLE_ISSUER)).toEqual(['https://accounts.google.com', 'accounts.google.com']);
    expect(acceptedIssuers('dex', 'https://dex.example.com')).toEqual(['https://dex.example.com']);
  });
});

describe('createTokenVerifier configuration', () => {
  it.each([
    ['dex without an issuer URL', { issuerUrl: undefined }, 'invalid request: oauth: dex issuer URL is required (--dex-issuer-url)'],
    ['an unknown provider', { provider: 'github' as never }, 'invalid request: oauth: provider "github": want dex or google'],
    ['no trusted audience and no client id', { trustedAudiences: [] }, /no trusted audience: set --oauth-trusted-audiences/],
    ['an empty trusted audience', { trustedAudiences: ['agent-manager', ' '] }, 'invalid request: oauth: trusted audiences must not be empty strings'],
    ['an unreadable CA file', { caFile: '/nonexistent/ca.pem' }, /^invalid request: --dex-ca-file \/nonexistent\/ca\.pem: cannot read it/],
  ])('refuses %s', (_name, overrides, text) => {
    const config = { provider: 'dex' as const, issuerUrl: 'https://dex.example.com', allowPrivateUrls: false, trustedAudiences: TRUSTED, ...overrides };
    expect(() => createTokenVerifier(config)).toThrow(text);
  });
});

/** Swap the payload of a signed token for another one, keeping header and signature. */
async function tamper(token: Promise<string>): Promise<string> {
  const [header, payload, signature] = (await token).split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  claims.email = 'mallory@example.com';
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}
