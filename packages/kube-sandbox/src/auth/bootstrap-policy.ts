/**
 * kube-apiserver's bootstrap RBAC policy, reduced to what the sandbox serves: `cluster-admin` and the
 * discovery roles every authenticated user holds, so `kubectl version` and `api-resources` work for any
 * signed-in user under `--authorization rbac`. Written through the store like any object (so
 * `kubectl get clusterroles` lists them) and recreated when RBAC is switched on, as the apiserver does.
 */
import { readMeta, type JsonObject } from '../api/json.js';
import type { SandboxStore } from '../ops/sandbox-store.js';

/** The field manager the bootstrap objects are recorded under. */
export const BOOTSTRAP_MANAGER = 'kube-apiserver';

const RBAC_V1 = 'rbac.authorization.k8s.io/v1';
const bootstrapLabels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const autoupdate = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

function clusterRole(name: string, rules: JsonObject[]): JsonObject {
  return { apiVersion: RBAC_V1, kind: 'ClusterRole',
    metadata: { name, labels: bootstrapLabels, annotations: autoupdate }, rules };
}

function clusterRoleBinding(name: string, groups: string[]): JsonObject {
  return {
    apiVersion: RBAC_V1, kind: 'ClusterRoleBinding',
    metadata: { name, labels: bootstrapLabels, annotations: autoupdate },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: groups.map((group) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group })),
  };
}

const DISCOVERY_URLS = ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz',
  '/version', '/version/'];

/** The bootstrap ClusterRoles, then their bindings. */
export const BOOTSTRAP_POLICY: readonly (readonly [string, JsonObject])[] = [
  ['clusterroles', clusterRole('cluster-admin', [
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    { nonResourceURLs: ['*'], verbs: ['*'] },
  ])],
  ['clusterroles', clusterRole('system:discovery', [{ nonResourceURLs: DISCOVERY_URLS, verbs: ['get'] }])],
  ['clusterroles', clusterRole('system:basic-user', [
    { apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
      verbs: ['create'] },
    { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
  ])],
  ['clusterroles', clusterRole('system:public-info-viewer', [
    { nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] },
  ])],
  ['clusterrolebindings', clusterRoleBinding('cluster-admin', ['system:masters'])],
  ['clusterrolebindings', clusterRoleBinding('system:discovery', ['system:authenticated'])],
  ['clusterrolebindings', clusterRoleBinding('system:basic-user', ['system:authenticated'])],
  ['clusterrolebindings', clusterRoleBinding('system:public-info-viewer',
    ['system:authenticated', 'system:unauthenticated'])],
];

/** Create every bootstrap object that does not exist yet (existing ones are left as they are). */
export function ensureBootstrapPolicy(store: SandboxStore): void {
  for (const [resource, obj] of BOOTSTRAP_POLICY) {
    const name = String(readMeta(obj).name);
    if (!store.find(resource, '', name)) {
      store.create(resource, structuredClone(obj), { fieldManager: BOOTSTRAP_MANAGER });
    }
  }
}
