import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, silentLogger, type Logger } from './log/logger.js';
import { Metrics } from './metrics/app-metrics.js';
import { FakeService } from '../test/support/transport/fake-service.js';
import { createApp, errorForResponse, type AppOptions } from './app.js';
import { Lifecycle } from './transport/http/lifecycle.js';
import { sendCompactJson, type Step } from './transport/http/exchange.js';
import { AppError, ErrorCode } from './core/errors.js';
import { eventually } from '../test/support/eventually.js';

/** A stand-in guard: `X-Test-User` is the caller; without it, 401. */
const fakeGuard: Step = (req, res) => {
  const user = req.headers['x-test-user'];
  if (typeof user !== 'string') {
    res.setHeader('WWW-Authenticate', 'Bearer');
    sendCompactJson(res, 401, { error: { code: 'unauthenticated', message: 'unauthenticated: no token' } });
    return true;
  }
  req.caller = { subject: user, email: `${user}@lab.local`, groups: [], source: 'sso' };
  req.callerToken = 'secret-token-value';
};

function capture(): { lines: Array<Record<string, unknown>>; log: Logger } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLogger({ destination, level: 'debug' }) };
}

describe('createApp', () => {
  let server: Server | undefined;
  const clients: Client[] = [];

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
    }
    server = undefined;
  });

  async function start(options: Partial<AppOptions> = {}): Promise<{ base: string; service: FakeService }> {
    const service = (options.service as FakeService | undefined) ?? new FakeService();
    const app = createApp({ service, log: silentLogger(), version: '1.2.3', ...options });
    server = await new Promise<Server>((resolve) => {
      const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
    });
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, service };
  }

  async function mcpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  it.each(['/healthz', '/readyz'])('answers GET %s with 200 ok without touching the service', async (path) => {
    const { base, service } = await start();
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('ok');
    expect(service.calls).toEqual([]);
  });

  it('answers /readyz 503 once shutdown has begun, while /healthz and the API are still served', async () => {
    const lifecycle = new Lifecycle();
    const { base } = await start({ lifecycle });
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    lifecycle.stop();
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, await ready.text()]).toEqual([503, 'shutting down']);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/api/v1/agents`)).status).toBe(200);
  });

  it('serves the REST API under /api/v1 and echoes the request id', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/api/v1/info`, { headers: { 'X-Request-Id': 'rest-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('rest-1');
    expect(((await res.json()) as { identity: string }).identity).toBe('serviceAccount');
  });

  it('serves MCP at the configured path', async () => {
    const { base } = await start({ mcpPath: '/tools/mcp' });
    const client = await mcpClient(`${base}/tools/mcp`);
    expect(client.getServerVersion()).toEqual({ name: 'agent-manager', version: '1.2.3' });
    expect((await client.listTools()).tools).toHaveLength(20);
  });

  it('serves no MCP when it is disabled', async () => {
    const { base } = await start({ mcpEnabled: false });
    const res = await fetch(`${base}/mcp`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    await res.text();
  });

  it('answers an unknown path with a JSON 404 in the error model', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'not found: no route for GET /nope' } });
  });

  describe('with a guard', () => {
    it('guards /api/v1 and MCP but never the probes or the open routes', async () => {
      const open: Step = (req, res) => {
        if (req.path !== '/.well-known/x') return;
        sendCompactJson(res, 200, { open: true });
        return true;
      };
      const { base } = await start({ auth: fakeGuard, publicRoutes: open });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect((await fetch(`${base}/.well-known/x`)).status).toBe(200);
      expect((await fetch(`${base}/api/v1/info`)).status).toBe(401);
      expect((await fetch(`${base}/api/v1/openapi.yaml`)).status).toBe(401);
      const mcp = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(mcp.status).toBe(401);
      expect(mcp.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('sends the REST Cache-Control and Vary on the 401 of the guard and the 403 of the origin check', async () => {
      const { base } = await start({ auth: fakeGuard });
      const unauthenticated = await fetch(`${base}/api/v1/agents`);
      const foreign = await fetch(`${base}/api/v1/agents`, { method: 'POST', headers: { origin: 'https://evil.example' } });
      for (const [res, status] of [[unauthenticated, 401], [foreign, 403]] as const) {
        expect(res.status).toBe(status);
        expect(res.headers.get('cache-control')).toBe('no-cache, private');
        expect(res.headers.get('vary')).toBe('Authorization');
        await res.text();
      }
    });

    it('hands the verified caller to REST and MCP calls through the request context', async () => {
      const { base, service } = await start({ auth: fakeGuard });
      expect((await fetch(`${base}/api/v1/agents`, { headers: { 'X-Test-User': 'ana' } })).status).toBe(200);
      const client = await mcpClient(`${base}/mcp`, { 'X-Test-User': 'ben' });
      await client.callTool({ name: 'list_agents', arguments: {} });
      const callers = service.calls.filter((c) => c.method === 'listAgents').map((c) => [c.ctx.caller?.email, c.ctx.token]);
      expect(callers).toEqual([['ana@lab.local', 'secret-token-value'], ['ben@lab.local', 'secret-token-value']]);
    });

    it('uses one guard per surface when given both', async () => {
      const refuse: Step = (_req, res) => {
        sendCompactJson(res, 401, { error: { code: 'unauthenticated', message: 'mcp' } });
        return true;
      };
      const { base } = await start({ auth: { rest: () => undefined, mcp: refuse } });
      expect((await fetch(`${base}/api/v1/info`)).status).toBe(200);
      expect((await fetch(`${base}/mcp`, { method: 'POST', body: '{}' })).status).toBe(401);
    });
  });

  it('records request durations by route pattern, never by raw URL', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const { base } = await start({ metrics });
    await (await fetch(`${base}/healthz`)).text();
    await (await fetch(`${base}/api/v1/agents/kagent/sre-bot`)).text();
    await (await fetch(`${base}/nope/sre-bot`)).text();
    const body = (await metrics.scrape()).body;
    expect(body).toContain('http_server_request_duration_seconds_count{method="GET",route="/healthz",code="200",status="200"} 1');
    expect(body).toContain('http_server_request_duration_seconds_count{method="GET",route="/api/v1/agents/:namespace/:name",code="200",status="200"} 1');
    expect(body).toContain('http_server_request_duration_seconds_count{method="GET",route="unmatched",code="404",status="404"} 1');
    expect(body).not.toContain('sre-bot');
  });

  it('logs one line per request with its id, at error for 5xx, and never a header', async () => {
    const { lines, log } = capture();
    const service = new FakeService();
    service.failWith(new Error('apiserver gone'), 'getInfo');
    const { base } = await start({ service, log });
    await (await fetch(`${base}/api/v1/agents`, { headers: { 'X-Request-Id': 'log-1', authorization: 'Bearer very-secret' } })).text();
    await (await fetch(`${base}/api/v1/info`, { headers: { 'X-Request-Id': 'log-2' } })).text();
    const requestLines = lines.filter((l) => typeof l.msg === 'string' && /^GET \/api\/v1/.test(l.msg));
    expect(requestLines.map((l) => [l.msg, l.level, l.requestId])).toEqual([
      ['GET /api/v1/agents 200', 'info', 'log-1'],
      ['GET /api/v1/info 502', 'error', 'log-2'],
    ]);
    expect(requestLines[0]).toMatchObject({ req: { method: 'GET', url: '/api/v1/agents' }, res: { statusCode: 200 } });
    expect(JSON.stringify(lines)).not.toContain('very-secret');
  });

  it('names the tool and its outcome on an MCP tool call\'s access log line, as its metric labels it', async () => {
    const { lines, log } = capture();
    const service = new FakeService();
    const { base } = await start({ service, log });
    const client = await mcpClient(`${base}/mcp`);
    await client.callTool({ name: 'get_info', arguments: {} });
    service.failWith(new AppError(ErrorCode.Conflict, 'taken'), 'getAgent');
    expect((await client.callTool({ name: 'get_agent', arguments: { name: 'sre' } })).isError).toBe(true);
    await client.listTools();
    // Each line is written as its response closes: initialize, get_info, get_agent and tools/list answer 200.
    const mcpLines = () => lines.filter((l) => l.msg === 'POST /mcp 200');
    const called = () => mcpLines().filter((l) => 'tool' in l);
    await eventually(() => (mcpLines().length >= 4 ? true : undefined), 5_000, 'the MCP access lines');
    expect(called().map((l) => [l.tool, l.outcome])).toEqual([['get_info', 'ok'], ['get_agent', 'tool_error']]);
    expect(mcpLines().filter((l) => !('tool' in l) && 'outcome' in l)).toEqual([]);
  });
});

describe('errorForResponse', () => {
  it('keeps the 4xx status a library gave its own errors as invalid_request', () => {
    const err = Object.assign(new Error('request entity too large'), { status: 413, expose: true });
    expect(errorForResponse(err)).toMatchObject({ status: 413, error: { code: 'invalid_request', message: 'invalid request: request entity too large' } });
  });

  it('answers anything else as backend_error 502 with its message only', () => {
    expect(errorForResponse(new Error('boom'))).toMatchObject({ status: 502, error: { code: 'backend_error', message: 'boom' } });
  });
});
