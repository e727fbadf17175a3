/**
 * Every patch type and server-side apply through the real @kubernetes/client-node: JSON
 * patch, merge patch, strategic merge patch (built-in kinds only), and apply with two
 * field managers — shared ownership, the real conflict message, force, and removal of
 * fields a manager stops applying.
 */
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HR, helmRelease, raw, rejection, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.sandbox.close();
});

const as = (type: string) => setHeaderOptions('Content-Type', type);

function deployment(name: string): any {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'tenant', labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'busybox:1', env: [{ name: 'A', value: '1' }] }, { name: 'side', image: 'nginx:1' }] },
      },
    },
  };
}

describe('sandbox patches through client-node', () => {
  it('applies a JSON merge patch to a custom resource', async () => {
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('mp') });
    const patched = await h.custom.patchNamespacedCustomObject(
      { ...HR, namespace: 'kagent', name: 'mp', body: { spec: { suspend: true, values: { agent: { description: 'x' } } } } },
      as(PatchStrategy.MergePatch),
    );
    expect(patched.spec.suspend).toBe(true);
    expect(patched.spec.values).toEqual({ agent: { name: 'mp', description: 'x' } });
    const removed = await h.custom.patchNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'mp', body: { spec: { suspend: null } } }, as(PatchStrategy.MergePatch));
    expect(removed.spec.suspend).toBeUndefined();
  });

  it('applies a JSON patch, and refuses a failing test operation with 422', async () => {
    const patched = await h.custom.patchNamespacedCustomObject({
      ...HR, namespace: 'kagent', name: 'mp',
      body: [{ op: 'replace', path: '/spec/interval', value: '1m' }, { op: 'add', path: '/metadata/labels/extra', value: 'x' }],
    });
    expect(patched.spec.interval).toBe('1m');
    expect(patched.metadata.labels.extra).toBe('x');
    const { code, status } = await rejection(h.custom.patchNamespacedCustomObject({
      ...HR, namespace: 'kagent', name: 'mp', body: [{ op: 'test', path: '/spec/interval', value: '2m' }],
    }));
    expect(code).toBe(422);
    expect(status.message).toBe('testing value /spec/interval failed: test failed');
  });

  it('refuses a JSON patch that is not a list of operations with 400, as a body it cannot decode', async () => {
    const { code, status } = await rejection(h.custom.patchNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'mp', body: { spec: { interval: '3m' } } }));
    expect(code).toBe(400);
    expect(status).toMatchObject({ reason: 'BadRequest', message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' });
  });

  it('treats a resourceVersion set by a patch as a precondition', async () => {
    const { code, status } = await rejection(h.custom.patchNamespacedCustomObject(
      { ...HR, namespace: 'kagent', name: 'mp', body: { metadata: { resourceVersion: '1' }, spec: { interval: '3m' } } },
      as(PatchStrategy.MergePatch),
    ));
    expect(code).toBe(409);
    expect(status.reason).toBe('Conflict');
  });

  it('validates the patched custom resource like a create', async () => {
    const { code, status } = await rejection(h.custom.patchNamespacedCustomObject(
      { ...HR, namespace: 'kagent', name: 'mp', body: { spec: { interval: 5 } } }, as(PatchStrategy.MergePatch),
    ));
    expect(code).toBe(422);
    expect(status.details.causes[0].field).toBe('spec.interval');
  });

  it('refuses strategic merge patch for custom resources with 415', async () => {
    const { code, status } = await rejection(h.custom.patchNamespacedCustomObject(
      { ...HR, namespace: 'kagent', name: 'mp', body: { spec: { suspend: true } } }, as(PatchStrategy.StrategicMergePatch),
    ));
    expect(code).toBe(415);
    expect(status.reason).toBe('UnsupportedMediaType');
  });

  it('merges containers by name and env by name with a strategic merge patch', async () => {
    await h.apps.createNamespacedDeployment({ namespace: 'tenant', body: deployment('smp') });
    const patched = await h.apps.patchNamespacedDeployment({
      namespace: 'tenant', name: 'smp',
      body: { spec: { template: { spec: { containers: [{ name: 'main', image: 'busybox:2', env: [{ name: 'B', value: '2' }] }] } } } },
    }, as(PatchStrategy.StrategicMergePatch));
    const containers = patched.spec!.template.spec!.containers;
    expect(containers.map((c) => `${c.name}=${c.image}`)).toEqual(['main=busybox:2', 'side=nginx:1']);
    expect(containers[0]!.env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
    expect(patched.metadata!.generation).toBe(2);
  });

  it('honours $patch: delete, $setElementOrder and finalizers merged as a set', async () => {
    const patched = await h.apps.patchNamespacedDeployment({
      namespace: 'tenant', name: 'smp',
      body: {
        metadata: { finalizers: ['example.com/a'] },
        spec: { template: { spec: {
          '$setElementOrder/containers': [{ name: 'side' }, { name: 'main' }],
          containers: [{ name: 'main', $patch: 'delete' }, { name: 'side', image: 'nginx:2' }],
        } } },
      },
    }, as(PatchStrategy.StrategicMergePatch));
    expect(patched.spec!.template.spec!.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['side=nginx:2']);
    const again = await h.apps.patchNamespacedDeployment({
      namespace: 'tenant', name: 'smp', body: { metadata: { finalizers: ['example.com/b'] } },
    }, as(PatchStrategy.StrategicMergePatch));
    expect(again.metadata!.finalizers).toEqual(['example.com/a', 'example.com/b']);
  });

  it('honours $retainKeys on a strategy', async () => {
    await h.apps.patchNamespacedDeployment({
      namespace: 'tenant', name: 'smp', body: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } },
    }, as(PatchStrategy.StrategicMergePatch));
    const patched = await h.apps.patchNamespacedDeployment({
      namespace: 'tenant', name: 'smp', body: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
    }, as(PatchStrategy.StrategicMergePatch));
    expect(patched.spec!.strategy).toEqual({ type: 'Recreate' });
  });

  it('patches the status subresource without touching the spec', async () => {
    const patched = await h.custom.patchNamespacedCustomObjectStatus(
      { ...HR, namespace: 'kagent', name: 'mp', body: { spec: { interval: '9h' }, status: { observedGeneration: 3 } } }, as(PatchStrategy.MergePatch),
    );
    expect(patched.status.observedGeneration).toBe(3);
    expect(patched.spec.interval).toBe('1m');
  });
});

