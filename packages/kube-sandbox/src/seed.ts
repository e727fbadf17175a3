/**
 * The objects a fresh sandbox starts with, so agent-manager finds the platform it expects: namespaces
 * `default`, `kube-system`, `kagent`, `tenant` and `agents`; the `agent-manager` ServiceAccount with our
 * chart's Role; in `kagent` (still on the chart's 0.x line) two ModelConfigs of both kagent groups, the
 * Harness `kagent` and the shared OCIRepository on `0.x`; in `agents` (on the 2.x line) the source on
 * `2.x`, the Harnesses `kagent` and `claude` and a ModelConfig. Samples and roles: seed-samples.ts.
 */
import { nowTimestamp, type JsonObject } from './api/json.js';
import type { SandboxStore } from './ops/sandbox-store.js';

/** One seeding step; it writes through the store like any client. */
export type SeedStep = (store: SandboxStore) => void;

/** The field manager seeded objects are recorded under. */
export const SEED_MANAGER = 'sandbox-seed';

/** The namespace agent-manager and kagent run in. */
export const KAGENT_NAMESPACE = 'kagent';
/** The namespace whose agents are on the agent chart's 2.x line. */
export const CHART_V2_NAMESPACE = 'agents';

/** The shared chart sources' ranges: one major each, as a source never spans two chart lines. */
export const CHART_V0_RANGE = '0.x';
export const CHART_V2_RANGE = '2.x';

const API_KAGENT = 'api.kagent.dev/v1alpha3';

const opts = { fieldManager: SEED_MANAGER };

export const seedNamespaces: SeedStep = (store) => {
  for (const name of ['default', 'kube-system', KAGENT_NAMESPACE, 'tenant']) {
    store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, opts);
  }
};

export const seedServiceAccount: SeedStep = (store) => {
  store.create('serviceaccounts', {
    apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'agent-manager', namespace: KAGENT_NAMESPACE },
  }, opts);
};

/** Create `object` with the condition its controller reports on it (True at generation 1). */
function createReported(store: SandboxStore, resource: string, object: JsonObject,
  condition: { type: string; reason: string; message: string }): void {
  const created = store.create(resource, object, opts);
  const status: JsonObject = {
    observedGeneration: 1,
    conditions: [{ ...condition, status: 'True', lastTransitionTime: nowTimestamp(), observedGeneration: 1 }],
  };
  store.updateStatus(resource, { ...structuredClone(created), status }, opts);
}

function acceptedModelConfig(
  store: SandboxStore, name: string, provider: string, model: string, namespace = KAGENT_NAMESPACE,
  apiVersion = 'kagent.dev/v1alpha2',
): void {
  createReported(store, apiVersion === API_KAGENT ? 'modelconfigs.api.kagent.dev' : 'modelconfigs.kagent.dev', {
    apiVersion, kind: 'ModelConfig', metadata: { name, namespace }, spec: { provider, model },
  }, { type: 'Accepted', reason: 'ModelConfigReconciled', message: 'Model configuration accepted' });
}

/** A Ready Harness of the runtime `runtime` (`kagent`, `claude`…) named after it. */
function readyHarness(store: SandboxStore, namespace: string, runtime: string): void {
  createReported(store, 'harnesses.api.kagent.dev', {
    apiVersion: API_KAGENT, kind: 'Harness', metadata: { name: runtime, namespace }, spec: { [runtime]: {} },
  }, { type: 'Ready', reason: 'Ready', message: 'Harness is ready' });
}

/**
 * The two ModelConfigs of a 0.x namespace, in both kagent groups: the platform installs the
 * `api.kagent.dev` ones with the kagent upgrade (as the Harness), so an agent moved to 2.x finds its model.
 */
function modelConfigsIn(store: SandboxStore, namespace: string): void {
  for (const apiVersion of ['kagent.dev/v1alpha2', API_KAGENT]) {
    acceptedModelConfig(store, 'default-model-config', 'Anthropic', 'claude-sonnet-4-6', namespace, apiVersion);
    acceptedModelConfig(store, 'qwen3-8-27b', 'OpenAI', 'qwen3-8-27b', namespace, apiVersion);
  }
}

export const seedModelConfigs: SeedStep = (store) => modelConfigsIn(store, KAGENT_NAMESPACE);

/** The Harness the platform installs with kagent, before anyone moves to the chart's 2.x line. */
export const seedHarness: SeedStep = (store) => readyHarness(store, KAGENT_NAMESPACE, 'kagent');

