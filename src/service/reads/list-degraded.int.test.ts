import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServiceFixture, type ServiceFixture } from '../../../test/support/service/fixture.js';
import { seedAgentCr, seedRelease } from '../../../test/support/service/seed-agents.js';

let f: ServiceFixture;

beforeAll(async () => {
  f = await startServiceFixture();
  // A Flux release in flux-system with targetNamespace kagent: its Agent is labelled with it.
  f.sandbox.store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'flux-system' } });
  seedRelease(f.sandbox, { name: 'platform', namespace: 'flux-system', ready: true });
  seedAgentCr(f.sandbox, { name: 'platform', ready: true, accepted: true, release: { name: 'platform', namespace: 'flux-system' } });
  seedAgentCr(f.sandbox, { name: 'orphan', ready: true, accepted: true, release: { name: 'gone', namespace: 'flux-system' } });
  seedRelease(f.sandbox, { name: 'local', ready: true });
  seedAgentCr(f.sandbox, { name: 'local', ready: true, accepted: true });
});
afterAll(() => f.close());
beforeEach(() => f.sandbox.faults.clear());

const byName = <A extends { name: string }>(agents: A[], name: string) => agents.find((a) => a.name === name);

describe('a list survives one object it cannot read', () => {
  it('lists every agent, with the cross-namespace release read and the missing one named', async () => {
    const { agents, warnings } = await f.service.listAgents(f.ctx());
    expect(agents.map((a) => a.name)).toEqual(['local', 'orphan', 'platform']);
    expect(byName(agents, 'platform')).toMatchObject({ helmRelease: { namespace: 'flux-system', name: 'platform' } });
    expect(byName(agents, 'platform')).not.toHaveProperty('error');
    expect(byName(agents, 'orphan')).toMatchObject({
      exists: true, managed: 'none',
      error: { code: 'not_found', message: 'not found: the HelmRelease flux-system/gone the Agent\'s labels name does not exist' },
    });
    expect(warnings).toEqual(['agent kagent/orphan: not found: the HelmRelease flux-system/gone the Agent\'s labels name does not exist']);
    // The summary rows of a list page say the same.
    const summaries = await f.service.listAgents(f.ctx(), { details: false });
    expect(byName(summaries.agents, 'orphan')).toMatchObject({ error: { code: 'not_found' } });
    expect(summaries.warnings).toEqual(warnings);
  });

  it.each([
    ['a 403 (the ServiceAccount may not read flux-system)', { code: 403, message: 'helmreleases "platform" is forbidden' }, 'forbidden'],
    ['a server error', { code: 500, message: 'etcdserver: request timed out' }, 'backend_error'],
    ['a dropped connection', { drop: true }, 'backend_error'],
  ])('answers 200 when reading the release across namespaces fails with %s: that item carries the error', async (_case, fault, code) => {
    f.sandbox.faults.failNext({ verb: 'get', resource: 'helmreleases', namespace: 'flux-system', name: 'platform', count: 5, ...fault });
    const { agents, warnings } = await f.service.listAgents(f.ctx());
    expect(agents.map((a) => a.name)).toEqual(['local', 'orphan', 'platform']);
    const platform = byName(agents, 'platform')!;
    // As far as it could be read: the Agent CR's fields, without the release.
    expect(platform).toMatchObject({ exists: true, ready: true, accepted: true, error: { code } });
    expect(platform).not.toHaveProperty('helmRelease');
    expect(platform.error?.message).toContain('the HelmRelease flux-system/platform the Agent\'s labels name could not be read');
    expect(byName(agents, 'local')).toMatchObject({ helmRelease: { name: 'local' } });
    expect(byName(agents, 'local')).not.toHaveProperty('error');
    expect(warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^agent kagent\/platform: /)]));
  });

  it('answers 200 with a warning when the OCIRepositories cannot be listed', async () => {
    f.sandbox.faults.failNext({ verb: 'list', resource: 'ocirepositories', namespace: 'kagent', code: 403, count: 5 });
    const { agents, warnings } = await f.service.listAgents(f.ctx());
    expect(agents.map((a) => a.name)).toEqual(['local', 'orphan', 'platform']);
    expect(warnings?.[0]).toMatch(/^the OCIRepositories of namespace kagent could not be listed/);
  });

  it.each([['agents'], ['helmreleases']])('fails when the %s themselves cannot be listed', async (resource) => {
    f.sandbox.faults.failNext({ verb: 'list', resource, namespace: 'kagent', code: 403, count: 5 });
    await expect(f.service.listAgents(f.ctx())).rejects.toMatchObject({ code: 'forbidden' });
  });
});
