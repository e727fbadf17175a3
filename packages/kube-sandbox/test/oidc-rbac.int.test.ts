/**
 * Authentication and authorization as kube-apiserver does them, through the real
 * @kubernetes/client-node: id_tokens of a trusted OIDC issuer (https, its CA given as
 * --oidc-ca-file) become users with groups; RBAC from stored Roles and bindings decides,
 * with the real Forbidden texts; anything else is 401 Unauthorized.
 */
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, type TestIssuer } from './support/oidc-issuer.js';
import { HR, helmRelease, kubeConfigFor, raw, rejection, startHarness, type Harness } from './harness.js';

const AUDIENCE = 'kubernetes';
let issuer: TestIssuer;
let h: Harness;
let alice: string;
let bob: string;
let carol: string;

const RBAC = 'rbac.authorization.k8s.io/v1';
const opts = { fieldManager: 'test' };

beforeAll(async () => {
  issuer = await startTestIssuer();
  const caPem = await readFile(await issuer.writeCaFile(), 'utf8');
  h = await startHarness({
    authorization: 'rbac',
    oidc: { issuerUrl: issuer.url, clientId: AUDIENCE, usernameClaim: 'email', groupsClaim: 'groups', caPem },
  });
  const store = h.sandbox.store;
  store.create('roles', {
    apiVersion: RBAC, kind: 'Role', metadata: { name: 'release-writer', namespace: 'kagent' },
    rules: [{ apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: ['get', 'list', 'create'] }],
  }, opts);
  store.create('rolebindings', {
    apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'admins-write', namespace: 'kagent' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'release-writer' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'platform-admins' }],
  }, opts);
  store.create('roles', {
    apiVersion: RBAC, kind: 'Role', metadata: { name: 'one-release', namespace: 'kagent' },
    rules: [{ apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], resourceNames: ['shared'], verbs: ['get', 'update'] }],
  }, opts);
  store.create('rolebindings', {
    apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'carol-one', namespace: 'kagent' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'one-release' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'carol@lab.local' }],
  }, opts);
  store.create('helmreleases', helmRelease('shared'), opts);
  store.create('helmreleases', helmRelease('private'), opts);
  const mint = (email: string, groups: string[]) => issuer.mint({ aud: AUDIENCE, email, email_verified: true, groups });
  alice = await mint('alice@lab.local', ['platform-admins']);
  bob = await mint('bob@lab.local', ['platform-viewers']);
  carol = await mint('carol@lab.local', []);
});
afterAll(async () => {
  await h?.sandbox.close();
  await issuer?.close();
});

const customAs = (token: string) => kubeConfigFor(h.sandbox, token).makeApiClient(CustomObjectsApi);

describe('an OIDC user allowed by a RoleBinding to a group', () => {
  it('creates a HelmRelease', async () => {
    const created: any = await customAs(alice).createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('by-alice') });
    expect(created.metadata.name).toBe('by-alice');
    expect(h.sandbox.counters.count({ user: 'alice@lab.local', verb: 'create' })).toBe(1);
  });

  it('is Forbidden where the binding does not reach, with the real text', async () => {
    const { code, status } = await rejection(customAs(alice).createNamespacedCustomObject({ ...HR, namespace: 'tenant', body: helmRelease('x', 'tenant') }));
    expect(code).toBe(403);
    expect(status).toMatchObject({
      kind: 'Status', reason: 'Forbidden', code: 403, details: { group: 'helm.toolkit.fluxcd.io', kind: 'helmreleases' },
      message: 'helmreleases.helm.toolkit.fluxcd.io is forbidden: User "alice@lab.local" cannot create resource "helmreleases" in API group "helm.toolkit.fluxcd.io" in the namespace "tenant"',
    });
  });
});

