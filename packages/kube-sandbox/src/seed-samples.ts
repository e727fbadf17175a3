/**
 * The sample platform of `agent-manager sandbox` and `serve --sandbox` (not the minimal test fixture):
 * agents for each ownership case agent-manager tells apart (`incident-triage` owned by GitOps,
 * `kubectl-helper` a bare Agent no release owns, `paused-reviewer` a suspended release), `platform-helper`
 * on the chart's 2.x line in namespace `agents`, and the people's roles (`platform-admins` write releases
 * and sources, `platform-viewers` read; both list namespaces).
 */
import { asObject, type JsonObject } from './api/json.js';
import { reconcileHelmRelease } from './controllers/helm-controller.js';
import { reconcileOciRepository } from './controllers/source-controller.js';
import type { SandboxStore } from './ops/sandbox-store.js';
import {
  CHART_V2_NAMESPACE, DEFAULT_SEED, KAGENT_NAMESPACE, MANAGED_NAMESPACES, SEED_MANAGER, type SeedStep,
} from './seed.js';

const opts = { fieldManager: SEED_MANAGER };
const RBAC_V1 = 'rbac.authorization.k8s.io/v1';
const READ = ['get', 'list', 'watch'];
const WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/** The group that administers agents, and the one that may only look. */
export const ADMIN_GROUP = 'platform-admins';
export const VIEWER_GROUP = 'platform-viewers';

function release(name: string, values: JsonObject, labels: Record<string, string> = {}): JsonObject {
  return {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: { name, namespace: KAGENT_NAMESPACE,
      labels: { 'app.kubernetes.io/managed-by': 'agent-manager', ...labels } },
    spec: {
      interval: '10m',
      chartRef: { kind: 'OCIRepository', name: 'agent', namespace: KAGENT_NAMESPACE },
      values: { agent: { name, ...values }, modelConfig: { name: 'default-model-config' } },
    },
  };
}

/** Install a release of `namespace` (and its chart source `agent`) now, as helm-controller would have before the
 * sandbox started. */
export function installNow(store: SandboxStore, name: string, namespace = KAGENT_NAMESPACE): void {
  const ctx = { store };
  for (let i = 0; i < 2; i++) reconcileOciRepository(ctx, namespace, 'agent'); // finalizer, then artifact
  for (let i = 0; i < 3; i++) reconcileHelmRelease(ctx, namespace, name); // finalizer, the attempt, then install
}

export const seedGitOpsAgent: SeedStep = (store) => {
  store.create('helmreleases', release('incident-triage', {
    displayName: 'Incident Triage', description: 'Triage alerts and summarise incidents (managed in Git).',
  }, { 'app.kubernetes.io/managed-by': 'Helm', 'kustomize.toolkit.fluxcd.io/name': 'platform-agents',
    'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' }), opts);
};

export const seedBareAgent: SeedStep = (store) => {
  store.create('agents', {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent',
    metadata: { name: 'kubectl-helper', namespace: KAGENT_NAMESPACE },
    spec: {
      type: 'Declarative', description: 'An Agent CR applied by hand, without a HelmRelease.',
      declarative: { runtime: 'python', modelConfig: 'default-model-config', systemMessage: 'You help with kubectl.' },
    },
  }, opts);
};

export const seedSuspendedAgent: SeedStep = (store) => {
  store.create('helmreleases', release('paused-reviewer',
    { displayName: 'Paused Reviewer', description: 'Installed, then suspended.' }), opts);
  installNow(store, 'paused-reviewer');
  const hr = store.get('helmreleases', KAGENT_NAMESPACE, 'paused-reviewer');
  store.update('helmreleases', { ...structuredClone(hr),
    spec: { ...structuredClone(asObject(hr.spec)), suspend: true } }, opts);
};

/**
 * A 0.x agent of every shape `agent-manager migrate` maps to 2.x (pinned git and OCI skills, runtime go,
 * muster.toolNames, an extraAgentSpec of template fields), installed, so `npm start` users can run the migration.
 */
