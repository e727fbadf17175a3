/**
 * CRUD through the real @kubernetes/client-node against the sandbox: create, get,
 * replace with optimistic concurrency, generateName, metadata stamping, status
 * subresources, dry run, and the Status bodies of every refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HR, helmRelease, raw, rejection, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.sandbox.close();
});

describe('sandbox CRUD through client-node', () => {
  it('creates a custom resource and stamps uid, resourceVersion, generation and creationTimestamp', async () => {
    const created = await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('crud-a') });
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(created.metadata.generation).toBe(1);
    expect(created.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(created.status).toEqual({ observedGeneration: -1 });
    const read = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a' });
    expect(read.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('stamps no generation on kinds without one (ConfigMap, Namespace), even when a client sends it', async () => {
    const created = await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'no-generation', generation: 5 }, data: { k: 'v' } } });
    expect(created.metadata!.generation).toBeUndefined();
    const replaced = await h.core.replaceNamespacedConfigMap({
      namespace: 'tenant', name: 'no-generation', body: { ...created, metadata: { ...created.metadata, generation: 7 }, data: { k: 'w' } },
    });
    expect(replaced.metadata!.generation).toBeUndefined();
    const ns = await h.core.readNamespace({ name: 'tenant' });
    expect(ns.metadata!.generation).toBeUndefined();
  });

  it('stamps generation 1 on a Deployment and bumps it on a spec change only', async () => {
    const body = {
      metadata: { name: 'generation-web' },
      spec: { selector: { matchLabels: { app: 'g' } }, template: { metadata: { labels: { app: 'g' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    const created = await h.apps.createNamespacedDeployment({ namespace: 'tenant', body });
    expect(created.metadata!.generation).toBe(1);
    created.metadata!.labels = { x: 'y' };
    const relabelled = await h.apps.replaceNamespacedDeployment({ namespace: 'tenant', name: 'generation-web', body: created });
    expect(relabelled.metadata!.generation).toBe(1);
    relabelled.spec!.replicas = 3;
    const scaled = await h.apps.replaceNamespacedDeployment({ namespace: 'tenant', name: 'generation-web', body: relabelled });
    expect(scaled.metadata!.generation).toBe(2);
  });

  it('keeps resourceVersion increasing across writes of different objects', async () => {
    const a = await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'rv-a' }, data: { k: 'v' } } });
    const b = await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'rv-b' }, data: { k: 'v' } } });
    expect(Number(b.metadata!.resourceVersion)).toBeGreaterThan(Number(a.metadata!.resourceVersion));
  });

  it('answers AlreadyExists with the real Status body', async () => {
    const { code, status } = await rejection(h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('crud-a') }));
    expect(code).toBe(409);
    expect(status).toMatchObject({
      kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'AlreadyExists', code: 409,
      message: 'helmreleases.helm.toolkit.fluxcd.io "crud-a" already exists',
      details: { name: 'crud-a', group: 'helm.toolkit.fluxcd.io', kind: 'helmreleases' },
    });
  });

  it('refuses a create that carries a resourceVersion, as the API server\'s storage does (500), and stores nothing', async () => {
    const body = { metadata: { name: 'recreated', resourceVersion: '12' }, data: { k: 'v' } };
    const { code, status } = await rejection(h.core.createNamespacedConfigMap({ namespace: 'tenant', body }));
    expect(code).toBe(500);
    expect(status).toMatchObject({
      reason: 'InternalError', message: 'Internal error occurred: resourceVersion should not be set on objects to be created',
    });
    expect((await rejection(h.core.readNamespacedConfigMap({ namespace: 'tenant', name: 'recreated' }))).code).toBe(404);
  });

  it('refuses a uid that is not the object\'s: a PUT as a failed precondition (409), a patch as immutable (422)', async () => {
    const created = await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'uid-kept' } } });
    const uid = created.metadata!.uid!;
    const other = '00000000-0000-0000-0000-000000000000';
    const put = await rejection(h.core.replaceNamespacedConfigMap({ namespace: 'tenant', name: 'uid-kept',
      body: { metadata: { name: 'uid-kept', uid: other }, data: { k: 'v' } } }));
    expect(put.code).toBe(409);
    expect(put.status.message).toBe(`Operation cannot be fulfilled on configmaps "uid-kept": Precondition failed: UID in precondition: ${other}, UID in object meta: ${uid}`);
    const patch = await rejection(h.core.patchNamespacedConfigMap({ namespace: 'tenant', name: 'uid-kept',
      body: [{ op: 'replace', path: '/metadata/uid', value: other }] }));
    expect(patch.code).toBe(422);
    expect(patch.status.message).toContain(`metadata.uid: Invalid value: "${other}": field is immutable`);
    expect((await h.core.readNamespacedConfigMap({ namespace: 'tenant', name: 'uid-kept' })).metadata!.uid).toBe(uid);
  });

  it('answers NotFound with the real Status body', async () => {
    const { code, status } = await rejection(h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'sre' }));
    expect(code).toBe(404);
    expect(status).toMatchObject({
      reason: 'NotFound', message: 'helmreleases.helm.toolkit.fluxcd.io "sre" not found',
      details: { name: 'sre', group: 'helm.toolkit.fluxcd.io', kind: 'helmreleases' },
    });
  });

  it('refuses objects in a namespace that does not exist, naming the namespace', async () => {
    const { code, status } = await rejection(h.core.createNamespacedConfigMap({ namespace: 'nowhere', body: { metadata: { name: 'x' } } }));
    expect(code).toBe(404);
    expect(status.message).toBe('namespaces "nowhere" not found');
  });

  it('generates a name from generateName', async () => {
    const created = await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { generateName: 'gen-' } } });
    expect(created.metadata!.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('replaces with the current resourceVersion and bumps generation on spec changes', async () => {
    const current = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a' });
    current.spec.interval = '5m';
    const replaced = await h.custom.replaceNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a', body: current });
    expect(replaced.spec.interval).toBe('5m');
    expect(replaced.metadata.generation).toBe(2);
    replaced.metadata.labels = { ...replaced.metadata.labels, extra: 'yes' };
    const relabelled = await h.custom.replaceNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a', body: replaced });
    expect(relabelled.metadata.generation).toBe(2);
  });

  it('refuses a replace with a stale resourceVersion with the real Conflict text', async () => {
    const current = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a' });
    await h.custom.replaceNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a', body: current });
    current.metadata.resourceVersion = '1';
    const { code, status } = await rejection(h.custom.replaceNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a', body: current }));
    expect(code).toBe(409);
    expect(status).toMatchObject({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on helmreleases.helm.toolkit.fluxcd.io "crud-a": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('refuses a replace of a custom resource without resourceVersion with 422, as CRDs allow no unconditional update', async () => {
    const current = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a' });
    delete current.metadata.resourceVersion;
    current.spec.interval = '7m';
    for (const replace of [
      () => h.custom.replaceNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a', body: current }),
      () => h.custom.replaceNamespacedCustomObjectStatus({ ...HR, namespace: 'kagent', name: 'crud-a', body: current }),
    ]) {
      const { code, status } = await rejection(replace());
      expect(code).toBe(422);
      expect(status).toMatchObject({
        reason: 'Invalid',
        message: 'helmreleases.helm.toolkit.fluxcd.io "crud-a" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
        details: {
          name: 'crud-a', group: 'helm.toolkit.fluxcd.io', kind: 'helmreleases',
          causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }],
        },
      });
    }
    const stored = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a' });
    expect(stored.spec.interval).not.toBe('7m');
  });

  it('treats a replace of a built-in kind without resourceVersion as unconditional', async () => {
    await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'unconditional' }, data: { k: 'v' } } });
    const replaced = await h.core.replaceNamespacedConfigMap({ namespace: 'tenant', name: 'unconditional', body: { metadata: { name: 'unconditional' }, data: { k: 'w' } } });
    expect(replaced.data).toEqual({ k: 'w' });
  });

  it('does not write (nor bump resourceVersion) when a replace changes nothing', async () => {
    const current = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a' });
    const again = await h.custom.replaceNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'crud-a', body: current });
    expect(again.metadata.resourceVersion).toBe(current.metadata.resourceVersion);
  });

  it('refuses a mistyped custom resource with 422 Invalid and field causes', async () => {
    const body = helmRelease('typo', 'kagent', { interval: 10, chartRef: { kind: 'Nope', name: 'agent' } });
    const { code, status } = await rejection(h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body }));
    expect(code).toBe(422);
    expect(status.reason).toBe('Invalid');
    expect(status.message).toContain('HelmRelease.helm.toolkit.fluxcd.io "typo" is invalid: [');
    expect(status.message).toContain('spec.interval: Invalid value: "integer": spec.interval in body must be of type string: "integer"');
    expect(status.details).toMatchObject({ name: 'typo', group: 'helm.toolkit.fluxcd.io', kind: 'HelmRelease' });
    expect(status.details.causes).toEqual(expect.arrayContaining([
      { reason: 'FieldValueTypeInvalid', message: 'Invalid value: "integer": spec.interval in body must be of type string: "integer"', field: 'spec.interval' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Nope": supported values: "OCIRepository", "HelmChart", "ExternalArtifact"', field: 'spec.chartRef.kind' },
    ]));
  });

  it('reports a missing required field as Required value', async () => {
    const body = helmRelease('noint');
    delete body.spec.interval;
    const { status } = await rejection(h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body }));
    expect(status.message).toBe('HelmRelease.helm.toolkit.fluxcd.io "noint" is invalid: spec.interval: Required value');
  });

  it('prunes unknown fields of custom resources and keeps spec.values whole', async () => {
    const body = helmRelease('pruned', 'kagent', { bogus: true, values: { anything: { goes: [1, 2] } } });
    body.topLevelJunk = 1;
    const created = await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body });
    expect(created.spec.bogus).toBeUndefined();
    expect(created.topLevelJunk).toBeUndefined();
    expect(created.spec.values).toEqual({ anything: { goes: [1, 2] } });
  });

  it('warns about dropped unknown fields in a Warning header by default', async () => {
    const res = await raw(h.sandbox, 'POST', '/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases', {
      body: JSON.stringify(helmRelease('warned', 'kagent', { bogus: 1 })), headers: { 'content-type': 'application/json' },
    });
    expect(res.code).toBe(201);
    expect(res.headers.warning).toBe('299 - "unknown field \\"spec.bogus\\""');
  });

  it('refuses unknown fields with fieldValidation=Strict', async () => {
    const body = helmRelease('strict', 'kagent', { bogus: true });
    const { code, status } = await rejection(h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body, fieldValidation: 'Strict' }));
    expect(code).toBe(400);
    expect(status.message).toBe('HelmRelease in version "v2" cannot be handled as a HelmRelease: strict decoding error: unknown field "spec.bogus"');
  });

  it('refuses an invalid object name with the real RFC 1123 message', async () => {
    const { code, status } = await rejection(h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'Bad_Name' } } }));
    expect(code).toBe(422);
    expect(status.message).toMatch(/^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of/);
  });

  it('refuses incomplete owner references and a second controller with the real 422 causes', async () => {
    const body = {
      metadata: {
        name: 'bad-owners',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: '1', controller: true },
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'b', uid: '2', controller: true },
          { apiVersion: '', kind: 'ConfigMap', name: '', uid: '' },
        ],
      },
    };
    const { code, status } = await rejection(h.core.createNamespacedConfigMap({ namespace: 'tenant', body: body as any }));
    expect(code).toBe(422);
    expect(status.details.causes.map((c: any) => [c.field, c.message])).toEqual([
      ['metadata.ownerReferences', expect.stringMatching(/: Only one reference can have Controller set to true\. Found "true" in references for ConfigMap\/a and ConfigMap\/b$/)],
      ['metadata.ownerReferences.apiVersion', 'Invalid value: "": version must not be empty'],
      ['metadata.ownerReferences.name', 'Invalid value: "": must not be empty'],
      ['metadata.ownerReferences.uid', 'Invalid value: "": must not be empty'],
    ]);
  });

  it('ignores status on main-resource writes and changes only status through /status', async () => {
    const body = helmRelease('statusy');
    body.status = { observedGeneration: 42 };
    const created = await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body });
    expect(created.status).toEqual({ observedGeneration: -1 });
    created.status = { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True', reason: 'InstallSucceeded', message: 'ok', lastTransitionTime: '2025-01-01T00:00:00Z' }] };
    created.spec.interval = '99m';
    const updated = await h.custom.replaceNamespacedCustomObjectStatus({ ...HR, namespace: 'kagent', name: 'statusy', body: created });
    expect(updated.status.conditions[0].reason).toBe('InstallSucceeded');
    expect(updated.spec.interval).toBe('10m');
    expect(updated.metadata.generation).toBe(1);
    updated.status = {};
    updated.spec.suspend = true;
    const main = await h.custom.replaceNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'statusy', body: updated });
    expect(main.status.conditions[0].reason).toBe('InstallSucceeded');
    expect(main.spec.suspend).toBe(true);
    expect(main.metadata.generation).toBe(2);
  });

  it('stores nothing on dryRun=All create, replace and delete', async () => {
    const before = h.sandbox.store.revision;
    const dry = await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'dry' }, data: { a: '1' } }, dryRun: 'All' });
    expect(dry.metadata!.uid).toBeDefined();
    await rejection(h.core.readNamespacedConfigMap({ namespace: 'tenant', name: 'dry' }));
    const real = await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'dry-real' }, data: { a: '1' } } });
    const changed = await h.core.replaceNamespacedConfigMap({ namespace: 'tenant', name: 'dry-real', body: { ...real, data: { a: '2' } }, dryRun: 'All' });
    expect(changed.data).toEqual({ a: '2' });
    expect((await h.core.readNamespacedConfigMap({ namespace: 'tenant', name: 'dry-real' })).data).toEqual({ a: '1' });
    await h.core.deleteNamespacedConfigMap({ namespace: 'tenant', name: 'dry-real', dryRun: 'All' });
    await h.core.readNamespacedConfigMap({ namespace: 'tenant', name: 'dry-real' });
    expect(h.sandbox.store.revision).toBe(before + 1);
  });

  it('refuses dryRun values other than All like the real server', async () => {
    const { code, status } = await rejection(h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'x' } }, dryRun: 'Some' }));
    expect(code).toBe(422);
    expect(status.message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: "Some": supported values: "All"');
  });

  it('folds Secret stringData into base64 data', async () => {
    const secret = await h.core.createNamespacedSecret({ namespace: 'tenant', body: { metadata: { name: 's1' }, stringData: { token: 'hunter2' } } });
    expect(secret.data).toEqual({ token: Buffer.from('hunter2').toString('base64') });
    expect(secret.type).toBe('Opaque');
    expect((secret as any).stringData).toBeUndefined();
  });

  it('works through KubernetesObjectApi with apiVersion and kind only', async () => {
    const created = await h.objects.create({
      apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: { name: 'bare', namespace: 'kagent' },
      spec: { type: 'Declarative', declarative: { modelConfig: 'default-model-config', systemMessage: 'hi' } },
    } as any);
    expect((created as any).spec.declarative.runtime).toBe('go');
    const read = await h.objects.read({ apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent', metadata: { name: 'bare', namespace: 'kagent' } });
    expect(read.metadata!.uid).toBe(created.metadata!.uid);
    const list = await h.objects.list('kagent.dev/v1alpha2', 'ModelConfig', 'kagent');
    expect(list.items.map((i) => i.metadata!.name)).toEqual(['default-model-config', 'qwen3-8-27b']);
  });

  it('answers 405 MethodNotAllowed for a create without a namespace on a namespaced resource', async () => {
    const res = await raw(h.sandbox, 'POST', '/apis/helm.toolkit.fluxcd.io/v2/helmreleases', {
      body: JSON.stringify(helmRelease('nons')), headers: { 'content-type': 'application/json' },
    });
    expect(res.code).toBe(405);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' });
  });

  it('answers 404 with a Status for resources it does not serve', async () => {
    const res = await raw(h.sandbox, 'GET', '/apis/example.com/v1/widgets');
    expect(res.code).toBe(404);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'the server could not find the requested resource' });
  });

  it.each([
    ['neither chart nor chartRef', { interval: '5m' }],
    ['both chart and chartRef', { interval: '5m', chart: { spec: { chart: 'podinfo', sourceRef: { kind: 'HelmRepository', name: 'r' } } },
      chartRef: { kind: 'OCIRepository', name: 'agent' } }],
  ])('refuses a HelmRelease with %s, as the CRD\'s CEL rule does (422)', async (_case, spec) => {
    const res = await raw(h.sandbox, 'POST', '/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases', {
      body: JSON.stringify({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'no-source' }, spec }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.code).toBe(422);
    expect(res.json.message).toBe('HelmRelease.helm.toolkit.fluxcd.io "no-source" is invalid: spec: Invalid value: "object": either chart or chartRef must be set');
    expect(h.sandbox.store.find('helmreleases', 'kagent', 'no-source')).toBeUndefined();
  });

  it('stores no empty label, annotation or finalizer collection, as Go\'s omitempty leaves them out', async () => {
    await h.core.createNamespacedConfigMap({ namespace: 'tenant', body: { metadata: { name: 'emptied', labels: { a: 'b' }, finalizers: ['example.com/keep'] } } });
    const patch = JSON.stringify([{ op: 'remove', path: '/metadata/finalizers/0' }, { op: 'remove', path: '/metadata/labels/a' }]);
    const res = await raw(h.sandbox, 'PATCH', '/api/v1/namespaces/tenant/configmaps/emptied', { body: patch, headers: { 'content-type': 'application/json-patch+json' } });
    expect(res.code).toBe(200);
    expect(res.json.metadata).not.toHaveProperty('finalizers');
    expect(res.json.metadata).not.toHaveProperty('labels');
    const created = await raw(h.sandbox, 'POST', '/api/v1/namespaces/tenant/configmaps', { body: JSON.stringify({ metadata: { name: 'born-empty', annotations: {} } }), headers: { 'content-type': 'application/json' } });
    expect(created.json.metadata).not.toHaveProperty('annotations');
  });

  it.each([
    ['POST', '/api/v1/namespaces/default/namespaces', JSON.stringify({ metadata: { name: 'nested' } })],
    ['GET', '/api/v1/namespaces/default/namespaces/kagent', undefined],
    ['POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/clusterroles', JSON.stringify({ metadata: { name: 'nested' } })],
    ['GET', '/apis/apiextensions.k8s.io/v1/namespaces/default/customresourcedefinitions', undefined],
  ])('serves no cluster-scoped kind under a namespace: %s %s is a 404 and creates nothing', async (method, path, body) => {
    const res = await raw(h.sandbox, method, path, { ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}) });
    expect(res.code).toBe(404);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    expect(h.sandbox.store.find('namespaces', '', 'nested')).toBeUndefined();
    expect(h.sandbox.store.find('clusterroles', '', 'nested')).toBeUndefined();
  });

  it('refuses protobuf bodies of kinds it cannot read with 415, naming the kind and saying to use kubectl apply -f', async () => {
    // k8s\0, runtime.Unknown{typeMeta{apiVersion: apps/v1, kind: ReplicaSet}}
    const typeMeta = Buffer.concat([Buffer.from([0x0a, 7]), Buffer.from('apps/v1'), Buffer.from([0x12, 10]), Buffer.from('ReplicaSet')]);
    const body = Buffer.concat([Buffer.from('k8s\u0000', 'latin1'), Buffer.from([0x0a, typeMeta.length]), typeMeta]);
    const res = await raw(h.sandbox, 'POST', '/apis/apps/v1/namespaces/tenant/replicasets', {
      body, headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
    });
    expect(res.code).toBe(415);
    expect(res.json.reason).toBe('UnsupportedMediaType');
    expect(res.json.message).toContain('apps/v1/ReplicaSet');
    expect(res.json.message).toContain('kubectl apply -f');
  });

  it('answers a malformed protobuf body with 400 BadRequest', async () => {
    const res = await raw(h.sandbox, 'POST', '/api/v1/namespaces/tenant/configmaps', {
      body: 'k8s\u0000\u000a\u0050', headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
    });
    expect(res.code).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(res.json.message).toMatch(/^error decoding protobuf: /);
  });

  it('answers a malformed JSON body with 400 BadRequest', async () => {
    const res = await raw(h.sandbox, 'POST', '/api/v1/namespaces/tenant/configmaps', { body: '{nope', headers: { 'content-type': 'application/json' } });
    expect(res.code).toBe(400);
    expect(res.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest' });
  });
});
