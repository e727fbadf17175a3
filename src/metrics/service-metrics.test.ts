import { describe, expect, it } from 'vitest';
import { conflict, notFound } from '../core/errors.js';
import { instrumentKube } from '../kube/instrumented.js';
import { instrumentFetch } from '../net/instrumented-fetch.js';
import { instrumentService } from '../service/instrumented-service.js';
import { Metrics } from './app-metrics.js';

const gvr = { group: 'helm.toolkit.fluxcd.io', version: 'v2', resource: 'helmreleases', kind: 'HelmRelease' };

async function body(metrics: Metrics): Promise<string> {
  return (await metrics.scrape()).body;
}

describe('the service metrics', () => {
  it('publish the build as agent_manager_build_info 1', async () => {
    const text = await body(new Metrics({ processMetrics: false, build: { version: '1.2.3', commit: 'abc1234' } }));
    expect(text).toContain(`agent_manager_build_info{version="1.2.3",commit="abc1234",node_version="${process.version}"} 1`);
  });

  it('say which schema source is in use, and count registry errors', async () => {
    const metrics = new Metrics({ processMetrics: false });
    expect(await body(metrics)).toContain('agent_manager_chart_schema_source{source="embedded"} 1');
    metrics.service.chartSchemaSource('registry');
    metrics.service.chartRegistryError();
    const text = await body(metrics);
    expect(text).toContain('agent_manager_chart_schema_source{source="registry"} 1');
    expect(text).toContain('agent_manager_chart_schema_source{source="embedded"} 0');
    expect(text).toContain('agent_manager_chart_registry_errors_total 1');
  });

  it('time every Kubernetes call by verb, resource and status, absent objects as 404', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const port = instrumentKube({
      get: async (..._args: unknown[]) => undefined,
      create: async (_g: unknown, o: unknown) => o,
      replace: async (..._args: unknown[]) => {
        throw conflict('update helmrelease kagent/a: stale', { code: 409 });
      },
      remove: async (..._args: unknown[]) => true,
    }, [metrics.service.kubeHook]);
    await port.get(gvr, 'kagent', 'a');
    await port.create(gvr, {});
    await expect(port.replace(gvr)).rejects.toThrow('stale');
    await port.remove(gvr, 'kagent', 'a');
    const text = await body(metrics);
    for (const labels of ['verb="get",resource="helmreleases",code="404"', 'verb="create",resource="helmreleases",code="201"',
      'verb="update",resource="helmreleases",code="error"', 'verb="delete",resource="helmreleases",code="200"']) {
      expect(text).toContain(`agent_manager_kube_request_duration_seconds_count{${labels}} 1`);
    }
  });

  it('time every registry and GitHub request by peer, method and status', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const ok = instrumentFetch(async () => new Response('{}', { status: 200 }), 'github', [metrics.service.fetchHook]);
    const down = instrumentFetch(async () => {
      throw new TypeError('fetch failed');
    }, 'registry', [metrics.service.fetchHook]);
    await ok('https://api.github.com/repos/o/r');
    await expect(down('http://127.0.0.1:1/v2/')).rejects.toThrow('fetch failed');
    const text = await body(metrics);
    expect(text).toContain('agent_manager_http_client_request_duration_seconds_count{peer="github",method="GET",code="200"} 1');
    expect(text).toContain('agent_manager_http_client_request_duration_seconds_count{peer="registry",method="GET",code="error"} 1');
  });

  it('count writes by operation and outcome (a dry run as dry_run), and not reads', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const service = instrumentService({
      createAgent: async (..._args: unknown[]) => ({}),
      updateAgent: async (..._args: unknown[]) => ({ dryRun: true }),
      deleteAgent: async (..._args: unknown[]) => {
        throw notFound('agent kagent/x');
      },
      listAgents: async (..._args: unknown[]) => ({ agents: [] }),
    }, [metrics.service.operationHook]);
    await service.createAgent();
    await service.updateAgent();
    await expect(service.deleteAgent()).rejects.toThrow();
    await service.listAgents();
    const text = await body(metrics);
    expect(text).toContain('agent_manager_writes_total{operation="create_agent",outcome="ok"} 1');
    expect(text).toContain('agent_manager_writes_total{operation="delete_agent",outcome="not_found"} 1');
    // A dry run stored nothing: it is not counted as an applied write.
    expect(text).toContain('agent_manager_writes_total{operation="update_agent",outcome="dry_run"} 1');
    expect(text).not.toContain('agent_manager_writes_total{operation="update_agent",outcome="ok"}');
    expect(text).not.toContain('operation="list_agents"');
  });

  it('count the pull requests commit-mode writes open, from 0 for every write, and not their dry runs', async () => {
    const metrics = new Metrics({ processMetrics: false });
    expect(await body(metrics)).toContain('agent_manager_pull_requests_total{operation="rollback_agent"} 0');
    const service = instrumentService({
      updateAgent: async (..._args: unknown[]) => ({ mode: 'commit', commit: { pullRequest: 'https://github.example/a/b/pull/7' } }),
      deleteAgent: async (..._args: unknown[]) => ({ mode: 'commit', commit: { files: [] } }),
      createAgent: async (..._args: unknown[]) => ({ mode: 'apply' }),
    }, [metrics.service.operationHook]);
    await service.updateAgent();
    await service.deleteAgent();
    await service.createAgent();
    const text = await body(metrics);
    expect(text).toContain('agent_manager_pull_requests_total{operation="update_agent"} 1');
    expect(text).toContain('agent_manager_pull_requests_total{operation="delete_agent"} 0');
    expect(text).toContain('agent_manager_pull_requests_total{operation="create_agent"} 0');
  });

  it('read the read-cache state a cache registers, at every scrape', async () => {
    const metrics = new Metrics({ processMetrics: false });
    expect(await body(metrics)).not.toMatch(/agent_manager_read_cache_objects\{/);
    let objects = 3;
    metrics.service.readCacheState(() => [{ resource: 'helmreleases', objects, synced: true }, { resource: 'pods', objects: 0, synced: false }]);
    objects = 5;
    const text = await body(metrics);
    expect(text).toContain('agent_manager_read_cache_objects{resource="helmreleases"} 5');
    expect(text).toContain('agent_manager_read_cache_synced{resource="pods"} 0');
  });
});
