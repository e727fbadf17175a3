/**
 * Lists and watches through the real @kubernetes/client-node: label and field selectors,
 * limit and continue, lists across namespaces, the resourceVersion and
 * resourceVersionMatch of lists (504 too large, 410 for a stale exact version), and
 * watches from a resourceVersion
 * (client-node's Watch class), including the 410 Expired of a resourceVersion older than
 * the kept history. The tests that expect exact lists of the shared configmaps run in order;
 * the watches that end on their own, and the refusals, run at once.
 */
import { Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HR, helmRelease, raw, rejection, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ historyCapacity: 50 });
  const cms: Array<[string, Record<string, string>]> = [
    ['a', { app: 'web', tier: 'front' }], ['b', { app: 'web', tier: 'back' }], ['c', { app: 'db' }], ['d', {}],
  ];
  for (const [name, labels] of cms) {
    await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name, labels } } });
  }
  await h.core.createNamespacedEvent({
    namespace: 'tenant',
    body: { metadata: { name: 'ev1' }, involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'tenant' }, reason: 'BackOff', type: 'Warning', message: 'crash' },
  });
  await h.core.createNamespacedEvent({
    namespace: 'tenant',
    body: { metadata: { name: 'ev2' }, involvedObject: { kind: 'Agent', name: 'sre', namespace: 'tenant' }, reason: 'Ok', type: 'Normal', message: 'fine' },
  });
});
afterAll(async () => {
  await h.sandbox.close();
});

const names = (list: { items: Array<{ metadata?: { name?: string } }> }) => list.items.map((i) => i.metadata!.name);

describe('sandbox list selectors', () => {
  it.each([
    ['equality', 'app=web', ['a', 'b']],
    ['double equals', 'app==web', ['a', 'b']],
    ['inequality', 'app!=web', ['c', 'd']],
    ['set membership', 'tier in (front,back)', ['a', 'b']],
    ['set exclusion', 'app notin (web)', ['c', 'd']],
    ['existence', 'tier', ['a', 'b']],
    ['non-existence', '!tier', ['c', 'd']],
    ['conjunction', 'app=web,tier!=back', ['a']],
  ])('selects by label: %s', async (_name, labelSelector, expected) => {
    const list = await h.core.listNamespacedConfigMap({ namespace: 'tenant', labelSelector });
    expect(names(list)).toEqual(expected);
  });

  it.each([
    ['metadata.name', 'metadata.name=b', ['b']],
    ['metadata.name inequality', 'metadata.name!=a', ['b', 'c', 'd']],
    ['metadata.namespace', 'metadata.namespace==tenant', ['a', 'b', 'c', 'd']],
  ])('selects configmaps by field: %s', async (_name, fieldSelector, expected) => {
    const list = await h.core.listNamespacedConfigMap({ namespace: 'tenant', fieldSelector });
    expect(names(list)).toEqual(expected);
  });

  it.each([
    ['involvedObject.name', 'involvedObject.name=web-1', ['ev1']],
    ['involvedObject.kind', 'involvedObject.kind=Agent', ['ev2']],
    ['type', 'type=Warning', ['ev1']],
    ['combined', 'involvedObject.kind=Pod,type!=Warning', []],
  ])('selects events by field: %s', async (_name, fieldSelector, expected) => {
    const list = await h.core.listNamespacedEvent({ namespace: 'tenant', fieldSelector });
    expect(names(list)).toEqual(expected);
  });

  it('selects secrets by type', async () => {
    await h.core.createNamespacedSecret({ namespace: 'tenant', body: { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } } });
    await h.core.createNamespacedSecret({ namespace: 'tenant', body: { metadata: { name: 'plain' }, data: {} } });
    expect(names(await h.core.listNamespacedSecret({ namespace: 'tenant', fieldSelector: 'type=kubernetes.io/tls' }))).toEqual(['tls']);
  });

  it('refuses an unsupported field label with 400', async () => {
    const { code, status } = await rejection(h.core.listNamespacedConfigMap({ namespace: 'tenant', fieldSelector: 'data.x=1' }));
    expect(code).toBe(400);
    expect(status.message).toBe('field label not supported: data.x');
  });

  it('refuses an unparsable label selector with 400', async () => {
    const { code, status } = await rejection(h.core.listNamespacedConfigMap({ namespace: 'tenant', labelSelector: 'app in web' }));
    expect(code).toBe(400);
    expect(status.message).toMatch(/^unable to parse requirement/);
  });
});

