import type { ParsedUrlQuery } from 'node:querystring';
import { describe, expect, it } from 'vitest';
import { Metrics, UNMATCHED_ROUTE } from '../../metrics/app-metrics.js';
import { sendText } from './exchange.js';
import { runSteps } from '../../../test/support/transport/steps.js';
import { httpMetrics, requestKind, routeOf } from './http-metrics.js';
import { serveHandler } from '../../../test/support/transport/serve-handler.js';

const req = (path: string, query: ParsedUrlQuery = {}) => ({ path, query });

describe('requestKind', () => {
  it.each([
    ['/mcp', {}, 'mcp'],
    ['/api/v1/agents/kagent/sre/wait', {}, 'wait'],
    ['/api/v1/agents/kagent/sre/status', { watch: 'true' }, 'status_stream'],
    ['/api/v1/agents/kagent/sre/status', {}, 'other'],
    ['/api/v1/agents/kagent/sre/status', { watch: ['true', 'true'] }, 'other'],
    ['/api/v1/agents/kagent/sre', {}, 'other'],
    ['/x/mcp', {}, 'other'],
  ])('takes %s %j for %s', (path, query, kind) => {
    expect(requestKind(req(path, query), '/mcp')).toBe(kind);
  });
});

describe('routeOf', () => {
  it('names the route pattern that answered, or unmatched when none did', () => {
    expect(routeOf({ route: '/api/v1/agents/:namespace/:name' })).toBe('/api/v1/agents/:namespace/:name');
    expect(routeOf({})).toBe(UNMATCHED_ROUTE);
  });
});

describe('httpMetrics', () => {
  it('labels each finished request with the route that answered it, never the raw path', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const steps = [httpMetrics(metrics)];
    const finished: Promise<void>[] = [];
    const served = await serveHandler((req, res) => {
      // Added after the step's own listener, so it runs once the request was recorded.
      finished.push(new Promise((resolve) => res.once('finish', () => resolve())));
      runSteps(steps, req, res);
      if (req.path.startsWith('/api/v1/agents/')) {
        req.route = '/api/v1/agents/:namespace/:name';
        sendText(res, 200, 'ok');
      } else sendText(res, 404, 'not found');
    });
    try {
      await (await fetch(`${served.url}/api/v1/agents/kagent/sre`)).text();
      await (await fetch(`${served.url}/nowhere`)).text();
      await Promise.all(finished);
    } finally {
      await served.close();
    }
    const { body } = await metrics.scrape();
    const count = (route: string, code: number) =>
      body.split('\n').find((line) => line.startsWith('http_server_request_duration_seconds_count{') &&
        line.includes(`route="${route}",code="${code}"`));
    expect(count('/api/v1/agents/:namespace/:name', 200)).toMatch(/ 1$/);
    expect(count(UNMATCHED_ROUTE, 404)).toMatch(/ 1$/);
    expect(body).not.toContain('kagent/sre');
    expect(body).toMatch(/agent_manager_requests_in_flight\{kind="other"\} 0/);
  });
});
