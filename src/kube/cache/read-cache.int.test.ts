/**
 * The read cache against the sandbox API server, through the real @kubernetes/client-node:
 * warm reads cost the API server nothing, writes are read back at once, a lost watch
 * history (410 Gone) re-lists, a watch that stays down sends reads to the API server,
 * and under the caller's identity the caller's RBAC still decides. Each test has a sandbox
 * and cache of its own, so they run at once.
 */
import { describe, it, type OnTestFinishedHandler } from 'vitest';
import { silentLogger } from '../../log/logger.js';
import type { Sandbox, SandboxOptions } from '@agent-manager/kube-sandbox';
import { startServiceFixture, type ServiceFixture } from '../../../test/support/service/fixture.js';
import { seedAgentCr, seedRelease, seedWarning, seedWorkload } from '../../../test/support/service/seed-agents.js';
import { DEFAULT_API_VERSIONS, resourceTypes } from '../../service/resources.js';
import { makeKubeApis } from '../api-clients.js';
import { loadBaseKubeConfig } from '../kubeconfig.js';
import { ClientNodeListWatch } from '../list-watch.js';
import { CallerProvider, ServiceAccountProvider } from '../providers.js';
import { cachedReadAuthorizer } from './review-cache.js';
import { CachedKubeProvider } from './cached-provider.js';
import { eventually } from '../../../test/support/eventually.js';
import { ReadCache, type ReadCacheOptions } from './read-cache.js';

const types = resourceTypes(DEFAULT_API_VERSIONS);
const SA = 'system:serviceaccount:kagent:agent-manager';

/**
 * The service account's requests other than watches. The cache here re-opens its watches
 * every second (watchTimeoutSeconds [1, 1]) in the background; a read answered from the
 * cache makes no request, but on a loaded machine a re-opened watch can fall within it.
 */
/**
 * The ServiceAccount's requests but its watches. The zero-request claims use a cache whose
 * watches stay open (QUIET_WATCHES): a watch that ends re-opens, and may list again when the
 * API server is slow, which would be the cache's own traffic in the window they measure.
 */
const readsBySA = (sandbox: Sandbox): number =>
  sandbox.counters.count({ user: SA }) - sandbox.counters.count({ user: SA, verb: 'watch' });

const QUIET_WATCHES = { watchTimeoutSeconds: [300, 300] as [number, number] };

