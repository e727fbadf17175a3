// The service's /metrics, end to end against the sandbox: after a create, a read and a
// failing write, the exposition passes `promtool check metrics` (Prometheus's own lint of
// names, types, units and help) and carries the series an SRE alerts on. That a real
// Prometheus scrapes it is dashboard.int.test.ts's, which runs one against the same service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/config/index.js';
import { prometheusTestMode, promtool } from '../support/prometheus.js';
import { deadRegistryFlag, serveConfig, startServe, type RunningServe } from '../support/start-serve.js';

const prometheus = prometheusTestMode();
if (prometheus.mode === 'skip') console.warn(`SKIPPED serve-metrics suite: ${prometheus.reason}`);

describe.skipIf(prometheus.mode === 'skip')('the metrics of a running service', () => {
  let running: RunningServe;
  let exposition: string;

  beforeAll(async () => {
    if (prometheus.mode === 'fail') throw new Error(`CI needs Prometheus: ${prometheus.reason}`);
    running = await startServe(serveConfig(['--listen=127.0.0.1:0', '--metrics-listen=127.0.0.1:0', '--sandbox', await deadRegistryFlag()]));
    const post = (body: unknown): Promise<Response> => fetch(`${running.base}/api/v1/agents`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    expect((await post({ name: 'metered', modelConfig: 'default-model-config', toolset: ['preset:none'] })).status).toBe(201);
    expect((await post({ name: 'metered', modelConfig: 'default-model-config', toolset: ['preset:none'] })).status).toBe(409);
    expect((await fetch(`${running.base}/api/v1/agents/kagent/metered`)).status).toBe(200);
    expect((await fetch(`${running.base}/api/v1/info`)).status).toBe(200);
    // The history operations: an update makes revision 2, then both reads and a rollback to 1.
    const agent = `${running.base}/api/v1/agents/kagent/metered`;
    const json = { 'content-type': 'application/json' };
    expect((await fetch(agent, { method: 'PATCH', headers: json, body: '{"description":"v2"}' })).status).toBe(200);
    expect((await fetch(`${agent}/revisions`)).status).toBe(200);
    expect((await fetch(`${agent}/revisions/1`)).status).toBe(200);
    expect((await fetch(`${agent}/revisions/99`)).status).toBe(404);
    expect((await fetch(`${agent}/rollback`, { method: 'POST', headers: json, body: '{"revision":1}' })).status).toBe(200);
    exposition = await (await fetch(`${running.metrics}/metrics`)).text();
  });
  afterAll(async () => {
    await running?.close();
  });

  it('passes promtool check metrics', () => {
    const { status, output } = promtool(['check', 'metrics'], exposition);
    expect(output).toBe('');
    expect(status).toBe(0);
  });

  it('carries the build, the schema source, the registry errors, the API calls and the writes', () => {
    expect(exposition).toMatch(new RegExp(`^agent_manager_build_info\\{version="${packageVersion().replace(/\./g, '\\.')}",.*\\} 1$`, 'm'));
    expect(exposition).toContain('agent_manager_chart_schema_source{source="embedded"} 1');
    expect(exposition).toMatch(/^agent_manager_chart_registry_errors_total [1-9]/m);
    expect(exposition).toMatch(/^agent_manager_http_client_request_duration_seconds_count\{peer="registry",method="GET",code="error"\} [1-9]/m);
    expect(exposition).toMatch(/^agent_manager_kube_request_duration_seconds_count\{verb="create",resource="helmreleases",code="201"\} 1$/m);
    expect(exposition).toMatch(/^agent_manager_kube_request_duration_seconds_count\{verb="get",resource="helmreleases",code="200"\} [1-9]/m);
    expect(exposition).toContain('agent_manager_writes_total{operation="create_agent",outcome="ok"} 1');
    expect(exposition).toContain('agent_manager_writes_total{operation="create_agent",outcome="conflict"} 1');
  });

  it('counts the read cache\'s own lists and watches like every other Kubernetes call', () => {
    for (const resource of ['helmreleases', 'deployments', 'pods']) {
      expect(exposition).toMatch(new RegExp(`^agent_manager_kube_request_duration_seconds_count\\{verb="list",resource="${resource}",code="200"\\} [1-9]`, 'm'));
      expect(exposition).toMatch(new RegExp(`^agent_manager_kube_request_duration_seconds_count\\{verb="watch",resource="${resource}",code="200"\\} [1-9]`, 'm'));
    }
  });

  it('counts and times the revision operations like every other: rollback_agent as a write, the two reads by route', () => {
    expect(exposition).toContain('agent_manager_writes_total{operation="rollback_agent",outcome="ok"} 1');
    expect(exposition).toContain('agent_manager_writes_total{operation="update_agent",outcome="ok"} 1');
    expect(exposition).not.toMatch(/agent_manager_writes_total\{operation="(list|get)_agent_revisions?"/);
    const route = (method: string, path: string, status: number) =>
      new RegExp(`^http_server_request_duration_seconds_count\\{method="${method}",route="${path.replace(/\//g, '\\/')}",code="${status}",status="${status}"\\} 1$`, 'm');
    expect(exposition).toMatch(route('GET', '/api/v1/agents/:namespace/:name/revisions', 200));
    expect(exposition).toMatch(route('GET', '/api/v1/agents/:namespace/:name/revisions/:revision', 200));
    expect(exposition).toMatch(route('GET', '/api/v1/agents/:namespace/:name/revisions/:revision', 404));
    expect(exposition).toMatch(route('POST', '/api/v1/agents/:namespace/:name/rollback', 200));
    expect(exposition).toMatch(/^agent_manager_kube_request_duration_seconds_count\{verb="create",resource="controllerrevisions",code="201"\} 3$/m);
  });
});