describe('sandbox list paging and scope', () => {
  it('pages with limit and continue, reporting the remaining count', async () => {
    const first = await h.core.listNamespacedConfigMap({ namespace: 'tenant', limit: 3 });
    expect(names(first)).toEqual(['a', 'b', 'c']);
    expect(first.metadata!.remainingItemCount).toBe(1);
    expect(first.metadata!._continue).toBeTruthy();
    const second = await h.core.listNamespacedConfigMap({ namespace: 'tenant', limit: 3, _continue: first.metadata!._continue });
    expect(names(second)).toEqual(['d']);
    expect(second.metadata!._continue).toBeUndefined();
  });

  it('pages a selected list without a remaining count', async () => {
    const first = await h.core.listNamespacedConfigMap({ namespace: 'tenant', limit: 1, labelSelector: 'app=web' });
    expect(names(first)).toEqual(['a']);
    expect(first.metadata!.remainingItemCount).toBeUndefined();
    const second = await h.core.listNamespacedConfigMap({ namespace: 'tenant', limit: 1, labelSelector: 'app=web', _continue: first.metadata!._continue });
    expect(names(second)).toEqual(['b']);
  });

  it('refuses a forged continue token with 400', async () => {
    const { code } = await rejection(h.core.listNamespacedConfigMap({ namespace: 'tenant', _continue: 'not-a-token' }));
    expect(code).toBe(400);
  });

  it('lists a namespaced custom resource across all namespaces', async () => {
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('one') });
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'tenant', body: helmRelease('two', 'tenant') });
    const all = await h.custom.listClusterCustomObject({ ...HR });
    expect(all.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(['kagent/one', 'tenant/two']);
    expect(all.kind).toBe('HelmReleaseList');
    expect(all.apiVersion).toBe('helm.toolkit.fluxcd.io/v2');
    expect(Number(all.metadata.resourceVersion)).toBe(h.sandbox.store.revision);
  });

  it('serialises built-in list items without apiVersion and kind, custom ones with them', async () => {
    const typed = await raw(h.sandbox, 'GET', '/api/v1/namespaces/tenant/configmaps?limit=1');
    expect(typed.json).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1' });
    expect(Object.keys(typed.json.items[0])).not.toContain('kind');
    const custom = await raw(h.sandbox, 'GET', '/apis/kagent.dev/v1alpha2/modelconfigs?limit=1');
    expect(custom.json.items[0]).toMatchObject({ apiVersion: 'kagent.dev/v1alpha2', kind: 'ModelConfig' });
  });

  it('lists cluster-scoped namespaces', async () => {
    expect(names(await h.core.listNamespace())).toEqual(['agents', 'default', 'kagent', 'kube-system', 'tenant']);
  });
});