const until = <T>(probe: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> =>
  eventually(probe, 10_000, what);

function serviceAccountConfig(sandbox: Sandbox) {
  return loadBaseKubeConfig({ kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' }) });
}

/**
 * A service whose reads go through a read cache of kagent and tenant (watches end every second
 * unless `watch` says otherwise), synced, stopped and closed when the test ends.
 */
async function cachedService(
  onTestFinished: (fn: OnTestFinishedHandler) => void,
  options: {
    sandbox?: SandboxOptions; cache?: Partial<ReadCacheOptions>; callers?: boolean;
    watch?: { watchTimeoutSeconds: [number, number] };
  } = {},
): Promise<{ f: ServiceFixture; cache: ReadCache }> {
  let cache: ReadCache | undefined;
  const fixture = await startServiceFixture({
    sandbox: options.sandbox,
    provider: (sandbox) => {
      const kc = serviceAccountConfig(sandbox);
      const apis = makeKubeApis(kc);
      cache = new ReadCache({
        namespaces: ['kagent', 'tenant'], types, log: silentLogger(),
        source: new ClientNodeListWatch(kc, apis, options.watch ?? { watchTimeoutSeconds: [1, 1] }),
        ...options.cache,
      });
      cache.start();
      if (!options.callers) {
        const inner = new ServiceAccountProvider(kc);
        return Object.assign(new CachedKubeProvider(inner, cache), { close: () => { inner.close(); apis.close(); } });
      }
      const inner = new CallerProvider(kc, { log: silentLogger() });
      const provider = new CachedKubeProvider(inner, cache, cachedReadAuthorizer((ctx, a) => inner.mayRead(ctx, a)));
      return Object.assign(provider, { close: () => { inner.close(); apis.close(); } });
    },
  });
  onTestFinished(async () => {
    cache?.stop();
    await fixture.close();
  });
  const started = cache!;
  if (!(await started.synced(10_000))) throw new Error('the read cache did not sync within 10 s');
  return { f: fixture, cache: started };
}

function seedAgent(sandbox: Sandbox, name: string, namespace = 'kagent'): void {
  seedRelease(sandbox, { name, namespace, ready: true, chartVersion: '0.6.0' });
  seedAgentCr(sandbox, { name, namespace, release: { name, namespace }, ready: true, accepted: true });
}

describe.concurrent('the read cache', () => {
  it('answers warm list, get, status and model-config reads with zero API requests', async ({ expect, onTestFinished }) => {
    const { f } = await cachedService(onTestFinished, { watch: QUIET_WATCHES });
    seedAgent(f.sandbox, 'warm');
    seedWorkload(f.sandbox, { name: 'warm', pods: [{ name: 'warm-0', ready: true }] });
    seedWarning(f.sandbox, 'kagent', { kind: 'Pod', name: 'warm-0' }, 'BackOff', 'restarting');
    await until(async () => {
      const seen = await f.service.getAgentStatus(f.ctx(), { name: 'warm' }).catch(() => undefined);
      return seen?.pods?.length === 1 && (seen.events?.length ?? 0) > 0 && seen.deployment?.exists ? true : undefined;
    }, 'the agent, its workload and its warning reaching the cache');
    const direct = await startUncached(f.sandbox);

    f.sandbox.counters.reset();
    const list = await f.service.listAgents(f.ctx());
    const agent = await f.service.getAgent(f.ctx(), { name: 'warm' });
    const status = await f.service.getAgentStatus(f.ctx(), { name: 'warm' });
    const models = await f.service.listModelConfigs(f.ctx());
    expect(readsBySA(f.sandbox)).toBe(0);

    // The same answers the API server gives.
    expect(list).toEqual(await direct.listAgents());
    expect(agent).toEqual(await direct.getAgent('warm'));
    expect(models).toEqual(await direct.listModelConfigs());
    expect(status).toEqual(await direct.getAgentStatus('warm'));
    direct.close();
  });

  it('answers warm revision reads with zero API requests, and sees a revision this replica just recorded', async ({ expect, onTestFinished }) => {
    const { f } = await cachedService(onTestFinished, { watch: QUIET_WATCHES });
    await f.service.createAgent(f.ctx(), { name: 'versioned', modelConfig: 'default-model-config', toolset: ['preset:none'] });
    await f.service.updateAgent(f.ctx(), { name: 'versioned', description: 'second' });
    // Read at once after the write: the cache waits for the watch to pass it.
    const listed = await f.service.listAgentRevisions(f.ctx(), { name: 'versioned' });
    expect(listed.revisions.map((r) => r.revision)).toEqual([2, 1]);
    // The Agent kagent renders from the release (this fixture runs no controllers): a read
    // of an object the cache does not hold asks the API server, so warm means it is there.
    seedAgentCr(f.sandbox, { name: 'versioned', release: { name: 'versioned', namespace: 'kagent' }, ready: true, accepted: true });
    await until(async () => ((await f.service.getAgent(f.ctx(), { name: 'versioned' })).ready ? true : undefined), 'the Agent reaching the cache');
    const direct = await startUncached(f.sandbox);

    f.sandbox.counters.reset();
    const list = await f.service.listAgentRevisions(f.ctx(), { name: 'versioned' });
    const detail = await f.service.getAgentRevision(f.ctx(), { name: 'versioned', revision: 1 });
    expect(readsBySA(f.sandbox)).toBe(0);

    expect(list).toEqual(await direct.listAgentRevisions('versioned'));
    expect(detail).toEqual(await direct.getAgentRevision('versioned', 1));
    direct.close();
  });

  it('reads its own writes: an agent just created is listed and got at once, and gone at once after delete', async ({ expect, onTestFinished }) => {
    const { f, cache } = await cachedService(onTestFinished);
    await f.service.createAgent(f.ctx(), { name: 'fresh', modelConfig: 'default-model-config', toolset: ['preset:none'] });
    expect((await f.service.getAgent(f.ctx(), { name: 'fresh' })).name).toBe('fresh');
    expect((await f.service.listAgents(f.ctx())).agents.map((a) => a.name)).toContain('fresh');
    await f.service.deleteAgent(f.ctx(), { name: 'fresh' });
    expect((await f.service.listAgents(f.ctx())).agents.map((a) => a.name)).not.toContain('fresh');
    expect(cache.reads.cache).toBeGreaterThan(0);
  });

  it('reads an agent another replica just created from the API server while the watch has not brought it (a miss is never a 404 from the cache)', async ({ expect, onTestFinished }) => {
    const { f, cache } = await cachedService(onTestFinished);
    // Hold this replica's watches of releases and agents down (within the stale bound, so
    // the cache still serves): another replica's create then reaches the API server only.
    f.sandbox.faults.failNext({ verb: 'watch', resource: 'helmreleases', code: 500, count: 1_000 });
    f.sandbox.faults.failNext({ verb: 'watch', resource: 'agents', code: 500, count: 1_000 });
    await until(() => (f.sandbox.faults.snapshot().failures.every((rule) => rule.count < 1_000) ? true : undefined), 'both watches failing');
    expect(cache.status().state).toBe('ready');
    seedAgent(f.sandbox, 'elsewhere');

    const apiReads = cache.reads.api;
    const agent = await f.service.getAgent(f.ctx(), { name: 'elsewhere' });
    expect(agent.name).toBe('elsewhere');
    expect(cache.reads.api).toBeGreaterThan(apiReads);
    f.sandbox.faults.clear();
  });

  it('re-lists when the watch history it needs is gone (410 Gone) and then holds what changed meanwhile', async ({ expect, onTestFinished }) => {
    const { f, cache } = await cachedService(onTestFinished, { sandbox: { historyCapacity: 5 } });
    const listsBefore = f.sandbox.counters.count({ verb: 'list', resource: 'helmreleases.helm.toolkit.fluxcd.io', user: SA });
    const relistsBefore = cache.status().relists;
    // Changes elsewhere push the releases watch's resourceVersion out of the history.
    for (let i = 0; i < 10; i++) f.sandbox.store.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `noise-${i}`, namespace: 'kagent' } } as never, { fieldManager: 'test' });
    await until(() => (cache.status().relists > relistsBefore ? true : undefined), 'a re-list');
    expect(f.sandbox.counters.count({ verb: 'list', resource: 'helmreleases.helm.toolkit.fluxcd.io', user: SA })).toBeGreaterThan(listsBefore);
    seedAgent(f.sandbox, 'after-gap');
    await until(async () => ((await f.service.listAgents(f.ctx())).agents.some((a) => a.name === 'after-gap') ? true : undefined), 'the new agent');
    expect(cache.status().state).toBe('ready');
  });

  it('reads from the API server while its watch stays down beyond the bound, and from the cache once it is back', async ({ expect, onTestFinished }) => {
    const { f, cache } = await cachedService(onTestFinished, { cache: { staleAfterMs: 500 } });
    f.sandbox.faults.failNext({ verb: 'watch', resource: 'helmreleases', code: 500, count: 1_000 });
    const releaseListsOfOneRead = async (): Promise<number> => {
      f.sandbox.counters.reset();
      await f.service.listAgents(f.ctx());
      return f.sandbox.counters.count({ verb: 'list', resource: 'helmreleases.helm.toolkit.fluxcd.io', user: SA });
    };
    // Once the releases watch ends (every second here) and cannot come back, reads of releases go direct.
    await until(async () => ((await releaseListsOfOneRead()) === 1 ? true : undefined), 'a direct read');
    expect(cache.status().state).toBe('degraded');
    expect(cache.status().feeds.stale).toBeGreaterThan(0);
    f.sandbox.faults.clear();
    await until(async () => ((await releaseListsOfOneRead()) === 0 ? true : undefined), 'reads from the cache again');
  });
});