describe('an OIDC user without a binding', () => {
  it('is Forbidden to create, with the real text', async () => {
    const { code, status } = await rejection(customAs(bob).createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('by-bob') }));
    expect(code).toBe(403);
    expect(status.message).toBe('helmreleases.helm.toolkit.fluxcd.io is forbidden: User "bob@lab.local" cannot create resource "helmreleases" in API group "helm.toolkit.fluxcd.io" in the namespace "kagent"');
  });

  it('is Forbidden to get a named object and to delete it, naming it', async () => {
    const get = await rejection(customAs(bob).getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'shared' }));
    expect(get.status.message).toBe('helmreleases.helm.toolkit.fluxcd.io "shared" is forbidden: User "bob@lab.local" cannot get resource "helmreleases" in API group "helm.toolkit.fluxcd.io" in the namespace "kagent"');
    expect(get.status.details).toEqual({ name: 'shared', group: 'helm.toolkit.fluxcd.io', kind: 'helmreleases' });
    const del = await rejection(customAs(bob).deleteNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'shared' }));
    expect(del.status.message).toBe('helmreleases.helm.toolkit.fluxcd.io "shared" is forbidden: User "bob@lab.local" cannot delete resource "helmreleases" in API group "helm.toolkit.fluxcd.io" in the namespace "kagent"');
  });

  it('is Forbidden at the cluster scope for namespaces, and may still read discovery', async () => {
    const core = kubeConfigFor(h.sandbox, bob).makeApiClient(CoreV1Api);
    expect((await rejection(core.listNamespace())).status.message)
      .toBe('namespaces is forbidden: User "bob@lab.local" cannot list resource "namespaces" in API group "" at the cluster scope');
    expect((await raw(h.sandbox, 'GET', '/apis/helm.toolkit.fluxcd.io/v2', { token: bob })).code).toBe(200);
    expect((await raw(h.sandbox, 'GET', '/version', { token: bob })).code).toBe(200);
  });
});

describe('RBAC rules with resourceNames', () => {
  it('allow exactly the named object and the listed verbs', async () => {
    const shared: any = await customAs(carol).getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'shared' });
    expect(shared.metadata.name).toBe('shared');
    shared.spec.interval = '5m';
    await customAs(carol).replaceNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'shared', body: shared });
    expect((await rejection(customAs(carol).getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'private' }))).code).toBe(403);
    expect((await rejection(customAs(carol).listNamespacedCustomObject({ ...HR, namespace: 'kagent' }))).status.message)
      .toBe('helmreleases.helm.toolkit.fluxcd.io is forbidden: User "carol@lab.local" cannot list resource "helmreleases" in API group "helm.toolkit.fluxcd.io" in the namespace "kagent"');
    expect((await rejection(customAs(carol).deleteNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'shared' }))).code).toBe(403);
  });

  it('do not cover a subresource the rule does not name', async () => {
    const { status } = await rejection(customAs(carol).getNamespacedCustomObjectStatus({ ...HR, namespace: 'kagent', name: 'shared' }));
    expect(status.message).toBe('helmreleases.helm.toolkit.fluxcd.io "shared" is forbidden: User "carol@lab.local" cannot get resource "helmreleases/status" in API group "helm.toolkit.fluxcd.io" in the namespace "kagent"');
  });
});

describe('the service account and the administrator under RBAC', () => {
  it('let agent-manager work in its managed namespaces only, through its seeded Role', async () => {
    const sa = kubeConfigFor(h.sandbox, h.sandbox.serviceAccountToken).makeApiClient(CustomObjectsApi);
    await sa.listNamespacedCustomObject({ ...HR, namespace: 'tenant' });
    await sa.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('by-sa') });
    expect((await rejection(sa.listNamespacedCustomObject({ ...HR, namespace: 'default' }))).code).toBe(403);
  });

  it('lets system:masters do anything', async () => {
    await h.custom.deleteNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'by-sa' });
  });
});

describe('tokens the sandbox does not accept', () => {
  it.each([
    ['garbage', async () => 'garbage'],
    ['an expired id_token', () => issuer.mint({ aud: AUDIENCE, email: 'alice@lab.local', groups: ['platform-admins'], exp: Math.floor(Date.now() / 1000) - 600 })],
    ['an id_token for another audience', () => issuer.mint({ aud: 'portal', email: 'alice@lab.local' })],
    ['an id_token with an unverified email', () => issuer.mint({ aud: AUDIENCE, email: 'alice@lab.local', email_verified: false })],
    ['an id_token signed by a key the issuer never published', () => issuer.mintWithForeignKey({ aud: AUDIENCE, email: 'alice@lab.local' })],
  ])('answers %s with 401 Unauthorized', async (_name, token) => {
    const bearer = await token();
    expect((await rejection(kubeConfigFor(h.sandbox, bearer).makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'kagent' }))).code).toBe(401);
    const res = await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent/pods', { token: bearer });
    expect(res.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });
});
