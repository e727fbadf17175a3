import { describe, expect, it } from 'vitest';
import { register } from 'prom-client';
import { Metrics } from './app-metrics.js';
import { processMetricsRegistry } from './process-metrics.js';

describe('Metrics', () => {
  it('records HTTP request durations by method, route pattern and status', async () => {
    const metrics = new Metrics({ processMetrics: false });
    metrics.observeHttp('GET', '/api/v1/agents/:namespace/:name', 404, 0.003);
    const { body } = await metrics.scrape();
    expect(body).toContain('# TYPE http_server_request_duration_seconds histogram');
    expect(body).toContain('http_server_request_duration_seconds_count{method="GET",route="/api/v1/agents/:namespace/:name",code="404",status="404"} 1');
    expect(body).toContain('http_server_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/v1/agents/:namespace/:name",code="404",status="404"} 1');
  });

  it('counts requests in flight by kind, from 0 for every kind, each ended once', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const end = metrics.requestStarted('wait');
    metrics.requestStarted('mcp');
    let { body } = await metrics.scrape();
    expect(body).toContain('agent_manager_requests_in_flight{kind="wait"} 1');
    expect(body).toContain('agent_manager_requests_in_flight{kind="status_stream"} 0');
    end();
    end();
    ({ body } = await metrics.scrape());
    expect(body).toContain('agent_manager_requests_in_flight{kind="wait"} 0');
    expect(body).toContain('agent_manager_requests_in_flight{kind="mcp"} 1');
  });

  it('records tool durations by tool and outcome', async () => {
    const metrics = new Metrics({ processMetrics: false });
    metrics.observeTool('create_agent', 'tool_error', 0.2);
    metrics.observeTool('create_agent', 'ok', 0.4);
    const { body } = await metrics.scrape();
    expect(body).toContain('mcp_server_operation_duration_seconds_count{tool="create_agent",outcome="tool_error"} 1');
    expect(body).toContain('mcp_server_operation_duration_seconds_count{tool="create_agent",outcome="ok"} 1');
  });

  it('includes the Node process metrics by default', async () => {
    const { body, contentType } = await new Metrics().scrape();
    expect(contentType).toMatch(/^text\/plain/);
    expect(body).toContain('process_cpu_user_seconds_total');
    expect(body).toContain('nodejs_eventloop_lag_seconds');
  });

  it('keeps its series off prom-client\'s global registry, so two instances do not clash', async () => {
    const a = new Metrics({ processMetrics: false });
    const b = new Metrics({ processMetrics: false });
    a.observeTool('get_info', 'ok', 0.01);
    expect((await b.scrape()).body).not.toContain('tool="get_info"');
    expect(await register.getSingleMetricAsString('mcp_server_operation_duration_seconds').catch(() => '')).toBe('');
  });
});

describe('the process metrics', () => {
  it('are collected once per process and scraped by every instance', async () => {
    const one = await new Metrics().scrape();
    const two = await new Metrics().scrape();
    expect(processMetricsRegistry()).toBe(processMetricsRegistry());
    for (const { body } of [one, two]) {
      expect(body.match(/^# TYPE process_cpu_user_seconds_total counter$/gm)).toHaveLength(1);
      expect(body).toContain('http_server_request_duration_seconds');
    }
  });

  it('are left out when an instance asks for none', async () => {
    const { body } = await new Metrics({ processMetrics: false }).scrape();
    expect(body).not.toContain('process_cpu_user_seconds_total');
    expect(body).toContain('http_server_request_duration_seconds');
  });
});
