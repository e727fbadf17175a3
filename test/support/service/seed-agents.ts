/**
 * Objects the service tests put into the sandbox the way the cluster would have them:
 * a release with status, the Agent CR helm-controller renders from it (with Flux
 * provenance labels), the Deployment and pods kagent runs. Written through the sandbox
 * store, so status subresources can be set as the controllers would.
 */
import { CHART_URL } from './fixture-settings.js';

/** Where seeds go: the sandbox, or the in-memory FakeKube (both offer this store view). */
export interface SeedTarget {
  readonly store: {
    create(resource: string, object: never, options?: { fieldManager?: string }): unknown;
    updateStatus(resource: string, object: never, options?: { fieldManager?: string }): unknown;
  };
}

type Json = Record<string, unknown>;
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const opts = { fieldManager: 'test-seed' };

function withStatus(sandbox: SeedTarget, resource: string, object: Json, status: Json | undefined): Json {
  const created = sandbox.store.create(resource, object as never, opts) as Json;
  if (!status) return created;
  return sandbox.store.updateStatus(resource, { ...structuredClone(created), status } as never, opts) as Json;
}

const condition = (type: string, status: string, reason: string, message = '') =>
  ({ type, status, reason, message, lastTransitionTime: now() });

export interface ReleaseSeed {
  namespace?: string;
  name: string;
  values?: Json;
  ready?: boolean | null;
  readyReason?: string;
  readyMessage?: string;
  labels?: Record<string, string>;
  suspend?: boolean;
  chartVersion?: string;
  chartRef?: Json;
}

function historyEntry(name: string, namespace: string, chartVersion: string): Json {
  return {
    name, namespace, version: 1, status: 'deployed', chartName: 'agent', chartVersion, appVersion: '0.1.0',
    configDigest: 'sha256:'.padEnd(71, '0'), digest: 'sha256:'.padEnd(71, '1'), firstDeployed: now(), lastDeployed: now(),
  };
}

export function seedRelease(sandbox: SeedTarget, seed: ReleaseSeed): Json {
  const namespace = seed.namespace ?? 'kagent';
  const status: Json | undefined = seed.ready === undefined || seed.ready === null ? undefined : {
    conditions: [condition('Ready', seed.ready ? 'True' : 'False', seed.readyReason ?? (seed.ready ? 'InstallSucceeded' : 'InstallFailed'), seed.readyMessage ?? '')],
    ...(seed.chartVersion ? { history: [historyEntry(seed.name, namespace, seed.chartVersion)] } : {}),
    ...(seed.chartVersion ? { lastAttemptedRevision: seed.chartVersion } : {}),
  };
  return withStatus(sandbox, 'helmreleases', {
    apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
    metadata: { name: seed.name, namespace, labels: seed.labels ?? { 'app.kubernetes.io/managed-by': 'agent-manager' } },
    spec: {
      interval: '10m',
      chartRef: seed.chartRef ?? { kind: 'OCIRepository', name: 'agent', namespace },
      values: seed.values ?? { agent: { name: seed.name }, modelConfig: { name: 'default-model-config' } },
      ...(seed.suspend ? { suspend: true } : {}),
    },
  }, status);
}

export interface AgentSeed {
  namespace?: string;
  name: string;
  release?: { name: string; namespace: string };
  displayName?: string;
  ready?: boolean | null;
  accepted?: boolean | null;
  acceptedMessage?: string;
  toolNames?: string[];
  toolsetHeader?: string;
  gitRefs?: Json[];
  modelConfig?: string;
}

