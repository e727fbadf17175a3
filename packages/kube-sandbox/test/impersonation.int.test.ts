/**
 * User impersonation under RBAC, as kube-apiserver serves it: `kubectl --as`/`--as-group`
 * (the `Impersonate-*` headers) make a request run as that user once the caller may
 * `impersonate` them; someone who may not is refused in the real words. carol holds one
 * Role in kagent; dave may impersonate carol and nobody else. The kubectl cases are
 * skipped, saying so, when kubectl is absent.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, startHarness, type Harness } from './harness.js';
import { KUBECTL, KUBECTL_ABSENT, runKubectl, type KubectlRun } from './support/kubectl.js';

const present = KUBECTL !== undefined;

let h: Harness;
let dir: string;

function kubectl(...args: string[]): Promise<KubectlRun> {
  const env = { PATH: process.env.PATH, HOME: dir, KUBECONFIG: join(dir, 'admin'), KUBECACHEDIR: join(dir, 'cache') };
  return runKubectl(args, env);
}

const rbac = 'rbac.authorization.k8s.io';

beforeAll(async () => {
  h = await startHarness({ authorization: 'rbac' });
  dir = await mkdtemp(join(tmpdir(), 'sandbox-impersonation-'));
  h.sandbox.tokens.set('dave-token', { username: 'dave', groups: ['system:authenticated'] });
  h.sandbox.store.create('roles', {
    apiVersion: `${rbac}/v1`, kind: 'Role', metadata: { name: 'hr-reader', namespace: 'kagent' },
    rules: [{ apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: ['get', 'list'] }],
  });
  h.sandbox.store.create('rolebindings', {
    apiVersion: `${rbac}/v1`, kind: 'RoleBinding', metadata: { name: 'carol-reads', namespace: 'kagent' },
    roleRef: { apiGroup: rbac, kind: 'Role', name: 'hr-reader' },
    subjects: [{ apiGroup: rbac, kind: 'User', name: 'carol@lab.local' }],
  });
  h.sandbox.store.create('clusterroles', {
    apiVersion: `${rbac}/v1`, kind: 'ClusterRole', metadata: { name: 'impersonate-carol' },
    rules: [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['carol@lab.local'] }],
  });
  h.sandbox.store.create('clusterrolebindings', {
    apiVersion: `${rbac}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'dave-impersonates-carol' },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'impersonate-carol' },
    subjects: [{ apiGroup: rbac, kind: 'User', name: 'dave' }],
  });
  await h.sandbox.writeKubeconfig(join(dir, 'admin'));
});

afterAll(async () => {
  await h?.sandbox.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('impersonation through the Impersonate-* headers', () => {
  it('answers a request as the impersonated user, so RBAC judges them and not the caller', async () => {
    const res = await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent/pods', { headers: { 'Impersonate-User': 'carol@lab.local' } });
    expect(res.code).toBe(403);
    expect(res.json).toMatchObject({
      kind: 'Status', reason: 'Forbidden', code: 403,
      message: 'pods is forbidden: User "carol@lab.local" cannot list resource "pods" in API group "" in the namespace "kagent"',
    });
    const allowed = await raw(h.sandbox, 'GET', '/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases', { headers: { 'Impersonate-User': 'carol@lab.local' } });
    expect(allowed.code).toBe(200);
  });

  it('refuses a caller who may not impersonate that user, naming the users resource', async () => {
    const res = await raw(h.sandbox, 'GET', '/api/v1/namespaces', { token: 'dave-token', headers: { 'Impersonate-User': 'sandbox-admin' } });
    expect(res.code).toBe(403);
    expect(res.json).toMatchObject({
      reason: 'Forbidden',
      message: 'users "sandbox-admin" is forbidden: User "dave" cannot impersonate resource "users" in API group "" at the cluster scope',
      details: { name: 'sandbox-admin', kind: 'users' },
    });
  });

  it('lets a caller impersonate exactly the user a Role names, and no group on top', async () => {
    const ok = await raw(h.sandbox, 'GET', '/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases', { token: 'dave-token', headers: { 'Impersonate-User': 'carol@lab.local' } });
    expect(ok.code).toBe(200);
    const group = await raw(h.sandbox, 'GET', '/api/v1/namespaces', { token: 'dave-token', headers: { 'Impersonate-User': 'carol@lab.local', 'Impersonate-Group': 'system:masters' } });
    expect(group.code).toBe(403);
    expect(group.json.message).toBe('groups "system:masters" is forbidden: User "dave" cannot impersonate resource "groups" in API group "" at the cluster scope');
  });

  it('checks a service-account username against serviceaccounts in its namespace and gives it the account groups', async () => {
    const denied = await raw(h.sandbox, 'GET', '/api/v1/namespaces', { token: 'dave-token', headers: { 'Impersonate-User': 'system:serviceaccount:kagent:agent-manager' } });
    expect(denied.json.message).toBe('serviceaccounts "agent-manager" is forbidden: User "dave" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kagent"');
    const review = await raw(h.sandbox, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      headers: { 'Impersonate-User': 'system:serviceaccount:kagent:agent-manager', 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });
    expect(review.json.status.userInfo).toEqual({
      username: 'system:serviceaccount:kagent:agent-manager',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kagent', 'system:authenticated'],
    });
  });

  it('refuses groups without a user as the real server does', async () => {
    const res = await raw(h.sandbox, 'GET', '/api/v1/namespaces', { headers: { 'Impersonate-Group': 'devs' } });
    expect(res.code).toBe(500);
    expect(res.json).toMatchObject({ reason: 'InternalError', message: 'Internal error occurred: requested [{Group  devs    }] without impersonating a user' });
  });
});

describe.skipIf(!present)(`kubectl --as${present ? '' : ` — SKIPPED: ${KUBECTL_ABSENT}`}`, () => {
  it('kubectl --as lists nothing the impersonated user may not list', async () => {
    const run = await kubectl('get', 'pods', '-n', 'kagent', '--as', 'carol@lab.local');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('User "carol@lab.local" cannot list resource "pods"');
  });

  it('kubectl auth can-i --as answers for the impersonated user', async () => {
    expect(await kubectl('auth', 'can-i', 'list', 'helmreleases', '-n', 'kagent', '--as', 'carol@lab.local')).toMatchObject({ code: 0, stdout: 'yes\n' });
    expect(await kubectl('auth', 'can-i', 'delete', 'helmreleases', '-n', 'kagent', '--as', 'carol@lab.local')).toMatchObject({ code: 1, stdout: 'no\n' });
  });

  it('kubectl auth whoami --as --as-group names the impersonated user and groups', async () => {
    const run = await kubectl('auth', 'whoami', '-o', 'json', '--as', 'erin', '--as-group', 'devs', '--as-group', 'ops');
    expect(JSON.parse(run.stdout).status.userInfo).toEqual({ username: 'erin', groups: ['devs', 'ops', 'system:authenticated'] });
  });
});
