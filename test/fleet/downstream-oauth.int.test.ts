/**
 * Downstream OAuth on a workload cluster: the client is cut from the kubeconfig Secret's
 * server address and CA only, and every call presents the caller's token (never the
 * Secret's credential). A workload API server that does not trust the token answers 401,
 * which says the cluster must trust the installation's identity provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBaseKubeConfig } from '../../src/kube/kubeconfig.js';
import { CallerProvider } from '../../src/kube/providers.js';
import { silentLogger } from '../../src/log/logger.js';
import { ORG, startFleet, TARGET, type Fleet } from './two-sandboxes.js';

let fleet: Fleet;
const JANE = 'jane-id-token';

beforeAll(async () => {
  fleet = await startFleet({
    identity: 'caller',
    provider: (sandbox) => new CallerProvider(loadBaseKubeConfig({ kubeconfigYaml: sandbox.kubeconfigYaml({ token: 'unused' }) }), { log: silentLogger() }),
  });
  // Jane's token is trusted by the management cluster; the workload cluster learns it per test.
  fleet.f.sandbox.tokens.set(JANE, { username: 'jane@example.com', groups: ['system:authenticated'] });
});
afterAll(async () => {
  await fleet?.close();
});

describe('reads on a workload cluster with downstream OAuth', () => {
  it('a workload API server that refuses the caller\'s token is a 401 naming the identity provider trust', async () => {
    await expect(fleet.f.service.getAgent(fleet.f.ctx({ token: JANE }), { ...TARGET, name: 'sre' })).rejects.toMatchObject({
      code: 'unauthenticated',
      message: expect.stringContaining(
        "the API server refused the caller's token (401); a workload cluster's apiserver must trust the installation's identity provider "
        + '(OIDC issuer and client id set when the cluster is created)',
      ),
    });
    // The Secret's own credential was never presented instead.
    expect(fleet.alpha.counters.count({ user: 'system:serviceaccount:kagent:agent-manager' })).toBe(0);
  });

  it('presents the caller\'s token to the workload API server', async () => {
    fleet.alpha.tokens.set(JANE, { username: 'jane@example.com', groups: ['system:authenticated'] });
    const before = fleet.alpha.counters.count({ user: 'jane@example.com' });
    const models = await fleet.f.service.listModelConfigs(fleet.f.ctx({ token: JANE }), { ...TARGET });
    expect(models.modelConfigs.map((m) => m.name)).toContain('default-model-config');
    expect(fleet.alpha.counters.count({ user: 'jane@example.com' })).toBeGreaterThan(before);
    expect(fleet.alpha.counters.count({ user: 'system:serviceaccount:kagent:agent-manager' })).toBe(0);
  });

  it('tells a caller who may not list the organization\'s HelmReleases nothing of its clusters: the API server\'s 403', async () => {
    const NOBODY = 'nobody-id-token';
    fleet.f.sandbox.tokens.set(NOBODY, { username: 'nobody@example.com', groups: ['system:authenticated'] });
    const before = fleet.f.sandbox.authorizer;
    fleet.f.sandbox.authorizer = { authorize: (a) => ({ allowed: a.user.username !== 'nobody@example.com' }) };
    try {
      const ctx = fleet.f.ctx({ token: NOBODY });
      // Neither the list of the organization's clusters nor whether one exists: 403, never a 200 or a 400.
      await expect(fleet.f.service.listAgents(ctx, { organization: ORG })).rejects.toMatchObject({ code: 'forbidden' });
      await expect(fleet.f.service.getAgent(ctx, { organization: ORG, cluster: 'nonexist', name: 'sre' }))
        .rejects.toMatchObject({ code: 'forbidden' });
      await expect(fleet.f.service.getAgent(ctx, { ...TARGET, name: 'sre' })).rejects.toMatchObject({ code: 'forbidden' });
    } finally {
      fleet.f.sandbox.authorizer = before;
    }
  });

  it('a request without a token is refused before any workload call', async () => {
    await expect(fleet.f.service.getAgent(fleet.f.ctx(), { ...TARGET, name: 'sre' })).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});
