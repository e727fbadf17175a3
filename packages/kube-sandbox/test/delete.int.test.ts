/**
 * Deletion through the real @kubernetes/client-node: finalizers hold an object with a
 * deletionTimestamp until the last one is removed, preconditions, delete-collection, and
 * namespace deletion (content deleted, namespace gone once empty).
 */
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HR, helmRelease, rejection, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.sandbox.close();
});

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

describe('sandbox delete through client-node', () => {
  it('deletes an object without finalizers at once and answers a Success Status for configmaps', async () => {
    await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'gone' } } });
    const status = await h.core.deleteNamespacedConfigMap({ namespace: 'tenant', name: 'gone' });
    expect(status).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'gone', kind: 'configmaps' } });
    expect(status).not.toHaveProperty('code');
    const { code } = await rejection(h.core.readNamespacedConfigMap({ namespace: 'tenant', name: 'gone' }));
    expect(code).toBe(404);
  });

  it('holds an object with finalizers, marked with deletionTimestamp, until they are removed', async () => {
    const body = helmRelease('fin');
    body.metadata.finalizers = ['finalizers.fluxcd.io'];
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body });
    const pending = await h.custom.deleteNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'fin' });
    expect(pending.metadata.deletionTimestamp).toBeDefined();
    expect(pending.metadata.generation).toBe(2);
    const still = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'fin' });
    expect(still.metadata.finalizers).toEqual(['finalizers.fluxcd.io']);

    const { code, status } = await rejection(h.custom.patchNamespacedCustomObject(
      { ...HR, namespace: 'kagent', name: 'fin', body: { metadata: { finalizers: ['finalizers.fluxcd.io', 'another/one'] } } }, merge,
    ));
    expect(code).toBe(422);
    expect(status.message).toContain('no new finalizers can be added if the object is being deleted');

    await h.custom.patchNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'fin', body: { metadata: { finalizers: null } } }, merge);
    const gone = await rejection(h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'fin' }));
    expect(gone.code).toBe(404);
  });

  it('refuses a delete whose preconditions do not hold', async () => {
    const cm = await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'pre' } } });
    const { code, status } = await rejection(h.core.deleteNamespacedConfigMap({
      namespace: 'tenant', name: 'pre', body: { preconditions: { resourceVersion: '1' } },
    }));
    expect(code).toBe(409);
    expect(status.message).toBe(`Operation cannot be fulfilled on configmaps "pre": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${cm.metadata!.resourceVersion}`);
    await h.core.deleteNamespacedConfigMap({ namespace: 'tenant', name: 'pre', body: { preconditions: { uid: cm.metadata!.uid } } });
  });

  it('accepts every propagation policy', async () => {
    for (const propagationPolicy of ['Background', 'Foreground', 'Orphan']) {
      await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: `prop-${propagationPolicy.toLowerCase()}` } } });
      await h.core.deleteNamespacedConfigMap({ namespace: 'tenant', name: `prop-${propagationPolicy.toLowerCase()}`, propagationPolicy });
    }
  });

  it('answers 404 NotFound for deleting what is not there', async () => {
    const { code, status } = await rejection(h.custom.deleteNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'never' }));
    expect(code).toBe(404);
    expect(status.message).toBe('helmreleases.helm.toolkit.fluxcd.io "never" not found');
  });

  it('deletes a collection by label selector', async () => {
    for (const [name, team] of [['c1', 'x'], ['c2', 'x'], ['c3', 'y']]) {
      await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name, labels: { team: team! } } } });
    }
    await h.core.deleteCollectionNamespacedConfigMap({ namespace: 'tenant', labelSelector: 'team=x' });
    const left = await h.core.listNamespacedConfigMap({ namespace: 'tenant', labelSelector: 'team' });
    expect(left.items.map((i) => i.metadata!.name)).toEqual(['c3']);
  });

  it('deletes a namespace with its content; finalizers hold it Terminating and refuse new content', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await h.core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'plain' } } });
    const held = helmRelease('held', 'doomed');
    held.metadata.finalizers = ['example.com/hold'];
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'doomed', body: held });

    await h.core.deleteNamespace({ name: 'doomed' });
    const ns = await h.core.readNamespace({ name: 'doomed' });
    expect(ns.status!.phase).toBe('Terminating');
    // As the namespace controller reports it (kubectl describe namespace): what remains, and which finalizers hold it.
    const conditions = Object.fromEntries(ns.status!.conditions!.map((c) => [c.type, `${c.status} ${c.reason}: ${c.message}`]));
    expect(conditions).toMatchObject({
      NamespaceDeletionContentFailure: 'False ContentDeleted: All content successfully deleted, may be waiting on finalization',
      NamespaceContentRemaining: 'True SomeResourcesRemain: Some resources are remaining: helmreleases.helm.toolkit.fluxcd.io has 1 resource instances',
      NamespaceFinalizersRemaining: 'True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    });
    expect((await rejection(h.core.readNamespacedConfigMap({ namespace: 'doomed', name: 'plain' }))).code).toBe(404);
    const refused = await rejection(h.core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'late' } } }));
    expect(refused.code).toBe(403);
    expect(refused.status.message).toBe('configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated');

    await h.custom.patchNamespacedCustomObject({ ...HR, namespace: 'doomed', name: 'held', body: { metadata: { finalizers: [] } } }, merge);
    expect((await rejection(h.core.readNamespace({ name: 'doomed' }))).code).toBe(404);
  });
});

