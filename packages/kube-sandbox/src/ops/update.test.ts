import { describe, expect, it } from 'vitest';
import { deployments } from '../resources/builtin-apps-rbac.js';
import { configmaps } from '../resources/builtin-core.js';
import { commitAction, nextGeneration, nextVersion } from './update.js';

const stored = {
  apiVersion: 'apps/v1', kind: 'Deployment',
  metadata: { name: 'web', namespace: 'team', uid: 'u1', resourceVersion: '7', generation: 2,
    creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { replicas: 1 }, status: { replicas: 1 },
};

describe('nextVersion', () => {
  it('a main write keeps the stored status and the immutable metadata of a kind with a status subresource', () => {
    const candidate = { ...stored, metadata: { name: 'web', namespace: 'team', uid: 'other', resourceVersion: '3',
      labels: { a: 'b' } }, spec: { replicas: 2 }, status: { replicas: 9 } };
    expect(nextVersion(deployments, stored, candidate, 'main')).toEqual({
      ...stored, metadata: { ...stored.metadata, labels: { a: 'b' }, generation: undefined }, spec: { replicas: 2 },
    });
  });

  it('a status write changes the status only', () => {
    const candidate = { ...stored, spec: { replicas: 5 }, status: { replicas: 2 } };
    expect(nextVersion(deployments, stored, candidate, 'status')).toEqual({ ...stored, status: { replicas: 2 } });
  });

  it('a main write of a kind without a status subresource takes the status sent', () => {
    const old = { metadata: { name: 'c', resourceVersion: '1' }, data: {} };
    const next = nextVersion(configmaps, old, { metadata: { name: 'c' }, status: 'x' }, 'main');
    expect(next).toEqual({ metadata: { name: 'c', resourceVersion: '1' }, status: 'x' });
  });
});

describe('nextGeneration', () => {
  it('a change of the desired state bumps the generation of a kind that tracks it', () => {
    expect(nextGeneration(deployments, stored, { ...stored, spec: { replicas: 3 } })).toBe(3);
  });

  it('a change of metadata or status alone does not', () => {
    const next = { ...stored, metadata: { ...stored.metadata, labels: { a: 'b' } }, status: { replicas: 4 } };
    expect(nextGeneration(deployments, stored, next)).toBe(2);
  });

  it('a kind that does not track it keeps the stored one, or none', () => {
    expect(nextGeneration(configmaps, { metadata: { generation: 4 } }, { data: { a: '1' } })).toBe(4);
    expect(nextGeneration(configmaps, { metadata: {} }, { data: { a: '1' } })).toBeUndefined();
  });
});

describe('commitAction', () => {
  const withRv = (rv: string, extra: object = {}) => ({ ...stored, metadata: { ...stored.metadata, resourceVersion: rv,
    ...extra } });

  it('an object equal but for its resourceVersion and managedFields is not written', () => {
    expect(commitAction(stored, withRv('8', { managedFields: [{ manager: 'm' }] }), false, false)).toBe('unchanged');
  });

  it('for apply, a change of ownership alone is written; its time alone is not', () => {
    const owned = withRv('7', { managedFields: [{ manager: 'm', time: 't1' }] });
    expect(commitAction(owned, withRv('7', { managedFields: [{ manager: 'n', time: 't1' }] }), true, false))
      .toBe('put');
    expect(commitAction(owned, withRv('7', { managedFields: [{ manager: 'm', time: 't2' }] }), true, false))
      .toBe('unchanged');
  });

  it('a dry run of a change stores nothing', () => {
    expect(commitAction(stored, { ...stored, spec: { replicas: 2 } }, false, true)).toBe('dry-run');
  });

  it('an object being deleted goes with its last finalizer, unless a grace period is still running', () => {
    const deleting = withRv('7', { deletionTimestamp: 't', finalizers: ['f'] });
    expect(commitAction(deleting, withRv('7', { deletionTimestamp: 't' }), false, false)).toBe('remove');
    expect(commitAction(deleting, withRv('7', { deletionTimestamp: 't', deletionGracePeriodSeconds: 30 }), false,
      false)).toBe('put');
  });
});
