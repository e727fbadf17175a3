import { describe, expect, it } from 'vitest';
import { fluxHistory } from '../../core/revisions/revision-history.js';
import { agentOf } from '../../service/reads/read-model.js';
import { foldStatus } from '../../service/status/agent-status.js';
import type { KubeObject } from '../../service/ports.js';
import { DEFAULT_API_VERSIONS, resourceTypes } from '../../service/resources.js';
import { slim } from './slim.js';

const types = resourceTypes(DEFAULT_API_VERSIONS);
const at = '2026-01-05T10:00:00Z';
const managedFields = [{ manager: 'kubelet', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': {} } }];
const meta = (name: string, extra: Record<string, unknown> = {}) => ({
  name, namespace: 'kagent', uid: `uid-${name}`, resourceVersion: '42', creationTimestamp: at, managedFields, ...extra,
});

// Whole objects as the API server lists them (kagent's Deployment and pod, a Warning event, Flux's release).
const deployment = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: meta('sre', { generation: 3, labels: { app: 'kagent', kagent: 'sre' }, annotations: { 'deployment.kubernetes.io/revision': '3' } }),
  spec: { replicas: 2, selector: { matchLabels: { kagent: 'sre' } }, template: { spec: { containers: [{ name: 'kagent', image: 'x' }] } } },
  status: {
    observedGeneration: 3, replicas: 3, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 1, collisionCount: 0,
    conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'no', lastTransitionTime: at, lastUpdateTime: at }] },
};
const pod = {
  apiVersion: 'v1', kind: 'Pod',
  metadata: meta('sre-7d9-abcde', { labels: { app: 'kagent', kagent: 'sre' }, generateName: 'sre-7d9-', ownerReferences: [{ kind: 'ReplicaSet' }] }),
  spec: { containers: [{ name: 'kagent', image: 'x', env: [{ name: 'A', value: 'b' }] }], nodeName: 'n1' },
  status: {
    phase: 'Running', podIP: '10.0.0.1', startTime: at, qosClass: 'Burstable',
    conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: at },
      { type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: at }],
    initContainerStatuses: [{ name: 'skills', ready: false, restartCount: 1, image: 'i', imageID: 'd',
      state: { terminated: { exitCode: 1, reason: 'Error', message: 'git clone failed' } } }],
    containerStatuses: [{ name: 'kagent', ready: false, started: false, restartCount: 4, image: 'x', imageID: 'sha', containerID: 'c',
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s' } }, lastState: { terminated: { exitCode: 2 } } }],
  },
};
const event = {
  apiVersion: 'v1', kind: 'Event', metadata: meta('sre-7d9-abcde.17a'),
  involvedObject: { kind: 'Pod', name: 'sre-7d9-abcde', namespace: 'kagent', uid: 'u', fieldPath: 'spec.containers{kagent}' },
  type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', count: 7, firstTimestamp: at, lastTimestamp: at,
  source: { component: 'kubelet', host: 'n1' }, reportingComponent: 'kubelet', reportingInstance: 'n1',
};
const release = {
  apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
  metadata: meta('sre', { generation: 4, labels: { 'app.kubernetes.io/managed-by': 'agent-manager' }, finalizers: ['finalizers.fluxcd.io'] }),
  spec: { interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'kagent' },
    values: { agent: { name: 'sre', displayName: 'SRE' }, modelConfig: { name: 'm' } } },
  status: {
    observedGeneration: 4, lastAttemptedGeneration: 4, lastAttemptedRevision: '0.6.0', lastAttemptedConfigDigest: 'sha256:1',
    storageNamespace: 'kagent', helmChart: 'kagent/kagent-sre',
    conditions: [{ type: 'Ready', status: 'True', reason: 'UpgradeSucceeded', message: 'ok', observedGeneration: 4, lastTransitionTime: at }],
    history: [{ name: 'sre', namespace: 'kagent', version: 2, status: 'deployed', chartName: 'agent', chartVersion: '0.6.0', appVersion: '0.1.0',
      configDigest: 'sha256:2', digest: 'sha256:a', firstDeployed: at, lastDeployed: at, ociDigest: 'sha256:b' }],
  },
};
const agent = {
  apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: meta('sre', { generation: 2, labels: { 'helm.toolkit.fluxcd.io/name': 'sre' } }),
  spec: { description: 'd', declarative: { modelConfig: 'm' } },
  status: { observedGeneration: 2, configHash: 'abc',
    conditions: [{ type: 'Ready', status: 'False', reason: 'DeploymentNotReady', lastTransitionTime: at }] },
};
const obj = (o: object) => o as unknown as KubeObject;

describe('slim', () => {
  it('keeps of a Deployment, a pod and a Warning event what get_agent_status folds: the status is the same', () => {
    const whole = {
      agent: obj(agent), release: obj(release), deployment: obj(deployment), pods: [obj(pod)], events: [obj(event)],
    };
    const slimmed = {
      agent: slim(types.agent, obj(agent)), release: slim(types.helmRelease, obj(release)),
      deployment: slim(types.deployment, obj(deployment)), pods: [slim(types.pod, obj(pod))],
      events: [slim(types.event, obj(event))],
    };
    expect(foldStatus('kagent', 'sre', slimmed)).toEqual(foldStatus('kagent', 'sre', whole));
    expect(foldStatus('kagent', 'sre', whole).pods?.[0]?.containers).toHaveLength(2);
    expect(slim(types.pod, obj(pod))).not.toHaveProperty('spec');
    expect(slim(types.deployment, obj(deployment)).spec).toEqual({ replicas: 2 });
  });

  it('keeps a release\'s and an Agent\'s metadata and spec whole, and what get_agent and the revisions read of their status', () => {
    const slimmed = slim(types.helmRelease, obj(release));
    const { managedFields: _m, ...metadata } = release.metadata;
    expect(slimmed.metadata).toEqual(metadata);
    expect(slimmed.spec).toEqual(release.spec);
    expect(agentOf(slim(types.agent, obj(agent)), slimmed, 'sre')).toEqual(agentOf(obj(agent), obj(release), 'sre'));
    expect(slim(types.agent, obj(agent)).spec).toEqual(agent.spec);
    expect(fluxHistory(slimmed.status)).toEqual(fluxHistory(release.status));
    expect(slimmed.status).not.toHaveProperty('storageNamespace');
  });

  it('drops managedFields of every type and keeps other types whole', () => {
    const revision = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: meta('sre-1', { labels: { a: 'b' } }), revision: 1,
      data: { operation: 'create', values: { agent: { name: 'sre' } } } };
    const slimmed = slim(types.controllerRevision, obj(revision));
    expect({ ...slimmed, metadata: { ...slimmed.metadata, managedFields } }).toEqual(revision);
    const all = [
      [types.pod, pod], [types.deployment, deployment], [types.event, event], [types.helmRelease, release],
      [types.agent, agent],
    ] as const;
    for (const [gvr, whole] of all) {
      expect(slim(gvr, obj(whole)).metadata).not.toHaveProperty('managedFields');
    }
  });

  it('leaves the object it was given as it was', () => {
    const before = structuredClone(pod);
    slim(types.pod, obj(pod));
    expect(pod).toEqual(before);
  });
});
