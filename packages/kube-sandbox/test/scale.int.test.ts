/**
 * The scale subresource of deployments and replica sets through client-node's typed
 * AppsV1Api (what `kubectl scale` and autoscalers use): the Scale view, PUT and PATCH of
 * spec.replicas with the update path's resourceVersion precondition, and refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, rejection, startHarness, type Harness } from './harness.js';

let h: Harness;

const deployment = (name: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'tenant' },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
  },
});

describe('sandbox scale subresource', () => {
  beforeAll(async () => {
    h = await startHarness();
    await h.apps.createNamespacedDeployment({ namespace: 'tenant', body: deployment('web') });
  });
  afterAll(async () => {
    await h?.sandbox.close();
  });

  it('reads a deployment as an autoscaling/v1 Scale with its selector as a string', async () => {
    const scale = await h.apps.readNamespacedDeploymentScale({ namespace: 'tenant', name: 'web' });
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web', namespace: 'tenant' }, spec: { replicas: 1 }, status: { selector: 'app=web' } });
  });

  it('changes only spec.replicas with a merge patch, as kubectl scale sends it, bumping the generation', async () => {
    const before = (await h.apps.readNamespacedDeployment({ namespace: 'tenant', name: 'web' })).metadata!.generation!;
    const res = await raw(h.sandbox, 'PATCH', '/apis/apps/v1/namespaces/tenant/deployments/web/scale', {
      body: JSON.stringify({ spec: { replicas: 3 } }), headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(res.code).toBe(200);
    expect(res.json.spec).toEqual({ replicas: 3 });
    const after = await h.apps.readNamespacedDeployment({ namespace: 'tenant', name: 'web' });
    expect(after.spec!.replicas).toBe(3);
    expect(after.metadata!.generation).toBe(before + 1);
    expect(after.spec!.template.spec!.containers[0]!.image).toBe('nginx');
  });

  it('replaces the Scale with PUT and honours its resourceVersion as a precondition', async () => {
    const scale = await h.apps.readNamespacedDeploymentScale({ namespace: 'tenant', name: 'web' });
    const updated = await h.apps.replaceNamespacedDeploymentScale({ namespace: 'tenant', name: 'web', body: { ...scale, spec: { replicas: 2 } } });
    expect(updated.spec!.replicas).toBe(2);
    const stale = await rejection(h.apps.replaceNamespacedDeploymentScale({ namespace: 'tenant', name: 'web', body: { ...scale, spec: { replicas: 5 } } }));
    expect(stale.code).toBe(409);
    expect(stale.status.message).toContain('Operation cannot be fulfilled on deployments.apps "web"');
  });

  it('refuses negative replicas with 422 on Scale.autoscaling', async () => {
    const res = await raw(h.sandbox, 'PATCH', '/apis/apps/v1/namespaces/tenant/deployments/web/scale', {
      body: JSON.stringify({ spec: { replicas: -1 } }), headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(res.code).toBe(422);
    expect(res.json.message).toBe('Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('answers 404 for the scale of a missing deployment and lists the subresource in discovery', async () => {
    expect((await raw(h.sandbox, 'GET', '/apis/apps/v1/namespaces/tenant/deployments/nope/scale')).code).toBe(404);
    const discovery = await raw(h.sandbox, 'GET', '/apis/apps/v1');
    expect(discovery.json.resources).toContainEqual(expect.objectContaining({ name: 'deployments/scale', group: 'autoscaling', version: 'v1', kind: 'Scale' }));
  });
});