describe('graceful deletion of pods', () => {
  const pod = (name: string, nodeName?: string, grace?: number) => ({
    metadata: { name },
    spec: { ...(nodeName ? { nodeName } : {}), ...(grace !== undefined ? { terminationGracePeriodSeconds: grace } : {}), containers: [{ name: 'c', image: 'busybox' }] },
  });

  it('keeps a pod on a node Terminating for its grace period, until a delete with grace period 0', async () => {
    await h.core.createNamespacedPod({ namespace: 'tenant', body: pod('graceful', 'sandbox-node') });
    const before = Date.now();
    const deleting = await h.core.deleteNamespacedPod({ namespace: 'tenant', name: 'graceful' }) as any;
    expect(deleting.kind).toBe('Pod');
    expect(deleting.metadata.deletionGracePeriodSeconds).toBe(30);
    const due = Date.parse(deleting.metadata.deletionTimestamp);
    expect(due).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 29_000);
    const stillThere = await h.core.readNamespacedPod({ namespace: 'tenant', name: 'graceful' });
    expect(stillThere.metadata!.deletionTimestamp).toBeDefined();

    const shorter = await h.core.deleteNamespacedPod({ namespace: 'tenant', name: 'graceful', gracePeriodSeconds: 5 }) as any;
    expect(shorter.metadata.deletionGracePeriodSeconds).toBe(5);
    const longer = await h.core.deleteNamespacedPod({ namespace: 'tenant', name: 'graceful', gracePeriodSeconds: 60 }) as any;
    expect(longer.metadata.deletionGracePeriodSeconds).toBe(5);

    await h.core.deleteNamespacedPod({ namespace: 'tenant', name: 'graceful', gracePeriodSeconds: 0 });
    expect((await rejection(h.core.readNamespacedPod({ namespace: 'tenant', name: 'graceful' }))).code).toBe(404);
  });

  it('takes the pod\'s terminationGracePeriodSeconds when the request names none', async () => {
    await h.core.createNamespacedPod({ namespace: 'tenant', body: pod('quick', 'sandbox-node', 3) });
    const deleting = await h.core.deleteNamespacedPod({ namespace: 'tenant', name: 'quick' }) as any;
    expect(deleting.metadata.deletionGracePeriodSeconds).toBe(3);
  });

  it('removes a pod no node runs at once', async () => {
    await h.core.createNamespacedPod({ namespace: 'tenant', body: pod('unscheduled') });
    await h.core.deleteNamespacedPod({ namespace: 'tenant', name: 'unscheduled' });
    expect((await rejection(h.core.readNamespacedPod({ namespace: 'tenant', name: 'unscheduled' }))).code).toBe(404);
  });
});
