/**
 * apps/v1 ControllerRevisions and the garbage collector, through the real
 * @kubernetes/client-node: revisions are served with the real server's rules (data
 * mandatory and immutable, revision not negative), and any object whose owners are all
 * gone is collected, whatever its kind, as kube-controller-manager does: after its owner
 * is deleted, when it was created pointing at an owner that does not exist, and not
 * while another owner lives. Orphan and Foreground propagation finish through the
 * collector. Every wait is a poll with a deadline.
 */
import type { V1ControllerRevision } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, rejection, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ controllers: true, reconcileDelayMs: 10 });
});
afterAll(async () => {
  await h.sandbox.close();
});

const ns = 'tenant';
const configMap = (name: string) => h.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name } } });
const ownerRef = (o: { metadata?: { name?: string; uid?: string } }, kind = 'ConfigMap', apiVersion = 'v1', extra: object = {}) =>
  ({ apiVersion, kind, name: o.metadata!.name!, uid: o.metadata!.uid!, ...extra });
const revision = (name: string, owners: object[], data: object = { n: 1 }): V1ControllerRevision =>
  ({ metadata: { name, namespace: ns, ownerReferences: owners as never }, revision: 1, data });
const exists = (name: string) => h.sandbox.store.find('controllerrevisions', ns, name) !== undefined;
const gone = (name: string) => eventually(() => (exists(name) ? undefined : true), 5_000, `${name} to be collected`);

describe('ControllerRevisions', () => {
  it('are created, read and listed like the real apps/v1 resource', async () => {
    await h.apps.createNamespacedControllerRevision({ namespace: ns, body: { metadata: { name: 'web-1', labels: { app: 'web' } }, revision: 1, data: { spec: { a: 1 } } } });
    const read = await h.apps.readNamespacedControllerRevision({ namespace: ns, name: 'web-1' });
    expect(read).toMatchObject({ kind: 'ControllerRevision', apiVersion: 'apps/v1', revision: 1, data: { spec: { a: 1 } } });
    const list = await h.apps.listNamespacedControllerRevision({ namespace: ns, labelSelector: 'app=web' });
    expect(list.items.map((i) => i.metadata!.name)).toEqual(['web-1']);
  });

  it('refuses one without data, with a negative revision, or a change of its data', async () => {
    const missing = await rejection(h.apps.createNamespacedControllerRevision({ namespace: ns, body: { metadata: { name: 'bad' }, revision: -1 } }));
    expect(missing.code).toBe(422);
    expect(missing.status.details.causes.map((c: { field: string }) => c.field).sort()).toEqual(['data', 'revision']);
    const stored = await h.apps.readNamespacedControllerRevision({ namespace: ns, name: 'web-1' });
    const changed = await rejection(h.apps.replaceNamespacedControllerRevision({ namespace: ns, name: 'web-1', body: { ...stored, data: { spec: { a: 2 } } } }));
    expect(changed.code).toBe(422);
    expect(changed.status.message).toContain('data: Invalid value');
    expect(changed.status.message).toContain('field is immutable');
    const relabelled = await h.apps.replaceNamespacedControllerRevision({ namespace: ns, name: 'web-1', body: { ...stored, metadata: { ...stored.metadata, labels: { app: 'web2' } } } });
    expect(relabelled.metadata!.labels).toEqual({ app: 'web2' });
  });
});

