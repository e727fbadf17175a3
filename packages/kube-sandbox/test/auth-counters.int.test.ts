/**
 * The sandbox's seams around requests: authentication (admin and service-account
 * tokens, 401 otherwise), the authorizer (whose denials carry the real Forbidden text),
 * request counters (in-process and over the admin endpoint) and the request hook chain.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusForCode } from '../src/api/status.js';
import { alwaysAllow } from '../src/auth/authorizer.js';
import { HR, helmRelease, kubeConfigFor, raw, rejection, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.sandbox.close();
});

describe('sandbox authentication', () => {
  it('answers a request without a token with 401 Unauthorized', async () => {
    const res = await raw(h.sandbox, 'GET', '/api/v1/namespaces', { token: '' });
    expect(res.code).toBe(401);
    expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('answers an unknown token with 401 through client-node', async () => {
    const core = kubeConfigFor(h.sandbox, 'wrong').makeApiClient(CoreV1Api);
    expect((await rejection(core.listNamespace())).code).toBe(401);
  });

  it('accepts the service-account token as system:serviceaccount:kagent:agent-manager', async () => {
    h.sandbox.counters.reset();
    const core = kubeConfigFor(h.sandbox, h.sandbox.serviceAccountToken).makeApiClient(CoreV1Api);
    await core.listNamespace();
    expect(h.sandbox.counters.count({ user: 'system:serviceaccount:kagent:agent-manager', verb: 'list', resource: 'namespaces' })).toBe(1);
  });

  it('answers health probes without a token', async () => {
    const res = await raw(h.sandbox, 'GET', '/healthz', { token: '' });
    expect(res.code).toBe(200);
    expect(res.text).toBe('ok');
  });
});

describe('sandbox authorizer seam', () => {
  it('turns a denial into the real Forbidden Status', async () => {
    h.sandbox.authorizer = { authorize: (a) => ({ allowed: a.user.username === 'sandbox-admin' }) };
    try {
      const kc = kubeConfigFor(h.sandbox, h.sandbox.serviceAccountToken);
      const { code, status } = await rejection(kc.makeApiClient(CoreV1Api).createNamespacedConfigMap({ namespace: 'kagent', body: { metadata: { name: 'x' } } }));
      expect(code).toBe(403);
      expect(status).toMatchObject({
        reason: 'Forbidden',
        message: 'configmaps is forbidden: User "system:serviceaccount:kagent:agent-manager" cannot create resource "configmaps" in API group "" in the namespace "kagent"',
        details: { kind: 'configmaps' },
      });
      const named = await rejection(kc.makeApiClient(CoreV1Api).readNamespace({ name: 'kagent' }));
      // As kube-apiserver words it: a namespace object is requested "in the namespace" of its own name.
      expect(named.status.message).toBe('namespaces "kagent" is forbidden: User "system:serviceaccount:kagent:agent-manager" cannot get resource "namespaces" in API group "" in the namespace "kagent"');
      const all = await rejection(kc.makeApiClient(CoreV1Api).listNamespace());
      expect(all.status.message).toBe('namespaces is forbidden: User "system:serviceaccount:kagent:agent-manager" cannot list resource "namespaces" in API group "" at the cluster scope');
    } finally {
      h.sandbox.authorizer = alwaysAllow;
    }
  });
});

describe('sandbox request counters', () => {
  it('counts requests by verb, resource and user', async () => {
    h.sandbox.counters.reset();
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('counted') });
    await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'counted' });
    await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'counted' });
    await h.custom.listNamespacedCustomObject({ ...HR, namespace: 'kagent' });
    await h.custom.getNamespacedCustomObjectStatus({ ...HR, namespace: 'kagent', name: 'counted' });
    const snap = h.sandbox.counters.snapshot();
    expect(snap.total).toBe(5);
    expect(snap.byVerb).toEqual({ create: 1, get: 3, list: 1 });
    expect(snap.byResource).toEqual({ 'helmreleases.helm.toolkit.fluxcd.io': 4, 'helmreleases.helm.toolkit.fluxcd.io/status': 1 });
    expect(snap.byUser).toEqual({ 'sandbox-admin': 5 });
    expect(h.sandbox.counters.count({ verb: 'get', resource: 'helmreleases.helm.toolkit.fluxcd.io' })).toBe(2);
  });

  it('counts discovery under (discovery)', async () => {
    h.sandbox.counters.reset();
    await raw(h.sandbox, 'GET', '/apis/kagent.dev/v1alpha2');
    expect(h.sandbox.counters.snapshot().byResource).toEqual({ '(discovery)': 1 });
  });

  it('serves and resets the counters at the admin endpoint, for the admin only', async () => {
    h.sandbox.counters.reset();
    await h.core.listNamespace();
    const snap = await raw(h.sandbox, 'GET', '/sandbox/counters');
    expect(snap.code).toBe(200);
    expect(snap.json).toMatchObject({ total: 1, byVerb: { list: 1 } });
    const denied = await raw(h.sandbox, 'GET', '/sandbox/counters', { token: h.sandbox.serviceAccountToken });
    expect(denied.code).toBe(403);
    expect(denied.json.message).toBe('forbidden: User "system:serviceaccount:kagent:agent-manager" cannot get path "/sandbox/counters"');
    const reset = await raw(h.sandbox, 'POST', '/sandbox/counters/reset');
    expect(reset.json.total).toBe(0);
    expect(h.sandbox.counters.snapshot().total).toBe(0);
  });
});

describe('sandbox request hooks', () => {
  it('lets a hook fail matching requests with a chosen Status', async () => {
    let remaining = 1;
    const remove = h.sandbox.hooks.use(async (ctx, next) => {
      if (ctx.info.verb === 'get' && ctx.info.resource === 'configmaps' && remaining > 0) {
        remaining--;
        return ctx.fail(statusForCode(503, 'injected'));
      }
      return next();
    });
    try {
      await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'hooked' } } });
      const { code, status } = await rejection(h.core.readNamespacedConfigMap({ namespace: 'tenant', name: 'hooked' }));
      expect(code).toBe(503);
      expect(status.reason).toBe('ServiceUnavailable');
      await h.core.readNamespacedConfigMap({ namespace: 'tenant', name: 'hooked' });
    } finally {
      remove();
    }
  });

  it('lets a hook drop the connection', async () => {
    const remove = h.sandbox.hooks.use(async (ctx, next) => (ctx.info.resource === 'secrets' ? ctx.drop() : next()));
    try {
      await expect(h.core.listNamespacedSecret({ namespace: 'tenant' })).rejects.toThrow();
    } finally {
      remove();
    }
    await h.core.listNamespacedSecret({ namespace: 'tenant' });
  });

  it('lets a hook see the authenticated user and wrap the request', async () => {
    const seen: string[] = [];
    const remove = h.sandbox.hooks.use(async (ctx, next) => {
      seen.push(`${ctx.user.username} ${ctx.info.verb} before`);
      await next();
      seen.push(`${ctx.res.statusCode} after`);
    });
    try {
      await h.core.listNamespace();
    } finally {
      remove();
    }
    expect(seen).toEqual(['sandbox-admin list before', '200 after']);
  });
});