const apply = (body: any, fieldManager: string, force?: boolean) =>
  h.custom.patchNamespacedCustomObject({ ...HR, namespace: 'kagent', name: body.metadata.name, body, fieldManager, force }, as(PatchStrategy.ServerSideApply));

describe('sandbox server-side apply through client-node', () => {
  it('creates the object on first apply and records an Apply entry', async () => {
    const created = await apply(helmRelease('ssa'), 'manager-a');
    expect(created.metadata.generation).toBe(1);
    const entry = created.metadata.managedFields.find((e: any) => e.manager === 'manager-a');
    expect(entry).toMatchObject({ operation: 'Apply', apiVersion: 'helm.toolkit.fluxcd.io/v2', fieldsType: 'FieldsV1' });
    expect(entry.fieldsV1['f:spec']['f:interval']).toEqual({});
    expect(entry.fieldsV1['f:metadata']['f:labels']['f:app.kubernetes.io/managed-by']).toEqual({});
  });

  it('lets a second manager apply other fields without conflict', async () => {
    const body = { apiVersion: HR.group + '/v2', kind: 'HelmRelease', metadata: { name: 'ssa', namespace: 'kagent' }, spec: { suspend: true } };
    const result = await apply(body, 'manager-b');
    expect(result.spec.suspend).toBe(true);
    expect(result.spec.interval).toBe('10m');
    expect(result.metadata.managedFields.map((e: any) => e.manager).sort()).toEqual(['manager-a', 'manager-b']);
  });

  it('shares ownership when a second manager applies the same value', async () => {
    const body = { apiVersion: HR.group + '/v2', kind: 'HelmRelease', metadata: { name: 'ssa', namespace: 'kagent' }, spec: { suspend: true, interval: '10m' } };
    const result = await apply(body, 'manager-b');
    const b = result.metadata.managedFields.find((e: any) => e.manager === 'manager-b');
    expect(Object.keys(b.fieldsV1['f:spec']).sort()).toEqual(['f:interval', 'f:suspend']);
  });

  it('refuses to change a field another manager owns with the real conflict message', async () => {
    const body = { apiVersion: HR.group + '/v2', kind: 'HelmRelease', metadata: { name: 'ssa', namespace: 'kagent' }, spec: { suspend: true, interval: '10m', timeout: '5m' } };
    await apply(body, 'manager-b');
    const conflicting = { ...helmRelease('ssa'), spec: { ...helmRelease('ssa').spec, timeout: '9m' } };
    const { code, status } = await rejection(apply(conflicting, 'manager-a'));
    expect(code).toBe(409);
    expect(status).toMatchObject({
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "manager-b": .spec.timeout',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "manager-b"', field: '.spec.timeout' }] },
    });
  });

  it('lists several conflicts per manager', async () => {
    const conflicting = { ...helmRelease('ssa'), spec: { ...helmRelease('ssa').spec, timeout: '9m', suspend: false, interval: '1m' } };
    const { status } = await rejection(apply(conflicting, 'manager-c'));
    expect(status.message).toBe([
      'Apply failed with 4 conflicts: conflicts with "manager-a":',
      '- .spec.interval',
      'conflicts with "manager-b":',
      '- .spec.interval',
      '- .spec.suspend',
      '- .spec.timeout',
    ].join('\n'));
  });

  it('takes the fields with force and removes them from the other manager', async () => {
    const forced = { ...helmRelease('ssa'), spec: { ...helmRelease('ssa').spec, timeout: '9m' } };
    const result = await apply(forced, 'manager-a', true);
    expect(result.spec.timeout).toBe('9m');
    const b = result.metadata.managedFields.find((e: any) => e.manager === 'manager-b');
    expect(b.fieldsV1['f:spec']['f:timeout']).toBeUndefined();
  });

  it('removes a field its only applier stops applying, but keeps fields others still own', async () => {
    const withoutTimeout = helmRelease('ssa');
    const result = await apply(withoutTimeout, 'manager-a');
    expect(result.spec.timeout).toBeUndefined();
    expect(result.spec.interval).toBe('10m');
    const reduced = { apiVersion: HR.group + '/v2', kind: 'HelmRelease', metadata: { name: 'ssa', namespace: 'kagent' }, spec: { interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'kagent' } } };
    const kept = await apply(reduced, 'manager-a');
    expect(kept.spec.suspend).toBe(true);
    expect(kept.spec.values?.agent).toBeUndefined();
  });

  it('reports a conflict with an Update manager by its API version', async () => {
    const current = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'ssa' });
    current.spec.interval = '2m';
    await h.custom.replaceNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'ssa', body: current, fieldManager: 'editor' });
    const { status } = await rejection(apply(helmRelease('ssa'), 'manager-a'));
    expect(status.message).toBe('Apply failed with 1 conflict: conflict with "editor" using helm.toolkit.fluxcd.io/v2: .spec.interval');
  });

  it('requires a fieldManager for apply, as the real server does', async () => {
    const res = await raw(h.sandbox, 'PATCH', '/apis/helm.toolkit.fluxcd.io/v2/namespaces/kagent/helmreleases/ssa', {
      body: JSON.stringify(helmRelease('ssa')), headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expect(res.code).toBe(422);
    expect(res.json.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  });

  it('accepts YAML apply bodies', async () => {
    const yaml = [
      'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: from-yaml', '  namespace: tenant', 'data:', '  key: value', '',
    ].join('\n');
    const res = await raw(h.sandbox, 'PATCH', '/api/v1/namespaces/tenant/configmaps/from-yaml?fieldManager=yaml-test', {
      body: yaml, headers: { 'content-type': 'application/apply-patch+yaml' },
    });
    expect(res.code).toBe(201);
    expect(res.json.data).toEqual({ key: 'value' });
  });

  it('stores nothing for dry-run patches and dry-run applies', async () => {
    const before = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'ssa' });
    const dryPatch = await h.custom.patchNamespacedCustomObject(
      { ...HR, namespace: 'kagent', name: 'ssa', body: { spec: { interval: '42m' } }, dryRun: 'All' }, as(PatchStrategy.MergePatch),
    );
    expect(dryPatch.spec.interval).toBe('42m');
    const dryApply = await h.custom.patchNamespacedCustomObject(
      { ...HR, namespace: 'kagent', name: 'dry-new', body: helmRelease('dry-new'), fieldManager: 'dry', dryRun: 'All' }, as(PatchStrategy.ServerSideApply),
    );
    expect(dryApply.metadata.name).toBe('dry-new');
    const after = await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'ssa' });
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect((await rejection(h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'dry-new' }))).code).toBe(404);
  });

  it('applies through KubernetesObjectApi', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'objapi', namespace: 'tenant' }, data: { a: '1' } };
    const created = await h.objects.patch(cm, undefined, undefined, 'object-api', undefined, PatchStrategy.ServerSideApply);
    expect((created as any).data).toEqual({ a: '1' });
    const updated = await h.objects.patch({ ...cm, data: { b: '2' } }, undefined, undefined, 'object-api', undefined, PatchStrategy.ServerSideApply);
    expect((updated as any).data).toEqual({ b: '2' });
  });
});