describe('sandbox list resourceVersion semantics', () => {
  const list = (query: string) => raw(h.sandbox, 'GET', `/api/v1/namespaces/tenant/configmaps?${query}`);

  it('serves a version not older than asked for, at the current version', async () => {
    const current = Number((await list('')).json.metadata.resourceVersion);
    const res = await list(`resourceVersion=${current - 1}&resourceVersionMatch=NotOlderThan`);
    expect(res.code).toBe(200);
    expect(res.json.metadata.resourceVersion).toBe(String(current));
  });

  it('answers a version newer than the store 504 Too large resource version, as the watch cache does', async () => {
    const current = Number((await list('')).json.metadata.resourceVersion);
    const res = await list(`resourceVersion=${current + 1000}`);
    expect(res.code).toBe(504);
    expect(res.json).toMatchObject({
      reason: 'Timeout', message: `Too large resource version: ${current + 1000}, current: ${current}`,
      details: { causes: [{ reason: 'ResourceVersionTooLarge' }], retryAfterSeconds: 1 },
    });
  });

  it('serves a GET at a version not older than asked for, and one newer than the store 504', async () => {
    const current = Number((await list('')).json.metadata.resourceVersion);
    expect((await raw(h.sandbox, 'GET', `/api/v1/namespaces/kagent?resourceVersion=${current}`)).code).toBe(200);
    const ahead = await raw(h.sandbox, 'GET', `/api/v1/namespaces/kagent?resourceVersion=${current + 1000}`);
    expect(ahead.code).toBe(504);
    expect(ahead.json).toMatchObject({ reason: 'Timeout', message: `Too large resource version: ${current + 1000}, current: ${current}` });
    expect((await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent?resourceVersion=abc')).json).toMatchObject({ code: 400, message: 'invalid resource version: abc' });
  });

  it('serves an exact version while the resource has not changed since, reporting that version', async () => {
    const before = (await list('')).json.metadata.resourceVersion as string;
    await h.core.createNamespacedSecret({ namespace: 'tenant', body: { metadata: { name: 'unrelated' } } });
    const res = await list(`resourceVersion=${before}&resourceVersionMatch=Exact`);
    expect(res.code).toBe(200);
    expect(res.json.metadata.resourceVersion).toBe(before);
  });

  it('answers an exact version the resource has changed since with the objects as they were then, never a newer state', async () => {
    await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'exact-changed' }, data: { v: '1' } } });
    await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'exact-deleted' } } });
    const before = (await list('')).json;
    await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'exact-probe' } } });
    const changed = await h.core.readNamespacedConfigMap({ namespace: 'tenant', name: 'exact-changed' });
    await h.core.replaceNamespacedConfigMap({ namespace: 'tenant', name: 'exact-changed', body: { ...changed, data: { v: '2' } } });
    await h.core.deleteNamespacedConfigMap({ namespace: 'tenant', name: 'exact-deleted' });
    const res = await list(`resourceVersion=${before.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(res.code).toBe(200);
    expect(res.json.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(res.json.items).toEqual(before.items);
  });

  it('serves every later page at the first page\'s version, whatever was written between them', async () => {
    for (const name of ['page-a', 'page-b', 'page-c', 'page-d']) {
      await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name } } });
    }
    const whole = (await list('')).json;
    const first = (await list('limit=2')).json;
    await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'page-zz-after' } } });
    await h.core.deleteNamespacedConfigMap({ namespace: 'tenant', name: 'page-d' });
    const items = [...first.items];
    let token = first.metadata.continue as string | undefined;
    while (token) {
      const next = (await list(`limit=2&continue=${encodeURIComponent(token)}`)).json;
      expect(next.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
      items.push(...next.items);
      token = next.metadata.continue;
    }
    const names = (list: Array<{ metadata: { name: string } }>) => list.map((i) => i.metadata.name);
    expect(names(items)).toEqual(names(whole.items));
  });

  it.each([
    ['a match without a version', 'resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['exact on version 0', 'resourceVersion=0&resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
    ['an unknown match', 'resourceVersion=1&resourceVersionMatch=Newest', 'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""'],
  ])('refuses %s as 422 on ListOptions', async (_name, query, message) => {
    const res = await list(query);
    expect(res.code).toBe(422);
    expect(res.json.message).toBe(`ListOptions.meta.k8s.io "" is invalid: ${message}`);
  });

  it('refuses a watch from a version newer than the store with 504 before streaming', async () => {
    const current = Number((await list('')).json.metadata.resourceVersion);
    const res = await list(`watch=1&resourceVersion=${current + 50}`);
    expect(res.code).toBe(504);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } });
  });

  it('refuses a resourceVersion that is not a number with 400', async () => {
    const res = await list('resourceVersion=abc');
    expect(res.code).toBe(400);
    expect(res.json.message).toBe('invalid resource version: abc');
  });
});

/** Collect watch events until `count` arrived, then abort the watch. */
function collect(
  path: string, query: Record<string, string | number | boolean | undefined>, count: number,
): { events: Promise<Array<[string, any]>>; started: Promise<AbortController> } {
  const received: Array<[string, any]> = [];
  let resolveEvents!: (events: Array<[string, any]>) => void;
  let rejectEvents!: (err: unknown) => void;
  const events = new Promise<Array<[string, any]>>((resolve, reject) => {
    resolveEvents = resolve;
    rejectEvents = reject;
  });
  const started = new Watch(h.kc).watch(path, query, (type, obj) => {
    received.push([type, obj]);
    if (received.length === count) {
      void started.then((c) => c.abort());
      resolveEvents(received);
    }
  }, (err) => {
    if (received.length >= count) return;
    if (err) rejectEvents(err);
    else resolveEvents(received);
  });
  return { events, started };
}

describe('sandbox watch through client-node', () => {
  it('replays changes after a resourceVersion, then streams new ones', async () => {
    const start = await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'w1' }, data: { v: '1' } } });
    await h.core.replaceNamespacedConfigMap({ namespace: 'tenant', name: 'w1', body: { metadata: { name: 'w1' }, data: { v: '2' } } });
    const { events, started } = collect('/api/v1/namespaces/tenant/configmaps', { resourceVersion: start.metadata!.resourceVersion }, 3);
    await started;
    await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'w2' } } });
    await h.core.deleteNamespacedConfigMap({ namespace: 'tenant', name: 'w1' });
    const got = await events;
    expect(got.map(([t, o]) => `${t} ${o.metadata.name}`)).toEqual(['MODIFIED w1', 'ADDED w2', 'DELETED w1']);
    expect(got[0]![1].data).toEqual({ v: '2' });
    const rvs = got.map(([, o]) => Number(o.metadata.resourceVersion));
    expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
  });

  it('turns label changes into ADDED and DELETED for a selector watch', async () => {
    const { events, started } = collect('/api/v1/namespaces/tenant/configmaps', { labelSelector: 'watched=yes', resourceVersion: String(h.sandbox.store.revision) }, 2);
    await started;
    await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'sel' } } });
    await h.core.patchNamespacedConfigMap({ namespace: 'tenant', name: 'sel', body: [{ op: 'add', path: '/metadata/labels', value: { watched: 'yes' } }] });
    const unlabelled = await h.core.patchNamespacedConfigMap({ namespace: 'tenant', name: 'sel', body: [{ op: 'remove', path: '/metadata/labels' }] });
    const got = await events;
    expect(got.map(([t]) => t)).toEqual(['ADDED', 'DELETED']);
    // As the watch cache sends it: the object as the watch last saw it selected, at the change's resourceVersion.
    expect(got[1]![1].metadata).toMatchObject({ labels: { watched: 'yes' }, resourceVersion: unlabelled.metadata!.resourceVersion });
  });

  // From here on at once: none of these reads what another one writes.
  it.concurrent('starts with the current state as ADDED events when no resourceVersion is given', async ({ expect }) => {
    const { events } = collect('/apis/kagent.dev/v1alpha2/namespaces/kagent/modelconfigs', {}, 2);
    expect((await events).map(([t, o]) => `${t} ${o.metadata.name}`)).toEqual(['ADDED default-model-config', 'ADDED qwen3-8-27b']);
  });

  it.concurrent('ends a watch from a resourceVersion older than the history with 410 Expired', async ({ expect }) => {
    for (let i = 0; i < 60; i++) await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: `bulk-${i}` } } });
    const { events } = collect('/api/v1/namespaces/tenant/configmaps', { resourceVersion: '1' }, 1);
    const [[type, status]] = (await events) as [[string, any]];
    expect(type).toBe('ERROR');
    expect(status).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(status.message).toMatch(/^too old resource version: 1 \(\d+\)$/);
  });

  it.concurrent('honours timeoutSeconds and flushes headers at once', async ({ expect }) => {
    const res = await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent/serviceaccounts?watch=1&timeoutSeconds=1');
    expect(res.code).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.text.trim().split('\n')[0]!)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'agent-manager' } } });
  });

  it.concurrent('sends initial events and an end bookmark with sendInitialEvents', async ({ expect }) => {
    const res = await raw(h.sandbox, 'GET', '/api/v1/namespaces?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1');
    const lines = res.text.trim().split('\n').map((l) => JSON.parse(l));
    // The five seeded namespaces, then the bookmark.
    expect(lines.slice(0, 5).map((l) => l.type)).toEqual(['ADDED', 'ADDED', 'ADDED', 'ADDED', 'ADDED']);
    expect(lines[5]).toMatchObject({ type: 'BOOKMARK', object: { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } } });
  });

  it.concurrent.for([
    ['sendInitialEvents on a list', '/api/v1/namespaces?sendInitialEvents=true', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
    ['sendInitialEvents without NotOlderThan', '/api/v1/namespaces?watch=true&sendInitialEvents=true',
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
    ['resourceVersionMatch on a plain watch', '/api/v1/namespaces?watch=true&resourceVersion=1&resourceVersionMatch=NotOlderThan',
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
  ])('refuses %s with 422 on ListOptions, before any event', async ([_what, path, message], { expect }) => {
    const res = await raw(h.sandbox, 'GET', path);
    expect(res.code).toBe(422);
    expect(res.json).toMatchObject({ reason: 'Invalid', message: `ListOptions.meta.k8s.io "" is invalid: ${message}`, details: { kind: 'ListOptions', group: 'meta.k8s.io' } });
  });
});
