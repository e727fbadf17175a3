import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, type TestIssuer } from '../../test/support/oidc-issuer.js';
import { OidcAuthenticator, userFromClaims, usernamePrefixFor, type OidcAuthenticatorConfig } from './oidc-authenticator.js';

describe('usernamePrefixFor (kube-apiserver --oidc-username-prefix)', () => {
  const base = { issuerUrl: 'https://dex.lab', clientId: 'kube' };
  it.each([
    ['sub, no prefix: issuer#', { ...base }, 'https://dex.lab#'],
    ['email, no prefix: none', { ...base, usernameClaim: 'email' }, ''],
    ['an explicit prefix', { ...base, usernameClaim: 'email', usernamePrefix: 'oidc:' }, 'oidc:'],
    ['"-" turns prefixing off', { ...base, usernamePrefix: '-' }, ''],
  ])('%s', (_name, config: OidcAuthenticatorConfig, prefix) => {
    expect(usernamePrefixFor(config)).toBe(prefix);
  });
});

describe('userFromClaims', () => {
  const config: OidcAuthenticatorConfig = { issuerUrl: 'https://dex.lab', clientId: 'kube', usernameClaim: 'email', groupsClaim: 'groups' };
  it('names the user by the claim and reads a list or a single string of groups', () => {
    expect(userFromClaims(config, { email: 'alice@lab.local', groups: ['a', 'b'] })).toEqual({ username: 'alice@lab.local', groups: ['a', 'b'] });
    expect(userFromClaims(config, { email: 'alice@lab.local', groups: 'ops' })).toEqual({ username: 'alice@lab.local', groups: ['ops'] });
    expect(userFromClaims({ ...config, groupsPrefix: 'oidc:' }, { email: 'a@b', groups: ['x'] }).groups).toEqual(['oidc:x']);
  });
  it.each([
    ['email_verified false', { email: 'a@b', email_verified: false }],
    ['no username claim', { sub: 'x' }],
    ['groups of numbers', { email: 'a@b', groups: [1] }],
  ])('refuses %s', (_name, claims) => {
    expect(() => userFromClaims(config, claims)).toThrow();
  });
  it('accepts email without email_verified (only a present false is refused)', () => {
    expect(userFromClaims(config, { email: 'a@b' }).username).toBe('a@b');
  });
});

describe('OidcAuthenticator against an https issuer with --oidc-ca-file', () => {
  let issuer: TestIssuer;
  let auth: OidcAuthenticator;
  beforeAll(async () => {
    issuer = await startTestIssuer();
    auth = new OidcAuthenticator({ issuerUrl: issuer.url, clientId: 'kube', usernameClaim: 'email', groupsClaim: 'groups', caPem: issuer.caPem });
  });
  afterAll(async () => {
    await issuer.close();
  });

  it('accepts a signed id_token for the client id', async () => {
    const token = await issuer.mint({ aud: 'kube', email: 'alice@lab.local', email_verified: true, groups: ['platform-admins'] });
    expect(await auth.authenticate(token)).toEqual({ username: 'alice@lab.local', groups: ['platform-admins'] });
  });

  it.each([
    ['another audience', () => issuer.mint({ aud: 'other', email: 'a@b' })],
    ['an expired token', () => issuer.mint({ aud: 'kube', email: 'a@b', exp: Math.floor(Date.now() / 1000) - 3600 })],
    ['a key the issuer never published', () => issuer.mintWithForeignKey({ aud: 'kube', email: 'a@b' })],
    ['alg none', async () => issuer.mintAlgNone({ aud: 'kube', email: 'a@b' })],
    ['another issuer', () => issuer.mint({ iss: 'https://elsewhere', aud: 'kube', email: 'a@b' })],
    ['garbage', async () => 'not-a-jwt'],
  ])('does not authenticate %s', async (_name, token) => {
    expect(await auth.authenticate(await token())).toBeUndefined();
  });

  it('prefixes a sub user name with the issuer', async () => {
    const bySub = new OidcAuthenticator({ issuerUrl: issuer.url, clientId: 'kube', caPem: issuer.caPem });
    expect((await bySub.authenticate(await issuer.mint({ aud: ['kube', 'x'], sub: 'u1' })))?.username).toBe(`${issuer.url}#u1`);
  });

  it('does not trust the issuer without its CA', async () => {
    const untrusting = new OidcAuthenticator({ issuerUrl: issuer.url, clientId: 'kube', usernameClaim: 'email' });
    expect(await untrusting.authenticate(await issuer.mint({ aud: 'kube', email: 'a@b' }))).toBeUndefined();
  });
});