export function seedAgentCr(sandbox: SeedTarget, seed: AgentSeed): Json {
  const namespace = seed.namespace ?? 'kagent';
  const labels: Record<string, string> = { 'app.kubernetes.io/managed-by': 'Helm' };
  if (seed.release) {
    labels['helm.toolkit.fluxcd.io/name'] = seed.release.name;
    labels['helm.toolkit.fluxcd.io/namespace'] = seed.release.namespace;
  }
  const tool: Json = { type: 'McpServer', mcpServer: { kind: 'RemoteMCPServer', apiGroup: 'kagent.dev', name: 'muster', namespace: 'agent-platform', ...(seed.toolNames ? { toolNames: seed.toolNames } : {}) } };
  if (seed.toolsetHeader !== undefined) tool.headersFrom = [{ name: 'X-Muster-Toolset', value: seed.toolsetHeader }];
  const conditions: Json[] = [];
  if (seed.accepted !== undefined && seed.accepted !== null) conditions.push(condition('Accepted', seed.accepted ? 'True' : 'False', seed.accepted ? 'Reconciled' : 'ReconcileFailed', seed.acceptedMessage ?? ''));
  if (seed.ready !== undefined && seed.ready !== null) conditions.push(condition('Ready', seed.ready ? 'True' : 'False', seed.ready ? 'DeploymentReady' : 'DeploymentNotReady'));
  return withStatus(sandbox, 'agents', {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent',
    metadata: {
      name: seed.name, namespace, labels,
      ...(seed.displayName ? { annotations: { 'ui.giantswarm.io/display-name': seed.displayName } } : {}),
    },
    spec: {
      type: 'Declarative',
      ...(seed.gitRefs ? { skills: { gitRefs: seed.gitRefs } } : {}),
      declarative: { modelConfig: seed.modelConfig ?? 'default-model-config', runtime: 'go', systemMessage: 'You are a helpful agent.', tools: [tool] },
    },
  }, conditions.length > 0 ? { observedGeneration: 1, conditions } : undefined);
}

/** The Go fixture's `verifier`: a Ready release (chart 0.5.2+abc) and its rendered Agent CR. */
export function seedVerifier(sandbox: SeedTarget, namespace = 'kagent'): void {
  seedRelease(sandbox, {
    namespace, name: 'verifier', ready: true, chartVersion: '0.5.2+abc',
    values: { agent: { name: 'verifier', displayName: 'Verifier' }, modelConfig: { name: 'default-model-config' } },
  });
  seedAgentCr(sandbox, {
    namespace, name: 'verifier', release: { name: 'verifier', namespace }, displayName: 'Display verifier',
    ready: true, accepted: true, toolNames: ['x_a_b'], gitRefs: [{ url: 'https://github.com/o/r', path: 'a', name: 'a' }],
  });
}

export interface WorkloadSeed {
  namespace?: string;
  name: string;
  replicas?: number;
  available?: number;
  pods?: { name: string; ready: boolean; restarts?: number; waiting?: { reason: string; message?: string } }[];
}

/** The Deployment and pods kagent runs for an agent. */
export function seedWorkload(sandbox: SeedTarget, seed: WorkloadSeed): void {
  const namespace = seed.namespace ?? 'kagent';
  const replicas = seed.replicas ?? 1;
  const available = seed.available ?? replicas;
  withStatus(sandbox, 'deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: seed.name, namespace },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'kagent', kagent: seed.name } },
      template: { metadata: { labels: { app: 'kagent', kagent: seed.name } }, spec: { containers: [{ name: 'kagent', image: 'kagent:test' }] } },
    },
  }, {
    replicas, readyReplicas: available, availableReplicas: available, updatedReplicas: replicas, observedGeneration: 1,
  });
  for (const pod of seed.pods ?? []) {
    withStatus(sandbox, 'pods', {
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: pod.name, namespace, labels: { app: 'kagent', kagent: seed.name } },
      spec: { containers: [{ name: 'kagent', image: 'kagent:test' }] },
    }, {
      phase: 'Running',
      conditions: [condition('Ready', pod.ready ? 'True' : 'False', pod.ready ? '' : 'ContainersNotReady')],
      containerStatuses: [{
        name: 'kagent', ready: pod.ready, restartCount: pod.restarts ?? 0, image: 'kagent:test', imageID: '',
        state: pod.waiting ? { waiting: pod.waiting } : { running: { startedAt: now() } },
      }],
    });
  }
}

/** A Warning event about an object. */
export function seedWarning(
  sandbox: SeedTarget, namespace: string, object: { kind: string; name: string }, reason: string, message: string,
): void {
  sandbox.store.create('events', {
    apiVersion: 'v1', kind: 'Event',
    metadata: { name: `${object.name}.${Math.random().toString(16).slice(2)}`, namespace },
    involvedObject: { kind: object.kind, name: object.name, namespace },
    type: 'Warning', reason, message, count: 1, lastTimestamp: now(),
  } as never, opts);
}

export { CHART_URL };

/** An accepted ModelConfig (the seed has two in kagent only). */
export function seedModelConfig(sandbox: SeedTarget, namespace: string, name: string, provider = 'OpenAI', model = name): void {
  withStatus(sandbox, 'modelconfigs', {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'ModelConfig', metadata: { name, namespace }, spec: { provider, model },
  }, { observedGeneration: 1, conditions: [condition('Accepted', 'True', 'ModelConfigReconciled', 'Model configuration accepted')] });
}
