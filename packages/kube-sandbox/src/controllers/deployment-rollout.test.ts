import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../api/json.js';
import { comparableTemplate, deploymentStatus, matchTemplate, newReplicaSet, REVISION, sumReplicaSets,
  templateHash } from './deployment-rollout.js';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'img:1' }] } };
const hashed = (hash: string) => ({ ...template, metadata: { labels: { app: 'web', 'pod-template-hash': hash } } });
const replicaSet = (name: string, revision: number, tpl: JsonObject, labels: JsonObject = {}): JsonObject => ({
  metadata: { name, labels, annotations: { [REVISION]: String(revision) } }, spec: { template: tpl },
});
const dep: JsonObject = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', namespace: 'team', uid: 'u1', generation: 3 },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template },
};

describe('comparableTemplate', () => {
  it('leaves out the pod-template-hash label and a null creationTimestamp', () => {
    const tpl = { metadata: { creationTimestamp: null, labels: { 'pod-template-hash': 'x' } }, spec: {} };
    expect(comparableTemplate(tpl)).toEqual({ spec: {} });
  });
});

describe('matchTemplate', () => {
  it('finds the owned ReplicaSet running the template whatever its hash label, and keeps that label', () => {
    const old = replicaSet('web-old', 1, { ...template, spec: { containers: [] } });
    const running = replicaSet('web-abc', 2, hashed('abc'), { app: 'web', 'pod-template-hash': 'abc' });
    expect(matchTemplate([old, running], template)).toEqual({ current: running, hash: 'abc', newest: 2 });
  });

  it('names the template hash and the newest revision when no owned ReplicaSet runs the template', () => {
    const old = replicaSet('web-old', 4, { ...template, spec: { containers: [] } });
    expect(matchTemplate([old], template)).toEqual({ current: undefined, hash: templateHash(template), newest: 4 });
  });

  it('starts at revision 0 with nothing owned', () => {
    expect(matchTemplate([], template).newest).toBe(0);
  });
});

describe('newReplicaSet', () => {
  it('is named and labelled by the hash, owned by the Deployment, at the revision given', () => {
    const rs = newReplicaSet(dep, 'h1', 5);
    expect(rs.metadata).toEqual({
      name: 'web-h1', namespace: 'team', labels: { app: 'web', 'pod-template-hash': 'h1' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'u1', controller: true,
        blockOwnerDeletion: true }],
      annotations: { 'deployment.kubernetes.io/desired-replicas': '2', [REVISION]: '5' },
    });
    expect(rs.spec).toEqual({
      replicas: 2, selector: { matchLabels: { app: 'web', 'pod-template-hash': 'h1' } },
      template: { metadata: { labels: { app: 'web', 'pod-template-hash': 'h1' } }, spec: template.spec },
    });
  });
});

describe('deploymentStatus', () => {
  const counts = { replicas: 2, total: 2, ready: 2, available: 2, updated: 2, rsName: 'web-h1' };
  const reasons = (status: JsonObject) => (status.conditions as { type: string; reason: string }[])
    .map((c) => `${c.type}=${c.reason}`);

  it('a rollout with every replica updated and available is complete', () => {
    const status = deploymentStatus(dep, counts);
    expect(reasons(status)).toEqual(['Available=MinimumReplicasAvailable', 'Progressing=NewReplicaSetAvailable']);
    expect(status).toMatchObject({ observedGeneration: 3, replicas: 2, updatedReplicas: 2, readyReplicas: 2,
      availableReplicas: 2 });
    expect(status.unavailableReplicas).toBeUndefined();
  });

  it('zero counts are left out and the missing replicas are unavailable', () => {
    const status = deploymentStatus(dep, { ...counts, total: 1, ready: 0, available: 0, updated: 0 });
    expect(reasons(status)).toEqual(['Available=MinimumReplicasUnavailable', 'Progressing=ReplicaSetUpdated']);
    expect(Object.keys(status).sort()).toEqual(['conditions', 'observedGeneration', 'replicas', 'unavailableReplicas']);
    expect(status.unavailableReplicas).toBe(1);
  });

  it('one of four replicas missing still meets the default maxUnavailable of 25 %', () => {
    const status = deploymentStatus({ ...dep, spec: { replicas: 4 } },
      { ...counts, replicas: 4, total: 4, ready: 3, available: 3, updated: 4 });
    expect(reasons(status)).toEqual(['Available=MinimumReplicasAvailable', 'Progressing=ReplicaSetUpdated']);
  });
});

describe('sumReplicaSets', () => {
  it('adds the status counts of every ReplicaSet, a missing count as zero', () => {
    const all = [{ status: { replicas: 2, readyReplicas: 1, availableReplicas: 1 } }, { status: { replicas: 1 } }, {}];
    expect(sumReplicaSets(all)).toEqual({ total: 3, ready: 1, available: 1 });
  });
});
