import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../log/logger.js';
import { startHttpServer, type RunningServer } from '../transport/http/http-server.js';
import { Metrics } from './app-metrics.js';
import { metricsRequestListener } from './metrics-server.js';

describe('the metrics listener', () => {
  let running: RunningServer;

  beforeAll(async () => {
    const metrics = new Metrics({ processMetrics: false });
    metrics.observeTool('get_info', 'ok', 0.01);
    running = await startHttpServer(metricsRequestListener(metrics, silentLogger()), '127.0.0.1:0');
  });

  afterAll(async () => {
    await running.close(0);
  });

  it('serves GET /metrics in the Prometheus text format without authentication', async () => {
    const res = await fetch(`${running.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await res.text()).toContain('mcp_server_operation_duration_seconds_count{tool="get_info",outcome="ok"} 1');
  });

  it('answers any other path with 404', async () => {
    const res = await fetch(`${running.url}/api/v1/info`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('GET /metrics only');
  });

  it('answers other methods with 405', async () => {
    const res = await fetch(`${running.url}/metrics`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    await res.text();
  });
});
