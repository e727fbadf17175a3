import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors.js';
import type { Gvr, KubeObject } from '../../../src/service/ports.js';
import { FakeKube } from './fake-kube.js';

const HR: Gvr = { group: 'helm.toolkit.fluxcd.io', version: 'v2', resource: 'helmreleases', kind: 'HelmRelease' };
const release = (name: string, labels: Record<string, string> = {}): KubeObject =>
  ({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name, namespace: 'kagent', labels }, spec: { interval: '10m' } }) as KubeObject;

describe('FakeKube, the in-memory KubePort', () => {
  it('answers undefined for a missing object and false for deleting one', async () => {
    const kube = new FakeKube();
    expect(await kube.get(HR, 'kagent', 'nothing')).toBeUndefined();
    expect(await kube.remove(HR, 'kagent', 'nothing')).toBe(false);
  });

  it('creates with uid, creationTimestamp, apiVersion, kind and a new resourceVersion, and refuses an existing name with a conflict', async () => {
    const kube = new FakeKube();
    const created = await kube.create(HR, release('sre'));
    expect(created).toMatchObject({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'sre', resourceVersion: '1' } });
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    const err = await kube.create(HR, release('sre')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'conflict', message: expect.stringContaining('"sre" already exists') });
  });

  it('generates a name from generateName', async () => {
    const kube = new FakeKube();
    const created = await kube.create(HR, { ...release(''), metadata: { name: '', generateName: 'sre-', namespace: 'kagent' } });
    expect(created.metadata.name).toMatch(/^sre-[0-9a-z]{5}$/);
  });

  it('replaces the current version, refuses a stale resourceVersion with a conflict and a missing object with not_found', async () => {
    const kube = new FakeKube();
    const created = await kube.create(HR, release('sre'));
    const replaced = await kube.replace(HR, { ...created, spec: { interval: '5m' } });
    expect(replaced.metadata).toMatchObject({ uid: created.metadata.uid, resourceVersion: '2' });
    await expect(kube.replace(HR, created)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('the object has been modified') });
    await expect(kube.replace(HR, release('other'))).rejects.toMatchObject({ code: 'not_found' });
  });

  it('deletes only the version a precondition names', async () => {
    const kube = new FakeKube();
    const created = await kube.create(HR, release('sre'));
    await expect(kube.remove(HR, 'kagent', 'sre', { resourceVersion: '99' })).rejects.toMatchObject({ code: 'conflict' });
    expect(await kube.remove(HR, 'kagent', 'sre', { resourceVersion: created.metadata.resourceVersion })).toBe(true);
    expect(await kube.get(HR, 'kagent', 'sre')).toBeUndefined();
  });

  it('stores nothing on a dry run, but answers as the write would', async () => {
    const kube = new FakeKube();
    expect(await kube.create(HR, release('sre'), { dryRun: true })).toMatchObject({ metadata: { name: 'sre' } });
    expect(await kube.get(HR, 'kagent', 'sre')).toBeUndefined();
  });

  it('lists one namespace by label and field selector, in name order', async () => {
    const kube = new FakeKube();
    await kube.create(HR, release('b', { team: 'sre' }));
    await kube.create(HR, release('a', { team: 'sre' }));
    await kube.create(HR, release('c', { team: 'web' }));
    await kube.create(HR, { ...release('d', { team: 'sre' }), metadata: { name: 'd', namespace: 'tenant', labels: { team: 'sre' } } });
    const names = async (labelSelector?: string, fieldSelector?: string) =>
      (await kube.list(HR, 'kagent', { labelSelector, fieldSelector })).map((o) => o.metadata.name);
    expect(await names()).toEqual(['a', 'b', 'c']);
    expect(await names('team=sre')).toEqual(['a', 'b']);
    expect(await names('team!=sre')).toEqual(['c']);
    expect(await names('!team')).toEqual([]);
    expect(await names(undefined, 'metadata.name=c')).toEqual(['c']);
  });

  it('hands out copies: changing what a call returned changes nothing stored', async () => {
    const kube = new FakeKube();
    const created = await kube.create(HR, release('sre'));
    (created.metadata.labels as Record<string, string>).x = 'y';
    expect((await kube.get(HR, 'kagent', 'sre'))?.metadata.labels).toEqual({});
  });

  it('fails the next matching call when a fault is injected, and counts calls by Kubernetes verb', async () => {
    const kube = new FakeKube();
    kube.failNext('create', new AppError('backend_error', 'injected'), 'helmreleases');
    await expect(kube.create(HR, release('sre'))).rejects.toMatchObject({ message: expect.stringContaining('injected') });
    await kube.create(HR, release('sre'));
    await kube.replace(HR, (await kube.get(HR, 'kagent', 'sre'))!);
    expect(kube.counters.count({ verb: 'create' })).toBe(2);
    expect(kube.counters.count({ verb: 'update' })).toBe(1);
    kube.counters.reset();
    expect(kube.counters.count()).toBe(0);
  });
});
