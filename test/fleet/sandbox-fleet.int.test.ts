/**
 * End to end against the sandbox fleet with its controllers running: the management
 * sandbox's helm-controller installs a placed release into workload cluster alpha through
 * its kubeconfig Secret, as Flux does. An agent's whole life on alpha through the service
 * (create, wait, status, update, revisions, rollback, delete) with every object where it
 * belongs, then a fleet-wide list with beta gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '@agent-manager/kube-sandbox';
import { loadBaseKubeConfig } from '../../src/kube/kubeconfig.js';
import { openWorkloadClusters } from '../../src/kube/fleet/workload-clusters.js';
import { silentLogger } from '../../src/log/logger.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { eventually } from '../support/eventually.js';

const TARGET = { organization: 'acme', cluster: 'alpha' } as const;
let f: ServiceFixture;
let alpha: Sandbox;

beforeAll(async () => {
  f = await startServiceFixture({
    sandbox: { workloadClusters: ['alpha', 'beta'], organization: 'acme', controllers: true, reconcileDelayMs: 20 },
    settings: { targetMusterUrl: 'https://muster.example.com/mcp' },
    workloads: (sandbox) => openWorkloadClusters(
      loadBaseKubeConfig({ kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' }) }),
      { identity: 'serviceAccount', organizations: ['acme'], log: silentLogger() },
    ),
  });
  alpha = f.sandbox.workloads.get('alpha')!;
});
afterAll(async () => {
  await f?.close();
});

const spec = { name: 'fleet-sre', modelConfig: 'default-model-config', toolset: ['preset:read-only'] };

describe('an agent on workload cluster alpha of the sandbox fleet', () => {
  it('is created on the management cluster, installed on alpha and becomes ready', async () => {
    const created = await f.service.createAgent(f.ctx(), { ...TARGET, ...spec, description: 'first', wait: 30 });
    expect(created.status?.verdict).toBe('ready');
    expect(f.sandbox.store.find('helmreleases', 'org-acme', 'alpha-fleet-sre')).toBeDefined();
    expect(alpha.store.find('agents', 'kagent', 'fleet-sre')).toBeDefined();
    expect(alpha.store.find('helmreleases', 'kagent', 'fleet-sre')).toBeUndefined();
    expect(f.sandbox.store.find('agents', 'kagent', 'fleet-sre')).toBeUndefined();
    const status = await f.service.getAgentStatus(f.ctx(), { ...TARGET, name: 'fleet-sre' });
    expect(status).toMatchObject({ verdict: 'ready', agent: { exists: true }, helmRelease: { exists: true, ready: true } });
  });

  it('is updated, its revisions live beside the release, and it rolls back', async () => {
    const updated = await f.service.updateAgent(f.ctx(), { ...TARGET, name: 'fleet-sre', description: 'second', wait: 30 });
    expect(updated.revision).toBe(2);
    await eventually(() => ((alpha.store.find('agents', 'kagent', 'fleet-sre') as any)?.spec?.description === 'second' ? true : undefined), 10_000, 'second rendered');
    const history = await f.service.listAgentRevisions(f.ctx(), { ...TARGET, name: 'fleet-sre' });
    expect(history.revisions.map((r) => r.revision)).toEqual([2, 1]);
    expect(f.sandbox.store.list('controllerrevisions', { namespace: 'org-acme' }).items.length).toBeGreaterThanOrEqual(2);
    const rolled = await f.service.rollbackAgent(f.ctx(), { ...TARGET, name: 'fleet-sre', revision: 1, wait: 30 });
    expect(rolled.revision).toBe(3);
    await eventually(() => ((alpha.store.find('agents', 'kagent', 'fleet-sre') as any)?.spec?.description === 'first' ? true : undefined), 10_000, 'first rendered again');
  });

  it('waits until deleted: the release goes on the management cluster and helm-controller uninstalls it from alpha', async () => {
    const deleted = await f.service.deleteAgent(f.ctx(), { ...TARGET, name: 'fleet-sre' });
    expect(deleted.helmReleaseDeleted).toBe(true);
    const waited = await f.service.waitForAgent(f.ctx(), { ...TARGET, name: 'fleet-sre', until: 'deleted', timeoutSeconds: 30 });
    expect(waited.timedOut).toBe(false);
    expect(alpha.store.find('agents', 'kagent', 'fleet-sre')).toBeUndefined();
  });
});

describe('the fleet-wide list', () => {
  it('with beta unreachable answers with alpha\'s agents and one warning', async () => {
    await f.sandbox.workloads.get('beta')!.close();
    const listed = await f.service.listAgents(f.ctx(), { organization: 'acme' });
    expect(listed.warnings?.filter((w) => w.startsWith('cluster beta of organization acme could not be listed'))).toHaveLength(1);
    expect(listed.agents.every((a) => a.organization === 'acme')).toBe(true);
  });
});
