import { describe, expect, it } from 'vitest';
import { SandboxStore } from '../ops/sandbox-store.js';
import type { UserInfo } from '../ops/op-options.js';
import type { AuthorizationAttributes } from './authorizer.js';
import { ensureBootstrapPolicy } from './bootstrap-policy.js';
import { RbacAuthorizer, ruleAllows, subjectsInclude, type PolicyRule } from './rbac-authorizer.js';

const alice: UserInfo = { username: 'alice@lab.local', groups: ['platform-admins', 'system:authenticated'] };

function attrs(overrides: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
  return {
    user: alice, verb: 'get', isResourceRequest: true, path: '/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases/sre',
    apiGroup: 'helm.toolkit.fluxcd.io', apiVersion: 'v2', resource: 'helmreleases', subresource: '', namespace: 'kagent', name: 'sre',
    ...overrides,
  };
}

const rule = (r: Partial<PolicyRule>): PolicyRule => ({
  verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...r,
});

describe('ruleAllows', () => {
  const hr = rule({ verbs: ['get', 'list'], apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'] });
  it.each([
    ['the verb, group and resource named', hr, attrs(), true],
    ['another verb', hr, attrs({ verb: 'delete' }), false],
    ['another group', hr, attrs({ apiGroup: 'source.toolkit.fluxcd.io' }), false],
    ['a subresource of a named resource', hr, attrs({ subresource: 'status' }), false],
    ['verbs *', rule({ verbs: ['*'], apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'] }), attrs({ verb: 'patch' }), true],
    ['apiGroups * and resources *', rule({ verbs: ['get'], apiGroups: ['*'], resources: ['*'] }), attrs({ subresource: 'status' }), true],
    ['resource/subresource', rule({ verbs: ['update'], apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases/status'] }), attrs({ verb: 'update', subresource: 'status' }), true],
    ['*/subresource', rule({ verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }), attrs({ verb: 'update', subresource: 'status' }), true],
    ['*/subresource on the main resource', rule({ verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }), attrs({ verb: 'update' }), false],
    ['resourceNames with the name', rule({ ...hr, resourceNames: ['sre'] }), attrs(), true],
    ['resourceNames with another name', rule({ ...hr, resourceNames: ['ops'] }), attrs(), false],
    ['resourceNames on a list (no name)', rule({ ...hr, resourceNames: ['sre'] }), attrs({ verb: 'list', name: '' }), false],
    ['nonResourceURLs exact', rule({ verbs: ['get'], nonResourceURLs: ['/version'] }), attrs({ isResourceRequest: false, path: '/version' }), true],
    ['nonResourceURLs prefix*', rule({ verbs: ['get'], nonResourceURLs: ['/apis/*'] }), attrs({ isResourceRequest: false, path: '/apis/apps/v1' }), true],
    ['resource rules never cover paths', hr, attrs({ isResourceRequest: false, path: '/version' }), false],
  ])('%s', (_name, r, a, allowed) => {
    expect(ruleAllows(a, r)).toBe(allowed);
  });
});

describe('subjectsInclude', () => {
  const sa: UserInfo = { username: 'system:serviceaccount:kagent:agent-manager', groups: ['system:serviceaccounts', 'system:serviceaccounts:kagent'] };
  it.each([
    ['a User by name', [{ kind: 'User', name: 'alice@lab.local' }], alice, 'kagent', true],
    ['another User', [{ kind: 'User', name: 'bob@lab.local' }], alice, 'kagent', false],
    ['a Group the user is in', [{ kind: 'Group', name: 'platform-admins' }], alice, 'kagent', true],
    ['system:authenticated', [{ kind: 'Group', name: 'system:authenticated' }], alice, '', true],
    ['a ServiceAccount with its namespace', [{ kind: 'ServiceAccount', name: 'agent-manager', namespace: 'kagent' }], sa, 'tenant', true],
    ['a ServiceAccount in the binding namespace by default', [{ kind: 'ServiceAccount', name: 'agent-manager' }], sa, 'kagent', true],
    ['a ServiceAccount of another namespace', [{ kind: 'ServiceAccount', name: 'agent-manager' }], sa, 'tenant', false],
    ['a namespace-less ServiceAccount in a cluster binding', [{ kind: 'ServiceAccount', name: 'agent-manager' }], sa, '', false],
  ])('%s', (_name, subjects, user, namespace, expected) => {
    expect(subjectsInclude({ subjects }, user, namespace)).toBe(expected);
  });
});

describe('RbacAuthorizer', () => {
  function storeWith(...objects: Array<[string, Record<string, unknown>]>): SandboxStore {
    const store = new SandboxStore();
    for (const name of ['kagent', 'tenant']) store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    ensureBootstrapPolicy(store);
    for (const [resource, obj] of objects) store.create(resource, obj);
    return store;
  }
  const role = (name: string, namespace: string, rules: unknown[]) => ['roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace }, rules }] as [string, Record<string, unknown>];
  const binding = (
    resource: string, name: string, namespace: string, roleRef: Record<string, string>, subjects: unknown[],
  ) =>
    [resource, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: resource === 'rolebindings' ? 'RoleBinding' : 'ClusterRoleBinding', metadata: { name, ...(namespace ? { namespace } : {}) }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef }, subjects }] as [string, Record<string, unknown>];

  it('lists the rules of the bindings that name the user, cluster-wide and in the namespace, for SelfSubjectRulesReview', () => {
    const store = storeWith(
      role('writer', 'kagent', [{ verbs: ['create'], apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], resourceNames: ['sre'] }]),
      binding('rolebindings', 'w', 'kagent', { kind: 'Role', name: 'writer' }, [{ kind: 'Group', name: 'platform-admins' }]),
      binding('rolebindings', 'gone', 'kagent', { kind: 'Role', name: 'missing' }, [{ kind: 'User', name: 'alice@lab.local' }]),
    );
    const rules = new RbacAuthorizer(store).rulesFor(alice, 'kagent');
    expect(rules.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], resourceNames: ['sre'] });
    expect(rules.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
    expect(rules.nonResourceRules).toContainEqual({ verbs: ['get'], nonResourceURLs: expect.arrayContaining(['/version']) });
    expect(rules).toMatchObject({ incomplete: false, evaluationError: 'role.rbac.authorization.k8s.io "missing" not found' });
    expect(new RbacAuthorizer(store).rulesFor(alice, 'tenant').resourceRules.some((r) => r.resources.includes('helmreleases'))).toBe(false);
  });

  it('reports every verb on everything for system:masters', () => {
    const rules = new RbacAuthorizer(storeWith()).rulesFor({ username: 'admin', groups: ['system:masters'] }, 'kagent');
    expect(rules.resourceRules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
  });

  it('allows through a RoleBinding in the namespace only', () => {
    const store = storeWith(
      role('writer', 'kagent', [{ verbs: ['create'], apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'] }]),
      binding('rolebindings', 'w', 'kagent', { kind: 'Role', name: 'writer' }, [{ kind: 'Group', name: 'platform-admins' }]),
    );
    const rbac = new RbacAuthorizer(store);
    expect(rbac.authorize(attrs({ verb: 'create', name: '' }))).toEqual({ allowed: true });
    expect(rbac.authorize(attrs({ verb: 'create', name: '', namespace: 'tenant' }))).toEqual({ allowed: false, reason: '' });
  });

  it('applies a ClusterRole bound by a RoleBinding within that namespace', () => {
    const store = storeWith(binding('rolebindings', 'v', 'tenant', { kind: 'ClusterRole', name: 'cluster-admin' }, [{ kind: 'User', name: 'alice@lab.local' }]));
    const rbac = new RbacAuthorizer(store);
    expect(rbac.authorize(attrs({ namespace: 'tenant' })).allowed).toBe(true);
    expect(rbac.authorize(attrs()).allowed).toBe(false);
    expect(rbac.authorize(attrs({ resource: 'namespaces', apiGroup: '', namespace: '', name: '', verb: 'list' })).allowed).toBe(false);
  });

  it('lets system:masters do anything and every signed-in user read discovery', () => {
    const rbac = new RbacAuthorizer(storeWith());
    expect(rbac.authorize(attrs({ user: { username: 'root', groups: ['system:masters'] }, verb: 'delete' })).allowed).toBe(true);
    expect(rbac.authorize(attrs({ isResourceRequest: false, path: '/apis/helm.toolkit.fluxcd.io/v2' })).allowed).toBe(true);
    expect(rbac.authorize(attrs({ user: { username: 'x', groups: [] }, isResourceRequest: false, path: '/apis' })).allowed).toBe(false);
  });

  it('reports a binding to a missing role as RBAC says it', () => {
    const store = storeWith(
      binding('rolebindings', 'b', 'kagent', { kind: 'Role', name: 'gone' }, [{ kind: 'User', name: 'alice@lab.local' }]),
      binding('clusterrolebindings', 'c', '', { kind: 'ClusterRole', name: 'also-gone' }, [{ kind: 'User', name: 'alice@lab.local' }]),
    );
    expect(new RbacAuthorizer(store).authorize(attrs())).toEqual({
      allowed: false,
      reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "also-gone" not found, role.rbac.authorization.k8s.io "gone" not found]',
    });
  });
});
