import { describe, expect, it } from 'vitest';
import { buildOAuthConfig, type OAuthInput } from './oauth-config.js';

const valid: OAuthInput = {
  enabled: true, downstream: false, baseUrl: 'https://am.example.com', provider: 'dex',
  dexIssuerUrl: 'https://dex.example.com', dexClientId: 'am', dexCaFile: '', allowPrivateOAuthUrls: false,
  googleClientId: '', trustedAudiences: ['platform'], ssoAllowPrivateIps: false,
};

describe('buildOAuthConfig', () => {
  it('refuses an empty trusted audience with the text clients match on (the list parser never produces one)', () => {
    expect(() => buildOAuthConfig({ ...valid, trustedAudiences: ['platform', ' '] })).toThrow('oauth: trusted audiences must not be empty strings');
  });

  it('treats an empty provider as dex', () => {
    expect(buildOAuthConfig({ ...valid, provider: '' })).toMatchObject({ provider: { name: 'dex' } });
  });

  it('checks the base URL before the provider', () => {
    expect(() => buildOAuthConfig({ ...valid, baseUrl: 'http://am', provider: 'github' }))
      .toThrow('oauth: base URL must use https (http is allowed for loopback only): http://am');
  });

  it('refuses downstream OAuth without OAuth before anything else', () => {
    expect(() => buildOAuthConfig({ ...valid, enabled: false, downstream: true, baseUrl: '' }))
      .toThrow('--downstream-oauth needs --enable-oauth: without OAuth there is no caller token to present to the Kubernetes API');
  });

  it('needs no client ID when the trusted audiences say which audience tokens carry', () => {
    expect(buildOAuthConfig({ ...valid, dexClientId: '' })).toMatchObject({ provider: { name: 'dex', clientId: '' }, trustedAudiences: ['platform'] });
    expect(buildOAuthConfig({ ...valid, provider: 'google' })).toMatchObject({ provider: { name: 'google', clientId: '' } });
  });

  it('returns only { enabled: false } when OAuth is off', () => {
    expect(buildOAuthConfig({ ...valid, enabled: false })).toEqual({ enabled: false });
  });
});