describe.concurrent('the read cache under the caller identity', () => {
  const BOB = 'bob-token';
  const grantBob = (sandbox: Sandbox) => {
    sandbox.tokens.set(BOB, { username: 'bob', groups: ['system:authenticated'] });
    sandbox.store.create('roles', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'bob-reads', namespace: 'kagent' },
      rules: [
        { apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: ['get', 'list'] },
        { apiGroups: ['source.toolkit.fluxcd.io'], resources: ['ocirepositories'], verbs: ['get', 'list'] },
        { apiGroups: ['kagent.dev'], resources: ['agents', 'modelconfigs'], verbs: ['get', 'list'] },
      ],
    } as never, { fieldManager: 'test' });
    sandbox.store.create('rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'bob-reads', namespace: 'kagent' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'bob-reads' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    } as never, { fieldManager: 'test' });
  };

  it('never serves a caller what the API server refuses them, and serves what it allows from the cache', async ({ expect, onTestFinished }) => {
    const { f, cache } = await cachedService(onTestFinished, { sandbox: { authorization: 'rbac' }, callers: true });
    grantBob(f.sandbox);
    seedAgent(f.sandbox, 'theirs', 'tenant');
    seedAgent(f.sandbox, 'ours', 'kagent');
    await until(() => (cache.status().objects >= 4 ? true : undefined), 'the agents reaching the cache');
    const bob = f.ctx({ token: BOB });

    // tenant: the cache holds its agents, but bob may not list them, so the API server's 403 is the answer.
    await expect(f.service.listAgents(bob, { namespace: 'tenant' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(f.sandbox.counters.count({ verb: 'list', user: 'bob' })).toBeGreaterThan(0);

    // kagent: allowed; once the reviews are known, reads cost the API server nothing.
    expect((await f.service.listAgents(bob)).agents.map((a) => a.name)).toContain('ours');
    expect(f.sandbox.counters.count({ verb: 'create', resource: 'selfsubjectaccessreviews.authorization.k8s.io', user: 'bob' })).toBeGreaterThan(0);
    f.sandbox.counters.reset();
    expect((await f.service.listAgents(bob)).agents.map((a) => a.name)).toContain('ours');
    expect(f.sandbox.counters.count({ user: 'bob' })).toBe(0);

    // status needs deployments, pods and events, which bob may not read: refused as without a cache.
    await expect(f.service.getAgentStatus(bob, { name: 'ours' })).rejects.toMatchObject({ code: 'forbidden' });
  });
});

/** The same service without a cache, for comparing answers. */
async function startUncached(sandbox: Sandbox) {
  const { AgentService } = await import('../../service/agent-service.js');
  const { fixtureSettings } = await import('../../../test/support/service/fixture.js');
  const { EmbeddedChartSource } = await import('../../../test/support/service/embedded-chart.js');
  const provider = new ServiceAccountProvider(serviceAccountConfig(sandbox));
  const service = new AgentService({ kube: provider, chart: new EmbeddedChartSource('oci://gsoci.azurecr.io/charts/giantswarm/agent'), log: silentLogger() }, fixtureSettings());
  const ctx = { requestId: 'direct', log: silentLogger() };
  return {
    listAgents: () => service.listAgents(ctx),
    getAgent: (name: string) => service.getAgent(ctx, { name }),
    getAgentStatus: (name: string) => service.getAgentStatus(ctx, { name }),
    listModelConfigs: () => service.listModelConfigs(ctx),
    listAgentRevisions: (name: string) => service.listAgentRevisions(ctx, { name }),
    getAgentRevision: (name: string, revision: number) => service.getAgentRevision(ctx, { name, revision }),
    close: () => provider.close(),
  };
}
