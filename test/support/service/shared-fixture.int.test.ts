import { alwaysAllow } from '@agent-manager/kube-sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { namespacesOf, startNamespacedFixture, workerSandbox, type NamespacedFixture } from './shared-fixture.js';

describe('fixtures on the worker\'s shared sandbox', () => {
  const opened: NamespacedFixture[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((f) => f.close()));
  });

  it('share one sandbox, each in namespaces of its own that only it manages', async () => {
    const [a, b] = await Promise.all([startNamespacedFixture('shared-a'), startNamespacedFixture('shared-b')]);
    opened.push(a, b);
    expect(a.sandbox).toBe(b.sandbox);
    expect(a.sandbox).toBe(await workerSandbox());
    await a.service.createAgent(a.ctx(), { name: 'same', modelConfig: 'default-model-config', toolset: ['preset:none'] });
    await b.service.createAgent(b.ctx(), { name: 'same', modelConfig: 'qwen3-8-27b', toolset: ['preset:none'] });
    const listed = await a.service.listAgents(a.ctx(), {});
    expect(listed.agents.map((agent) => `${agent.namespace}/${agent.name}`)).toEqual(['shared-a/same']);
    expect(a.sandbox.store.get('helmreleases', 'shared-b', 'same')).toMatchObject({
      spec: { values: { modelConfig: { name: 'qwen3-8-27b' } } },
    });
    await expect(a.service.getAgent(a.ctx(), { name: 'same', namespace: 'shared-b' }))
      .rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('puts the seed\'s ModelConfigs and the shared source in the home namespace, and a Role in both', async () => {
    const f = await startNamespacedFixture('shared-seed');
    opened.push(f);
    const { home, tenant } = namespacesOf('shared-seed');
    expect(f.sandbox.store.get('modelconfigs', home, 'default-model-config')).toBeDefined();
    expect(f.sandbox.store.get('ocirepositories', home, 'agent')).toBeDefined();
    expect(f.sandbox.store.get('roles', tenant, 'agent-manager')).toBeDefined();
    expect(f.sandbox.store.find('modelconfigs', tenant, 'default-model-config')).toBeUndefined();
  });

  it('restores the authorizer and clears the faults a suite left when it closes', async () => {
    const f = await startNamespacedFixture('shared-restore');
    f.sandbox.authorizer = { authorize: () => ({ allowed: false, reason: 'test' }) };
    f.sandbox.faults.failNext({ verb: 'list', resource: 'helmreleases', code: 500, count: 5 });
    await f.close();
    expect(f.sandbox.authorizer).toBe(alwaysAllow);
    expect(f.sandbox.faults.snapshot().failures).toEqual([]);
  });

  it('refuses a label that cannot name a namespace', () => {
    expect(() => namespacesOf('Not_A_Label')).toThrow('fixture label "Not_A_Label" is not a short DNS-1123 label');
  });
});
