/**
 * An agent's whole life through the real AgentService, against the sandbox with its
 * simulated controllers running and RBAC enforced (agent-manager acts as its
 * ServiceAccount through the seeded Role): create → `progressing` → `ready`; a pod put
 * in CrashLoopBackOff → `failed`, naming the pod and the container; delete → the
 * HelmRelease is uninstalled, the Agent and its pods disappear, and the chart source
 * (the namespace's last) goes too. Every wait polls with
 * a deadline; no timing is asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Status } from '../../src/core/types.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { eventually } from '../support/eventually.js';

/** Poll `probe` until it gives a value, naming what was awaited when the deadline passes. */
const until = <T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> =>
  eventually(probe, 10_000, what);

let f: ServiceFixture;

const ready = (obj: Record<string, any> | undefined) =>
  (obj?.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True');

beforeAll(async () => {
  f = await startServiceFixture({ sandbox: { controllers: true, reconcileDelayMs: 20, authorization: 'rbac' } });
  // The platform is up: source-controller has an artifact for the shared chart repository.
  await until('the shared OCIRepository Ready', () => (ready(f.sandbox.store.find('ocirepositories', 'kagent', 'agent')) ? true : undefined));
});
afterAll(async () => {
  await f?.close();
});

const statusOf = (name: string): Promise<Status> => f.service.getAgentStatus(f.ctx(), { namespace: 'kagent', name });

describe('an agent created through the service, with the controllers running', () => {
  const name = 'lifecycle';
  const seen: string[] = [];
  let podName = '';

  it('is progressing right after create and becomes ready', async () => {
    const created = await f.service.createAgent(f.ctx(), {
      name, modelConfig: 'default-model-config', displayName: 'Lifecycle', toolset: ['preset:read-only'],
    });
    expect(created.created).toEqual({ ociRepository: false, helmRelease: true });
    expect(created.status?.verdict).toBe('progressing');
    const status = await until('the verdict ready', async () => {
      const s = await statusOf(name);
      seen.push(s.verdict);
      return s.verdict === 'ready' ? s : undefined;
    });
    // Nothing failed on the way: every verdict before ready was progressing.
    expect(new Set(seen.slice(0, -1))).toEqual(new Set(seen.length > 1 ? ['progressing'] : []));
    expect(status.summary).toBe('Agent is Ready; 1/1 pods available');
    expect(status.helmRelease).toMatchObject({ exists: true, ready: true, suspended: false, deleting: false });
    expect(status.helmRelease?.history?.[0]).toMatchObject({ version: 1, status: 'deployed' });
    expect(status.helmRelease?.history?.[0]?.chartVersion).toMatch(/^0\.6\.1\+[0-9a-f]{12}$/);
    expect(status.agent).toMatchObject({ exists: true, ready: true, accepted: true });
    expect(status.deployment).toMatchObject({ exists: true, replicas: 1, availableReplicas: 1 });
    expect(status.pods).toHaveLength(1);
    expect(status.pods![0]).toMatchObject({ ready: true, restarts: 0, phase: 'Running' });
    podName = status.pods![0]!.name;
    const agent = await f.service.getAgent(f.ctx(), { namespace: 'kagent', name });
    expect(agent).toMatchObject({ name, displayName: 'Lifecycle', managed: 'helmrelease' });
  });

  it('fails when its pod crash-loops, naming the pod and the container', async () => {
    f.sandbox.faults.crashLoop({ namespace: 'kagent', pod: podName });
    const status = await until('the verdict failed', async () => {
      const s = await statusOf(name);
      return s.verdict === 'failed' ? s : undefined;
    });
    expect(status.summary).toMatch(new RegExp(`^pod ${podName} container kagent is CrashLoopBackOff: back-off 10s restarting failed container=kagent pod=${podName}_kagent\\(`));
    expect(status.pods![0]).toMatchObject({ name: podName, ready: false, restarts: 1 });
    expect(status.pods![0]!.containers).toEqual([expect.objectContaining({ name: 'kagent', state: 'waiting', reason: 'CrashLoopBackOff' })]);
    expect(status.events?.map((e) => e.reason)).toContain('BackOff');
  });

  it('is uninstalled on delete: the release, the Agent and its pods disappear', async () => {
    const deleted = await f.service.deleteAgent(f.ctx(), { namespace: 'kagent', name });
    // The last release of the namespace takes the shared chart source with it.
    expect(deleted).toMatchObject({ helmReleaseDeleted: true, ociRepositoryDeleted: true });
    const store = f.sandbox.store;
    await until('the OCIRepository gone (source-controller drops its finalizer)', () => (store.find('ocirepositories', 'kagent', 'agent') ? undefined : true));
    await until('the HelmRelease gone', () => (store.find('helmreleases', 'kagent', name) ? undefined : true));
    await until('the Agent gone', () => (store.find('agents', 'kagent', name) ? undefined : true));
    await until('the Deployment gone', () => (store.find('deployments', 'kagent', name) ? undefined : true));
    await until('the pods gone', () => (store.list('pods', { namespace: 'kagent', labelSelector: `kagent=${name}` }).items.length === 0 ? true : undefined));
    await expect(statusOf(name)).rejects.toMatchObject({ code: 'not_found' });
  });
});
