/**
 * Fault injection through the real @kubernetes/client-node: added latency, the next N
 * matching requests failing with a Status of the given code or a dropped connection,
 * and a pod put in CrashLoopBackOff with the kubelet's BackOff event — in-process and
 * over the admin endpoints, which only the administrator may use.
 */
import { ApiException } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually, HR, helmRelease, raw, rejection, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ controllers: true, reconcileDelayMs: 10 });
});
afterAll(async () => {
  await h.sandbox.close();
});
afterEach(() => {
  h.sandbox.faults.clear();
});

describe('request faults', () => {
  it('fail the next N matching requests with the given status, and only those', async () => {
    h.sandbox.faults.failNext({ verb: 'create', resource: 'helmreleases', count: 2, code: 503 });
    for (const name of ['f1', 'f2']) {
      const { code, status } = await rejection(h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease(name) }));
      expect(code).toBe(503);
      expect(status).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'ServiceUnavailable', code: 503, message: 'injected fault: create helmreleases' });
    }
    await h.custom.listNamespacedCustomObject({ ...HR, namespace: 'kagent' });
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('f3') });
    expect(h.sandbox.faults.snapshot().failures).toEqual([]);
  });

  it('match a subresource only when it is named', async () => {
    h.sandbox.faults.failNext({ verb: 'get', resource: 'helmreleases.helm.toolkit.fluxcd.io/status', code: 409, message: 'try again' });
    await h.custom.getNamespacedCustomObject({ ...HR, namespace: 'kagent', name: 'f3' });
    const { status } = await rejection(h.custom.getNamespacedCustomObjectStatus({ ...HR, namespace: 'kagent', name: 'f3' }));
    expect(status).toMatchObject({ reason: 'Conflict', code: 409, message: 'try again' });
  });

  it('drop the connection', async () => {
    h.sandbox.faults.failNext({ verb: 'list', resource: 'pods', drop: true });
    const err = await h.core.listNamespacedPod({ namespace: 'kagent' }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ApiException);
    await h.core.listNamespacedPod({ namespace: 'kagent' });
  });

  it('add latency to every request', async () => {
    h.sandbox.faults.setLatency(150);
    const started = performance.now();
    await h.core.listNamespacedPod({ namespace: 'kagent' });
    // A lower bound only: the request waited at least (about) the injected latency.
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(h.sandbox.faults.snapshot().latencyMs).toBe(150);
  });
});

describe('the admin endpoints for faults', () => {
  it('arm, show and clear faults for the administrator', async () => {
    const armed = await raw(h.sandbox, 'POST', '/sandbox/faults/fail', { body: JSON.stringify({ verb: 'get', resource: 'namespaces', code: 500 }) });
    expect(armed.code).toBe(200);
    expect(armed.json.failures).toEqual([{ verb: 'get', resource: 'namespaces', code: 500, count: 1 }]);
    expect((await raw(h.sandbox, 'POST', '/sandbox/faults/latency', { body: '{"ms": 5}' })).json.latencyMs).toBe(5);
    const failed = await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent');
    expect(failed.json).toMatchObject({ code: 500, reason: 'InternalError', message: 'injected fault: get namespaces' });
    expect((await raw(h.sandbox, 'DELETE', '/sandbox/faults')).json).toEqual({ latencyMs: 0, failures: [] });
  });

  it('answer a failure armed with retryAfterSeconds with Retry-After, as kube-apiserver throttles', async () => {
    const armed = await raw(h.sandbox, 'POST', '/sandbox/faults/fail', {
      body: JSON.stringify({ verb: 'get', resource: 'namespaces', code: 429, retryAfterSeconds: 7 }),
    });
    expect(armed.json.failures).toEqual([{ verb: 'get', resource: 'namespaces', code: 429, retryAfterSeconds: 7, count: 1 }]);
    const throttled = await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent');
    expect(throttled.code).toBe(429);
    expect(throttled.headers['retry-after']).toBe('7');
    expect(throttled.json).toMatchObject({ code: 429, reason: 'TooManyRequests', details: { retryAfterSeconds: 7 } });
    expect((await raw(h.sandbox, 'GET', '/api/v1/namespaces/kagent')).code).toBe(200);
    const bad = await raw(h.sandbox, 'POST', '/sandbox/faults/fail', { body: '{"code": 503, "retryAfterSeconds": 1.5}' });
    expect(bad.json).toMatchObject({ code: 400, message: expect.stringContaining('retryAfterSeconds must be a whole number') });
  });

  it('refuse bad arguments with 400 and everyone but the administrator with 403', async () => {
    expect((await raw(h.sandbox, 'POST', '/sandbox/faults/fail', { body: '{"code": 200}' })).json).toMatchObject({ code: 400, message: expect.stringContaining('code must be an HTTP error status') });
    expect((await raw(h.sandbox, 'POST', '/sandbox/faults/crashloop', { body: '{"namespace":"kagent","pod":"nope"}' })).json).toMatchObject({ code: 404, message: 'pods "nope" not found' });
    const sa = await raw(h.sandbox, 'POST', '/sandbox/faults/latency', { body: '{"ms": 5}', token: h.sandbox.serviceAccountToken });
    expect(sa.code).toBe(403);
    expect(h.sandbox.faults.snapshot().latencyMs).toBe(0);
  });
});

describe('a crash-looping pod', () => {
  it('shows CrashLoopBackOff, a BackOff event, and takes the Agent out of Ready', async () => {
    await h.custom.createNamespacedCustomObject({ ...HR, namespace: 'kagent', body: helmRelease('crashy') });
    const pod = await eventually(async () => {
      const pods = await h.core.listNamespacedPod({ namespace: 'kagent', labelSelector: 'kagent=crashy' });
      return pods.items[0]?.status?.containerStatuses?.[0]?.ready ? pods.items[0] : undefined;
    });
    const name = pod.metadata!.name!;
    const res = await raw(h.sandbox, 'POST', '/sandbox/faults/crashloop', { body: JSON.stringify({ namespace: 'kagent', pod: name }) });
    expect(res.code).toBe(200);
    const crashed = await h.core.readNamespacedPod({ namespace: 'kagent', name });
    expect(crashed.status?.containerStatuses?.[0]).toMatchObject({
      name: 'kagent', ready: false, restartCount: 1,
      state: { waiting: { reason: 'CrashLoopBackOff', message: expect.stringContaining(`restarting failed container=kagent pod=${name}_kagent`) } },
    });
    expect(crashed.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
    const events = await h.core.listNamespacedEvent({ namespace: 'kagent', fieldSelector: `involvedObject.name=${name},type=Warning` });
    expect(events.items.map((e) => [e.reason, e.involvedObject.kind, e.message])).toEqual([
      ['BackOff', 'Pod', `Back-off restarting failed container kagent in pod ${name}_kagent(${pod.metadata!.uid})`],
    ]);
    const agent: any = await eventually(async () => {
      const a: any = await h.custom.getNamespacedCustomObject({ group: 'kagent.dev', version: 'v1alpha2', plural: 'agents', namespace: 'kagent', name: 'crashy' });
      return a.status.conditions.find((c: any) => c.type === 'Ready')?.status === 'False' ? a : undefined;
    });
    expect(agent.status.conditions.find((c: any) => c.type === 'Ready')).toMatchObject({ reason: 'DeploymentNotReady', message: 'Deployment is not ready, 0/1 pods are ready' });
    h.sandbox.faults.crashLoop({ namespace: 'kagent', pod: name });
    expect((await h.core.readNamespacedPod({ namespace: 'kagent', name })).status?.containerStatuses?.[0]?.restartCount).toBe(2);
  });
});
