// The chart's Grafana dashboard against a real Prometheus: the service runs on loopback with
// the sandbox, takes REST, MCP and wait traffic, and Prometheus scrapes it every 250 ms with
// the labels a ServiceMonitor gives (job, namespace). Every panel's PromQL, as the chart's
// ConfigMap carries it with the dashboard variables filled in, must return data, so a
// misspelt metric or label shows here rather than as an empty panel. Its first query is the
// service's agent_manager_build_info, with the job and instance of the target it scraped.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/config/index.js';
import { eventually } from '../support/eventually.js';
import { prometheusTestMode, startPrometheus, type RunningPrometheus } from '../support/prometheus.js';
import { deadRegistryFlag, serveConfig, startServe, type RunningServe } from '../support/start-serve.js';
import { one } from '../chart-package/helm.js';
import { render } from '../chart-package/render-values.js';

const NAMESPACE = 'agent-platform';
const prometheus = prometheusTestMode();
if (prometheus.mode === 'skip') console.warn(`SKIPPED dashboard suite: ${prometheus.reason}`);
// Started at import, before the render and the service: its first scrape comes 5 s after its start.
const starting = prometheus.mode === 'run'
  ? startPrometheus([], { scrapeInterval: '250ms', labels: { namespace: NAMESPACE } }) : undefined;
starting?.catch(() => undefined); // awaited, and reported, by the suite's beforeAll

interface Panel { type: string; title: string; targets?: { expr: string }[] }

/** The dashboard as the chart's ConfigMap carries it. */
function dashboard(): { panels: Panel[]; templating: { list: { name: string }[] } } {
  const configMap = one(render({ dashboards: { enabled: true } }), 'ConfigMap', 'agent-manager-dashboard') as unknown as { data: Record<string, string> };
  return JSON.parse(configMap.data['agent-manager.json']!) as never;
}

/** A panel query with the dashboard's variables as Grafana would fill them here. */
function filled(expr: string): string {
  return expr.replaceAll('$__rate_interval', '5s').replaceAll('$__range', '1m').replaceAll('$namespace', NAMESPACE).replaceAll('$job', 'agent-manager');
}

const queries = dashboard().panels.filter((p) => p.type !== 'row')
  .flatMap((p) => (p.targets ?? []).map((t, i) => [`${p.title} #${i + 1}`, t.expr] as const));

describe('the chart\'s Grafana dashboard', () => {
  it('has the panels platform teams look for, each with a query', () => {
    const titles = dashboard().panels.map((p) => p.title).join('\n');
    for (const word of ['Request rate by route', '5xx ratio by route', 'Latency p95 by route', 'Tool calls by tool', 'API latency p95 by resource',
      'API errors by resource', 'Objects cached by resource', 'Cache lag', 'Waits and streams in flight', 'Commit-mode pull requests', 'Chart schema source']) {
      expect(titles).toContain(word);
    }
    expect(queries.length).toBeGreaterThanOrEqual(15);
    expect(dashboard().templating.list.map((v) => v.name)).toEqual(['datasource', 'namespace', 'job']);
  });
});

describe.skipIf(prometheus.mode === 'skip')('every dashboard query against a real Prometheus scraping the service', () => {
  let running: RunningServe;
  let server: RunningPrometheus;
  let client: Client;

  beforeAll(async () => {
    if (prometheus.mode === 'fail') throw new Error(`CI needs Prometheus: ${prometheus.reason}`);
    // The service starts while Prometheus does; it scrapes the service once that listens.
    const flags = ['--listen=127.0.0.1:0', '--metrics-listen=127.0.0.1:0', '--sandbox', await deadRegistryFlag()];
    await Promise.all([
      startServe(serveConfig(flags)).then((r) => { running = r; }),
      starting!.then((p) => { server = p; }),
    ]);
    server.scrape([new URL(running.metrics!).host]);
    const api = `${running.base}/api/v1/agents`;
    const created = await fetch(api, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'charted', modelConfig: 'default-model-config', toolset: ['preset:none'] }),
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${api}/kagent/charted/wait?timeoutSeconds=1`)).status).toBe(200);
    expect((await fetch(`${api}/kagent/missing`)).status).toBe(404);
    client = new Client({ name: 'dashboard-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.base}/mcp`)));
    await client.callTool({ name: 'get_info', arguments: {} });
    await client.callTool({ name: 'list_agents', arguments: {} });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await running?.close();
  });

  it('answers agent_manager_build_info of the service it scrapes, with its job, instance and version, and up 1', async () => {
    const target = new URL(running.metrics!).host;
    const result = await eventually(async () => {
      const found = await server.query('agent_manager_build_info');
      return found.length > 0 ? found : undefined;
    }, 30_000, 'a scrape of agent_manager_build_info');
    expect(result).toHaveLength(1);
    expect(result[0]!.metric).toMatchObject({ __name__: 'agent_manager_build_info', job: 'agent-manager', instance: target, version: packageVersion() });
    expect(result[0]!.value[1]).toBe('1');
    expect(await server.query('up{job="agent-manager"}')).toMatchObject([{ value: [expect.any(Number), '1'] }]);
  });

  it('finds no data for a misspelt metric, so an empty panel query fails here', async () => {
    await eventually(async () => ((await server.query('agent_manager_build_info')).length > 0 ? true : undefined), 20_000, 'a first scrape');
    expect(await server.query(filled(queries[0]![1].replace('http_server_request_duration_seconds_count', 'http_server_request_duration_second_count')))).toEqual([]);
  });

  it.each(queries)('%s returns data', async (_title, expr) => {
    const result = await eventually(async () => {
      const r = await server.query(filled(expr));
      return r.length > 0 ? r : undefined;
    }, 20_000, `data for ${filled(expr)}`);
    expect(result.length).toBeGreaterThan(0);
  });
});