describe('the garbage collector', () => {
  it('deletes a dependent of any kind once its owner is deleted', async () => {
    const owner = await configMap('owner-a');
    await h.apps.createNamespacedControllerRevision({ namespace: ns, body: revision('dep-a', [ownerRef(owner)]) });
    await h.core.deleteNamespacedConfigMap({ namespace: ns, name: 'owner-a' });
    await gone('dep-a');
  });

  it('deletes a dependent created pointing at an owner that does not exist (or has another uid)', async () => {
    const owner = await configMap('owner-b');
    await h.apps.createNamespacedControllerRevision({ namespace: ns, body: revision('dep-b', [{ ...ownerRef(owner), uid: 'not-the-uid' }]) });
    await h.apps.createNamespacedControllerRevision({ namespace: ns, body: revision('dep-b2', [ownerRef({ metadata: { name: 'never', uid: 'u' } })]) });
    await gone('dep-b');
    await gone('dep-b2');
    expect(h.sandbox.store.find('configmaps', ns, 'owner-b')).toBeDefined();
  });

  it('keeps a dependent while another owner lives, dropping the reference to the one gone', async () => {
    const [first, second] = await Promise.all([configMap('owner-c1'), configMap('owner-c2')]);
    await h.apps.createNamespacedControllerRevision({ namespace: ns, body: revision('dep-c', [ownerRef(first), ownerRef(second)]) });
    await h.core.deleteNamespacedConfigMap({ namespace: ns, name: 'owner-c1' });
    const kept = await eventually(async () => {
      const o = await h.apps.readNamespacedControllerRevision({ namespace: ns, name: 'dep-c' });
      return o.metadata!.ownerReferences!.length === 1 ? o : undefined;
    }, 5_000, 'the dangling reference to be removed');
    expect(kept.metadata!.ownerReferences!.map((r) => r.name)).toEqual(['owner-c2']);
  });

  it('keeps a dependent whose owner kind the server does not serve', async () => {
    await h.apps.createNamespacedControllerRevision({
      namespace: ns, body: revision('dep-d', [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u' }]),
    });
    // Collected objects go within a few reconciles; this one must still be there after an owner-gone object is.
    await h.apps.createNamespacedControllerRevision({ namespace: ns, body: revision('dep-d2', [ownerRef({ metadata: { name: 'never', uid: 'u2' } })]) });
    await gone('dep-d2');
    expect(exists('dep-d')).toBe(true);
  });

  it('collects the dependents of a cluster-scoped owner in any namespace', async () => {
    const role = await h.sandbox.store.create('clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'gc-owner' }, rules: [] }, { fieldManager: 'test' });
    await h.apps.createNamespacedControllerRevision({ namespace: ns, body: revision('dep-e', [ownerRef(role as never, 'ClusterRole', 'rbac.authorization.k8s.io/v1')]) });
    h.sandbox.store.delete('clusterroles', '', 'gc-owner');
    await gone('dep-e');
  });

  it('orphans the dependents on propagationPolicy Orphan, then lets the owner go', async () => {
    const owner = await configMap('owner-f');
    await h.apps.createNamespacedControllerRevision({ namespace: ns, body: revision('dep-f', [ownerRef(owner)]) });
    await h.core.deleteNamespacedConfigMap({ namespace: ns, name: 'owner-f', propagationPolicy: 'Orphan' });
    await eventually(() => (h.sandbox.store.find('configmaps', ns, 'owner-f') ? undefined : true), 5_000, 'the owner to go');
    const orphan = await h.apps.readNamespacedControllerRevision({ namespace: ns, name: 'dep-f' });
    expect(orphan.metadata!.ownerReferences).toBeUndefined();
  });

  it('orphans the dependents on the deprecated orphanDependents, and refuses it beside propagationPolicy', async () => {
    const owner = await configMap('owner-o');
    await h.apps.createNamespacedControllerRevision({ namespace: ns, body: revision('dep-o', [ownerRef(owner)]) });
    const both = await rejection(h.core.deleteNamespacedConfigMap({ namespace: ns, name: 'owner-o', orphanDependents: true, propagationPolicy: 'Background' }));
    expect(both.code).toBe(422);
    expect(both.status.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set');
    await h.core.deleteNamespacedConfigMap({ namespace: ns, name: 'owner-o', orphanDependents: true });
    await eventually(() => (h.sandbox.store.find('configmaps', ns, 'owner-o') ? undefined : true), 5_000, 'the owner to go');
    const orphan = await h.apps.readNamespacedControllerRevision({ namespace: ns, name: 'dep-o' });
    expect(orphan.metadata!.ownerReferences).toBeUndefined();
  });

  it('deletes the blocking dependents first on propagationPolicy Foreground', async () => {
    const owner = await configMap('owner-g');
    await h.apps.createNamespacedControllerRevision({ namespace: ns, body: revision('dep-g', [ownerRef(owner, 'ConfigMap', 'v1', { blockOwnerDeletion: true })]) });
    await h.core.deleteNamespacedConfigMap({ namespace: ns, name: 'owner-g', propagationPolicy: 'Foreground' });
    const deleting = h.sandbox.store.find('configmaps', ns, 'owner-g');
    expect(deleting?.metadata).toMatchObject({ finalizers: ['foregroundDeletion'] });
    await gone('dep-g');
    await eventually(() => (h.sandbox.store.find('configmaps', ns, 'owner-g') ? undefined : true), 5_000, 'the owner to go');
  });
});
