/**
 * list_agents of an organization without a cluster: every cluster its kubeconfig Secrets
 * name, each item carrying organization and cluster; a cluster that cannot be reached
 * (beta's Secret points at a port nothing listens on) is one warning and error items,
 * never a failed list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadPort } from '../support/start-serve.js';
import { startFleet, ORG_NS, TARGET, writeKubeconfigSecret, type Fleet } from './two-sandboxes.js';

let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet();
  const port = await deadPort();
  const unreachable = fleet.alpha.kubeconfigYaml({ token: 'beta-token' }).replace(/https:\/\/127\.0\.0\.1:\d+/, `https://127.0.0.1:${port}`);
  writeKubeconfigSecret(fleet.f.sandbox, 'beta', unreachable);
  await fleet.f.service.createAgent(fleet.f.ctx(), { ...TARGET, name: 'sre', modelConfig: 'default-model-config', toolset: ['preset:read-only'] });
  // beta's release, as agent-manager placed it before the cluster went away.
  const alphaRelease = fleet.f.sandbox.store.get('helmreleases', ORG_NS, 'alpha-sre') as Record<string, any>;
  fleet.f.sandbox.store.create('helmreleases', {
    ...alphaRelease,
    metadata: { name: 'beta-ops', namespace: ORG_NS, labels: { ...alphaRelease.metadata.labels, 'agent-platform.giantswarm.io/cluster': 'beta' } },
    spec: { ...alphaRelease.spec, releaseName: 'ops', kubeConfig: { secretRef: { name: 'beta-kubeconfig', key: 'value' } } },
    status: undefined,
  });
});
afterAll(async () => {
  await fleet?.close();
});

describe('a fleet-wide list of organization acme', () => {
  it('lists every cluster; beta unreachable answers with a warning and an error item, alpha\'s agents whole', async () => {
    const listed = await fleet.f.service.listAgents(fleet.f.ctx(), { organization: 'acme' });
    expect(listed.agents.map((a) => [a.cluster, a.name, a.error?.code])).toEqual([['alpha', 'sre', undefined], ['beta', 'ops', 'backend_error']]);
    expect(listed.agents.every((a) => a.organization === 'acme')).toBe(true);
    expect(listed.warnings).toHaveLength(1);
    expect(listed.warnings![0]).toMatch(/^cluster beta of organization acme could not be listed: /);
  });

  it('summary rows (details=false) name each agent\'s organization and cluster too', async () => {
    const listed = await fleet.f.service.listAgents(fleet.f.ctx(), { organization: 'acme', details: false });
    expect(listed.agents.map((a) => [a.organization, a.cluster, a.name])).toEqual([['acme', 'alpha', 'sre'], ['acme', 'beta', 'ops']]);
  });

  it('refuses an organization that is not a label', async () => {
    await expect(fleet.f.service.listAgents(fleet.f.ctx(), { organization: 'Acme' }))
      .rejects.toThrow('invalid request: organization "Acme" must be a DNS-1123 label');
  });

  it('get_info says agents can be placed on workload clusters, and of which organizations', async () => {
    const info = await fleet.f.service.getInfo(fleet.f.ctx());
    expect(info.capabilities.targetCluster).toBe(true);
    expect(info.organizations).toEqual(['acme']);
  });

  it('an organization without clusters lists nothing', async () => {
    expect(await fleet.f.service.listAgents(fleet.f.ctx(), { organization: 'globex' })).toEqual({ agents: [] });
  });
});
