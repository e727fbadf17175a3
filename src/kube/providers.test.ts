import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log/logger.js';
import type { RequestContext } from '../identity/caller.js';
import { CallerProvider, NO_CALLER_TOKEN, ServiceAccountProvider, tokenExpiry } from './providers.js';
import { kubeConfigForToken } from './kubeconfig.js';

const BASE_YAML = `
apiVersion: v1
kind: Config
clusters:
- name: lab
  cluster: {server: "https://127.0.0.1:6443", certificate-authority-data: "Y2E="}
users:
- name: sa
  user: {token: service-account-secret, client-certificate-data: "Y2VydA==", client-key-data: "a2V5"}
contexts:
- name: lab
  context: {cluster: lab, user: sa}
current-context: lab
`;

function base(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(BASE_YAML);
  return kc;
}

function jwt(payload: Record<string, unknown>): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'RS256' })}.${enc(payload)}.sig`;
}

const ctx = (token?: string): RequestContext => ({ requestId: 'r1', token, log: silentLogger() });

describe('kubeConfigForToken', () => {
  it('drops every ServiceAccount credential and keeps only the cluster address and CA', () => {
    const kc = kubeConfigForToken(base(), 'caller-token');
    const user = kc.getCurrentUser()!;
    expect(user.token).toBe('caller-token');
    expect(user.certData).toBeUndefined();
    expect(user.keyData).toBeUndefined();
    expect(JSON.stringify(kc.users)).not.toContain('service-account-secret');
    expect(kc.getCurrentCluster()).toMatchObject({ server: 'https://127.0.0.1:6443', caData: 'Y2E=' });
  });
});

describe('tokenExpiry', () => {
  it('reads exp from a JWT payload without verifying it', () => {
    expect(tokenExpiry(jwt({ exp: 1_700_000_000 }))).toBe(1_700_000_000_000);
  });
  it.each([['opaque', 'not-a-jwt'], ['no exp', jwt({ sub: 'x' })], ['garbage payload', 'a.!!!.c']])(
    'has no expiry for %s',
    (_name, token) => expect(tokenExpiry(token)).toBeUndefined(),
  );
});

describe('ServiceAccountProvider', () => {
  it('is one shared client for every request', () => {
    const provider = new ServiceAccountProvider(base());
    expect(provider.identity).toBe('serviceAccount');
    expect(provider.forRequest(ctx())).toBe(provider.forRequest(ctx('whatever')));
    provider.close();
  });
});

describe('CallerProvider', () => {
  it('refuses a request without a caller token instead of falling back', () => {
    const provider = new CallerProvider(base(), { log: silentLogger() });
    expect(() => provider.forRequest(ctx())).toThrow(NO_CALLER_TOKEN);
    try {
      provider.forRequest(ctx());
    } catch (err) {
      expect((err as { code: string }).code).toBe('unauthenticated');
    }
  });

  it('caches one client per token, and keeps presenting it after the token expired', () => {
    let now = 1_000_000;
    const provider = new CallerProvider(base(), { log: silentLogger(), now: () => now });
    const alice = jwt({ sub: 'alice', exp: 2_000 });
    const first = provider.forRequest(ctx(alice));
    expect(provider.forRequest(ctx(alice))).toBe(first);
    expect(provider.forRequest(ctx(jwt({ sub: 'bob', exp: 2_000 })))).not.toBe(first);
    now = 2_000_001;
    expect(provider.forRequest(ctx(alice))).toBe(first);
    expect(provider.size).toBe(2);
    provider.close();
  });

  it('still serves an expired or opaque token so the API server decides', () => {
    const provider = new CallerProvider(base(), { log: silentLogger(), now: () => 10_000_000 });
    const expired = jwt({ exp: 1 });
    expect(provider.forRequest(ctx(expired))).toBe(provider.forRequest(ctx(expired)));
    expect(provider.forRequest(ctx('opaque'))).toBe(provider.forRequest(ctx('opaque')));
    provider.close();
  });

  it('evicts expired entries first when full, and clears everything when none expired', () => {
    let now = 0;
    const provider = new CallerProvider(base(), { log: silentLogger(), now: () => now, maxEntries: 3 });
    provider.forRequest(ctx(jwt({ sub: 'a', exp: 10 })));
    provider.forRequest(ctx(jwt({ sub: 'b', exp: 1000 })));
    provider.forRequest(ctx(jwt({ sub: 'c', exp: 1000 })));
    expect(provider.size).toBe(3);
    now = 20_000; // a expired (10 s), b and c still valid (1000 s)
    provider.forRequest(ctx(jwt({ sub: 'd', exp: 1000 })));
    expect(provider.size).toBe(3);
    provider.forRequest(ctx(jwt({ sub: 'e', exp: 1000 })));
    expect(provider.size).toBe(1);
    provider.close();
  });
});