export const seedSkilledAgent: SeedStep = (store) => {
  store.create('helmreleases', release('skilled-helper', {
    displayName: 'Skilled Helper', description: 'A 0.x agent with skills, to try agent-manager migrate on.',
    runtime: 'go',
  }), opts);
  const hr = store.get('helmreleases', KAGENT_NAMESPACE, 'skilled-helper');
  const values = asObject(asObject(hr.spec).values);
  store.update('helmreleases', { ...structuredClone(hr), spec: { ...structuredClone(asObject(hr.spec)), values: {
    ...values,
    skills: {
      gitRefs: [{ url: 'https://github.com/giantswarm/agent-skills', path: 'runbooks', name: 'runbooks',
        ref: '0123456789abcdef0123456789abcdef01234567' }],
      refs: [`gsoci.azurecr.io/giantswarm/skills/kubectl@sha256:${'a'.repeat(64)}`],
    },
    muster: { toolNames: ['list_tools', 'call_tool'] },
    extraAgentSpec: { description: 'Set through extraAgentSpec, a field of the 2.x template too.' },
    toolset: ['preset:read-only'],
  } } }, opts);
  installNow(store, 'skilled-helper');
};

/** A 2.x agent in namespace `agents`, installed: the Agent runs on the Harness `kagent`. */
export const seedChartV2Agent: SeedStep = (store) => {
  store.create('helmreleases', {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: { name: 'platform-helper', namespace: CHART_V2_NAMESPACE,
      labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: {
      interval: '10m',
      chartRef: { kind: 'OCIRepository', name: 'agent', namespace: CHART_V2_NAMESPACE },
      values: {
        agent: { name: 'platform-helper', displayName: 'Platform Helper',
          description: 'Answers questions about the platform (chart 2.x, on the kagent Harness).', harness: 'kagent' },
        modelConfig: { name: 'default-model-config' },
        toolset: ['preset:read-only'],
      },
    },
  }, opts);
  installNow(store, 'platform-helper', CHART_V2_NAMESPACE);
};

const platformRules = (fluxVerbs: string[]): JsonObject[] => [
  { apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: fluxVerbs },
  { apiGroups: ['source.toolkit.fluxcd.io'], resources: ['ocirepositories'], verbs: fluxVerbs },
  { apiGroups: ['kagent.dev'], resources: ['agents', 'modelconfigs'], verbs: READ },
  { apiGroups: ['api.kagent.dev'], resources: ['agents', 'harnesses', 'modelconfigs', 'remotemcpservers'],
    verbs: READ },
  { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: READ },
  // An agent's revisions: whoever writes agents records them (create) and prunes them (delete).
  { apiGroups: ['apps'], resources: ['controllerrevisions'],
    verbs: fluxVerbs === READ ? READ : [...READ, 'create', 'delete'] },
  { apiGroups: [''], resources: ['pods', 'events', 'configmaps', 'serviceaccounts'], verbs: READ },
];

/** Bind the people's groups to their ClusterRoles in `namespace` (a managed namespace, or an organization's). */
export function bindPeople(store: SandboxStore, namespace: string): void {
  const groups = (...names: string[]) =>
    names.map((name) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name }));
  for (const [group, role] of [[ADMIN_GROUP, 'agent-platform-admin'],
    [VIEWER_GROUP, 'agent-platform-viewer']] as const) {
    store.create('rolebindings', {
      apiVersion: RBAC_V1, kind: 'RoleBinding', metadata: { name: group, namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: groups(group),
    }, opts);
  }
}

export const seedPeopleRbac: SeedStep = (store) => {
  const clusterRole = (name: string, rules: JsonObject[]) =>
    store.create('clusterroles', { apiVersion: RBAC_V1, kind: 'ClusterRole', metadata: { name }, rules }, opts);
  clusterRole('agent-platform-admin', platformRules(WRITE));
  clusterRole('agent-platform-viewer', platformRules(READ));
  clusterRole('namespace-reader', [{ apiGroups: [''], resources: ['namespaces'], verbs: READ }]);
  const groups = (...names: string[]) =>
    names.map((name) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name }));
  store.create('clusterrolebindings', {
    apiVersion: RBAC_V1, kind: 'ClusterRoleBinding', metadata: { name: 'platform-namespace-readers' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'namespace-reader' },
    subjects: groups(ADMIN_GROUP, VIEWER_GROUP),
  }, opts);
  for (const namespace of [...MANAGED_NAMESPACES, CHART_V2_NAMESPACE]) bindPeople(store, namespace);
};

/** The default seed plus the sample agents and the people's roles. */
export const SAMPLE_SEED: readonly SeedStep[] = [
  ...DEFAULT_SEED, seedPeopleRbac, seedGitOpsAgent, seedBareAgent, seedSuspendedAgent, seedSkilledAgent,
  seedChartV2Agent,
];
