/**
 * The objects a fresh sandbox starts with, so agent-manager finds the platform it
 * expects: namespaces `default`, `kube-system`, `kagent` and `tenant`; the
 * `agent-manager` service account; two accepted ModelConfigs in `kagent`; and the shared
 * OCIRepository `kagent/agent` of the agent chart. Seeding is a list of steps so later
 * parts (sample agents, RBAC roles) append their own.
 */
import { nowTimestamp, type JsonObject } from './api/json.js';
import type { SandboxStore } from './ops/sandbox-store.js';

/** One seeding step; it writes through the store like any client. */
export type SeedStep = (store: SandboxStore) => void;

/** The field manager seeded objects are recorded under. */
export const SEED_MANAGER = 'sandbox-seed';

/** The namespace agent-manager and kagent run in. */
export const KAGENT_NAMESPACE = 'kagent';

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

function acceptedModelConfig(store: SandboxStore, name: string, provider: string, model: string): void {
  const created = store.create('modelconfigs', {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'ModelConfig',
    metadata: { name, namespace: KAGENT_NAMESPACE },
    spec: { provider, model },
  }, opts);
  const status: JsonObject = {
    observedGeneration: 1,
    conditions: [{
      type: 'Accepted', status: 'True', reason: 'ModelConfigReconciled', message: 'Model configuration accepted',
      lastTransitionTime: nowTimestamp(), observedGeneration: 1,
    }],
  };
  store.updateStatus('modelconfigs', { ...structuredClone(created), status }, opts);
}

export const seedModelConfigs: SeedStep = (store) => {
  acceptedModelConfig(store, 'default-model-config', 'Anthropic', 'claude-sonnet-4-6');
  acceptedModelConfig(store, 'qwen3-8-27b', 'OpenAI', 'qwen3-8-27b');
};

export const seedChartRepository: SeedStep = (store) => {
  store.create('ocirepositories', {
    apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'OCIRepository',
    metadata: { name: 'agent', namespace: KAGENT_NAMESPACE, labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: { interval: '30m', url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', ref: { semver: 'x.x.x' } },
  }, opts);
};

/** The default seed, in order. */
export const DEFAULT_SEED: readonly SeedStep[] = [seedNamespaces, seedServiceAccount, seedModelConfigs, seedChartRepository];

/** Run seed steps against a store. */
export function seed(store: SandboxStore, steps: readonly SeedStep[] = DEFAULT_SEED): void {
  for (const step of steps) step(store);
}
