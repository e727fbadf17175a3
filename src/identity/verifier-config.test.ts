import { describe, expect, it } from 'vitest';
import type { OAuthEnabledConfig } from '../config/index.js';
import { verifierConfigFrom } from './verifier-config.js';

const dex = {
  name: 'dex', issuerUrl: 'https://dex.example.com', clientId: 'agent-platform',
  caFile: '', allowPrivateUrls: false,
} as const;

function oauth(overrides: Partial<OAuthEnabledConfig> = {}): OAuthEnabledConfig {
  return {
    enabled: true, baseUrl: 'https://agent-manager.example.com', provider: dex, trustedAudiences: [],
    ssoAllowPrivateIps: false, downstream: false, ...overrides,
  };
}

describe('verifierConfigFrom', () => {
  it('trusts the configured audiences, in order', () => {
    const config = verifierConfigFrom(oauth({ trustedAudiences: ['agent-platform', 'dex-k8s-authenticator'] }));
    expect(config.trustedAudiences).toEqual(['agent-platform', 'dex-k8s-authenticator']);
  });

  it('trusts the dex client id when no audiences are configured', () => {
    expect(verifierConfigFrom(oauth()).trustedAudiences).toEqual(['agent-platform']);
  });

  it('checks dex tokens against the dex issuer, trusting the CA file for its TLS', () => {
    const config = verifierConfigFrom(oauth({ provider: { ...dex, caFile: '/etc/dex/ca.pem' } }));
    expect(config).toEqual({
      provider: 'dex', issuerUrl: 'https://dex.example.com', caFile: '/etc/dex/ca.pem', allowPrivateUrls: false,
      trustedAudiences: ['agent-platform'], clientId: 'agent-platform',
    });
  });

  it('passes no CA file when none is configured (the public roots only)', () => {
    expect(verifierConfigFrom(oauth()).caFile).toBeUndefined();
  });

  it.each([
    ['neither flag', false, false, false],
    ['--allow-private-oauth-urls', true, false, true],
    ['--sso-allow-private-ips', false, true, true],
  ])('allows private identity-provider addresses with %s: %s/%s → %s', (_name, allowPrivateUrls, ssoAllowPrivateIps, expected) => {
    const config = verifierConfigFrom(oauth({ provider: { ...dex, allowPrivateUrls }, ssoAllowPrivateIps }));
    expect(config.allowPrivateUrls).toBe(expected);
  });

  it('checks google tokens against google (the default issuer), trusting its client id by default', () => {
    const config = verifierConfigFrom(oauth({ provider: { name: 'google', clientId: 'g-client' } }));
    expect(config).toEqual({ provider: 'google', allowPrivateUrls: false, trustedAudiences: ['g-client'], clientId: 'g-client' });
  });
});
