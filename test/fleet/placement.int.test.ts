/**
 * An agent on workload cluster `alpha` of organization `acme`, through the real service
 * against two sandboxes: the release side lands on the management cluster in `org-acme`
 * (placed as Flux's spec.kubeConfig wants it), the kagent side is read on the workload
 * cluster; each refusal names what to fix and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, ORG_NS, TARGET, writeKubeconfigSecret, type Fleet } from './two-sandboxes.js';

let fleet: Fleet;
const base = { modelConfig: 'default-model-config', toolset: ['preset:read-only'] };

beforeAll(async () => {
  fleet = await startFleet();
});
afterAll(async () => {
  await fleet?.close();
});

const management = () => fleet.f.sandbox.store;

/** What helm-controller would render on the workload cluster: the Agent of the release. */
function renderAgent(name: string, description: string) {
  fleet.alpha.store.create('agents', {
    apiVersion: 'kagent.dev/v1alpha2', kind: 'Agent',
    metadata: {
      name, namespace: 'kagent',
      labels: { 'helm.toolkit.fluxcd.io/name': `alpha-${name}`, 'helm.toolkit.fluxcd.io/namespace': ORG_NS },
    },
    spec: { description, declarative: { modelConfig: 'default-model-config' } },
  });
}

describe('an agent created on workload cluster alpha', () => {
  it('writes the HelmRelease <cluster>-<agent> in org-<organization>, placed through the kubeconfig Secret, and its first revision beside it', async () => {
    const created = await fleet.f.service.createAgent(fleet.f.ctx(), { ...TARGET, name: 'sre', ...base });
    expect(created.created).toEqual({ ociRepository: true, helmRelease: true });
    expect(created.agent).toMatchObject({ name: 'sre', namespace: 'kagent', organization: 'acme', cluster: 'alpha', exists: false });
    expect(created.revision).toBe(1);
    const release = management().get('helmreleases', ORG_NS, 'alpha-sre') as Record<string, any>;
    expect(release.metadata.labels).toMatchObject({ 'agent-platform.giantswarm.io/cluster': 'alpha' });
    expect(release.spec).toMatchObject({
      releaseName: 'sre', targetNamespace: 'kagent', storageNamespace: 'kagent',
      kubeConfig: { secretRef: { name: 'alpha-kubeconfig', key: 'value' } },
      chartRef: { kind: 'OCIRepository', name: 'agent', namespace: ORG_NS },
    });
    expect(release.spec.serviceAccountName).toBeUndefined();
    expect(management().find('ocirepositories', ORG_NS, 'agent')).toBeDefined();
    // Nothing of the agent on the management cluster's own kagent namespace, nothing written on the workload cluster.
    expect(management().find('helmreleases', 'kagent', 'sre')).toBeUndefined();
    expect(fleet.alpha.store.list('helmreleases').items).toHaveLength(0);
    const revisions = management().list('controllerrevisions', { namespace: ORG_NS }).items as Record<string, any>[];
    expect(revisions.map((r) => r.metadata.name)).toEqual(['alpha-sre-1']);
    expect(revisions[0]!.metadata.labels).toMatchObject({ 'agent-platform.giantswarm.io/cluster': 'alpha' });
  });

  it('reads the Agent on the workload cluster and the release on the management cluster', async () => {
    renderAgent('sre', 'rendered on alpha');
    const agent = await fleet.f.service.getAgent(fleet.f.ctx(), { ...TARGET, name: 'sre' });
    expect(agent).toMatchObject({
      name: 'sre', namespace: 'kagent', organization: 'acme', cluster: 'alpha', exists: true,
      rendered: { description: 'rendered on alpha' }, helmRelease: { name: 'alpha-sre', namespace: ORG_NS }, managed: 'helmrelease',
    });
    const status = await fleet.f.service.getAgentStatus(fleet.f.ctx(), { ...TARGET, name: 'sre' });
    expect(status.agent).toMatchObject({ exists: true });
    expect(status.helmRelease).toMatchObject({ exists: true });
    const listed = await fleet.f.service.listAgents(fleet.f.ctx(), { ...TARGET });
    expect(listed.agents.map((a) => [a.name, a.cluster])).toEqual([['sre', 'alpha']]);
    const models = await fleet.f.service.listModelConfigs(fleet.f.ctx(), { ...TARGET });
    expect(models.modelConfigs.map((m) => m.name)).toContain('default-model-config');
    // The management cluster's own kagent namespace does not see it.
    const local = await fleet.f.service.listAgents(fleet.f.ctx(), {});
    expect(local.agents.map((a) => a.name)).not.toContain('sre');
  });

  it('updates, keeps revisions beside the release and rolls back', async () => {
    const updated = await fleet.f.service.updateAgent(fleet.f.ctx(), { ...TARGET, name: 'sre', description: 'second' });
    expect(updated.revision).toBe(2);
    const release = management().get('helmreleases', ORG_NS, 'alpha-sre') as Record<string, any>;
    expect(release.spec.values.agent.description).toBe('second');
    expect(release.spec.kubeConfig).toEqual({ secretRef: { name: 'alpha-kubeconfig', key: 'value' } });
    const history = await fleet.f.service.listAgentRevisions(fleet.f.ctx(), { ...TARGET, name: 'sre' });
    expect(history.revisions.map((r) => r.revision)).toEqual([2, 1]);
    const rolled = await fleet.f.service.rollbackAgent(fleet.f.ctx(), { ...TARGET, name: 'sre', revision: 1 });
    expect(rolled.revision).toBe(3);
    const after = management().get('helmreleases', ORG_NS, 'alpha-sre') as Record<string, any>;
    expect(after.spec.values.agent.description).toBeUndefined();
  });

  it('deletes the release on the management cluster and the organization\'s chart source with the last one', async () => {
    const deleted = await fleet.f.service.deleteAgent(fleet.f.ctx(), { ...TARGET, name: 'sre' });
    expect(deleted).toMatchObject({ helmReleaseDeleted: true, ociRepositoryDeleted: true });
    expect(management().find('helmreleases', ORG_NS, 'alpha-sre')).toBeUndefined();
    expect(management().find('ocirepositories', ORG_NS, 'agent')).toBeUndefined();
  });
});