function chartRepositoryIn(store: SandboxStore, namespace: string, range = CHART_V0_RANGE): void {
  store.create('ocirepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository',
    metadata: { name: 'agent', namespace, labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: { interval: '30m', url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', ref: { semver: range } },
  }, opts);
}

export const seedChartRepository: SeedStep = (store) => chartRepositoryIn(store, KAGENT_NAMESPACE);

/** The namespaces agent-manager manages in the sandbox (the service fixture's). */
export const MANAGED_NAMESPACES: readonly string[] = [KAGENT_NAMESPACE, 'tenant'];

const RBAC_V1 = 'rbac.authorization.k8s.io/v1';
/**
 * The agent-manager ServiceAccount's Role and RoleBinding in every managed namespace,
 * with exactly the rules of our Helm chart (helm/agent-manager/templates/rbac.yaml), so
 * the service works as its ServiceAccount when the sandbox enforces RBAC, with no more
 * than a cluster would grant it (test/chart-package/rbac.int.test.ts keeps the two equal).
 */
/** The rules of the agent-manager Role in every managed namespace. */
export const AGENT_MANAGER_RULES: readonly JsonObject[] = [
  { apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'],
    verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'] },
  { apiGroups: ['source.toolkit.fluxcd.io'], resources: ['ocirepositories'],
    verbs: ['get', 'list', 'watch', 'create', 'delete'] },
  { apiGroups: ['kagent.dev'], resources: ['agents'], verbs: ['get', 'list', 'watch', 'delete'] },
  { apiGroups: ['kagent.dev'], resources: ['modelconfigs'], verbs: ['list', 'watch'] },
  { apiGroups: ['api.kagent.dev'], resources: ['agents'], verbs: ['get', 'list', 'watch', 'delete'] },
  { apiGroups: ['api.kagent.dev'], resources: ['harnesses', 'modelconfigs'], verbs: ['list', 'watch'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apps'], resources: ['controllerrevisions'], verbs: ['list', 'watch', 'create', 'delete'] },
  { apiGroups: [''], resources: ['pods', 'events'], verbs: ['list', 'watch'] },
  { apiGroups: ['kustomize.toolkit.fluxcd.io'], resources: ['kustomizations'], verbs: ['get'] },
  { apiGroups: ['source.toolkit.fluxcd.io'], resources: ['gitrepositories'], verbs: ['get', 'list'] },
];

/** The agent-manager ServiceAccount's Role with `rules` in `namespace`, and its binding. */
export function grantAgentManager(store: SandboxStore, namespace: string, rules: readonly JsonObject[]): void {
  store.create('roles', { apiVersion: RBAC_V1, kind: 'Role', metadata: { name: 'agent-manager', namespace },
    rules: structuredClone(rules) }, opts);
  store.create('rolebindings', {
    apiVersion: RBAC_V1, kind: 'RoleBinding', metadata: { name: 'agent-manager', namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'agent-manager' },
    subjects: [{ kind: 'ServiceAccount', name: 'agent-manager', namespace: KAGENT_NAMESPACE }],
  }, opts);
}

export const seedAgentManagerRbac: SeedStep = (store) => {
  for (const namespace of MANAGED_NAMESPACES) grantAgentManager(store, namespace, AGENT_MANAGER_RULES);
};

/**
 * A namespace on the chart's 2.x line (`agents` in the default seed; suites sharing a sandbox name
 * their own): the agent-manager Role, the shared source `agent` (range `2.x`), the Harnesses `kagent`
 * and `claude`, and `default-model-config` in both kagent groups.
 */
export function seedChartV2NamespaceNamed(store: SandboxStore, namespace: string): void {
  store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, opts);
  grantAgentManager(store, namespace, AGENT_MANAGER_RULES);
  for (const apiVersion of ['kagent.dev/v1alpha2', API_KAGENT]) {
    acceptedModelConfig(store, 'default-model-config', 'Anthropic', 'claude-sonnet-4-6', namespace, apiVersion);
  }
  for (const runtime of ['kagent', 'claude']) readyHarness(store, namespace, runtime);
  chartRepositoryIn(store, namespace, CHART_V2_RANGE);
}

export const seedChartV2Namespace: SeedStep = (store) => seedChartV2NamespaceNamed(store, CHART_V2_NAMESPACE);

/** The default seed, in order. */
export const DEFAULT_SEED: readonly SeedStep[] = [
  seedNamespaces, seedServiceAccount, seedAgentManagerRbac, seedModelConfigs, seedHarness, seedChartRepository,
  seedChartV2Namespace,
];

/**
 * The default seed's managed namespaces again under other names, in a running sandbox: `home`
 * as `kagent` (the two ModelConfigs, the Harness `kagent`, the shared OCIRepository on `0.x`) and
 * `tenant`, both with the agent-manager Role, so suites sharing one sandbox each work in namespaces
 * of their own.
 */
export function seedNamespacePair(store: SandboxStore, home: string, tenant: string): void {
  for (const name of [home, tenant]) {
    store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, opts);
    grantAgentManager(store, name, AGENT_MANAGER_RULES);
  }
  modelConfigsIn(store, home);
  readyHarness(store, home, 'kagent');
  chartRepositoryIn(store, home);
}

/** Run seed steps against a store. */
export function seed(store: SandboxStore, steps: readonly SeedStep[] = DEFAULT_SEED): void {
  for (const step of steps) step(store);
}