describe('refusals of a workload cluster, before anything is written', () => {
  const before = () => management().list('helmreleases', { namespace: ORG_NS }).items.length;

  it.each([
    [{ organization: 'acme' }, 'invalid request: a target cluster needs both organization and cluster (got organization "acme", cluster "")'],
    [{ cluster: 'alpha' }, 'invalid request: a target cluster needs both organization and cluster (got organization "", cluster "alpha")'],
    [{ organization: 'ACME', cluster: 'alpha' }, 'invalid request: organization "ACME" must be a DNS-1123 label'],
    [{ organization: 'acme', cluster: 'gamma' },
      'invalid request: cluster gamma of organization acme has no kubeconfig Secret org-acme/gamma-kubeconfig (Cluster API writes it when the cluster is created)'],
  ])('a create with %j is refused', async (target, message) => {
    const count = before();
    await expect(fleet.f.service.createAgent(fleet.f.ctx(), { ...target, name: 'refused', ...base })).rejects.toThrow(message);
    expect(before()).toBe(count);
  });

  it('a kubeconfig Secret without "value" is refused naming it', async () => {
    writeKubeconfigSecret(fleet.f.sandbox, 'empty', undefined);
    await expect(fleet.f.service.getAgent(fleet.f.ctx(), { organization: 'acme', cluster: 'empty', name: 'sre' }))
      .rejects.toThrow('invalid request: the kubeconfig Secret org-acme/empty-kubeconfig has no key "value"');
  });

  it('a release name past 63 characters is refused with the hint to shorten the agent name', async () => {
    const name = 'a'.repeat(60);
    await expect(fleet.f.service.createAgent(fleet.f.ctx(), { ...TARGET, name, ...base }))
      .rejects.toThrow(`invalid request: the HelmRelease name "alpha-${name}" (cluster-agent) is longer than 63 characters; pick a shorter agent name`);
  });
});

describe('release names that two cluster-agent pairs share', () => {
  it('never lets cluster alpha-x\'s agent fa2 read, change or delete cluster alpha\'s agent x-fa2 (both alpha-x-fa2)', async () => {
    await fleet.f.service.createAgent(fleet.f.ctx(), { ...TARGET, name: 'x-fa2', ...base, description: 'on alpha' });
    writeKubeconfigSecret(fleet.f.sandbox, 'alpha-x',
      fleet.alpha.kubeconfigYaml({ token: fleet.alpha.serviceAccountToken, name: 'alpha-x-admin' }));
    const other = { organization: 'acme', cluster: 'alpha-x', name: 'fa2' };
    const before = structuredClone(management().get('helmreleases', ORG_NS, 'alpha-x-fa2'));
    await expect(fleet.f.service.getAgent(fleet.f.ctx(), other)).rejects.toMatchObject({ code: 'not_found' });
    await expect(fleet.f.service.updateAgent(fleet.f.ctx(), { ...other, description: 'hijacked' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(fleet.f.service.deleteAgent(fleet.f.ctx(), other)).rejects.toMatchObject({ code: 'not_found' });
    await expect(fleet.f.service.waitForAgent(fleet.f.ctx(), { ...other, timeoutSeconds: 1 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(fleet.f.service.createAgent(fleet.f.ctx(), { ...other, ...base })).rejects.toMatchObject({
      code: 'conflict', message: expect.stringContaining(`HelmRelease ${ORG_NS}/alpha-x-fa2 already exists and is not this agent's`),
    });
    expect(management().get('helmreleases', ORG_NS, 'alpha-x-fa2')).toEqual(before);
    const own = await fleet.f.service.getAgent(fleet.f.ctx(), { ...TARGET, name: 'x-fa2' });
    expect(own).toMatchObject({ cluster: 'alpha', helmRelease: { name: 'alpha-x-fa2' } });
  });
});
