import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../log/logger.js';
import { FakeService } from '../../../test/support/transport/fake-service.js';
import { createApp, type AppOptions } from '../../app.js';
import type { Step } from './exchange.js';
import { isLoopbackOriginHost, refuseOrigin } from './origin-guard.js';
import { serveHandler, type ServedHandler } from '../../../test/support/transport/serve-handler.js';

describe('refuseOrigin', () => {
  const none = new Set<string>();

  it.each([
    ['no Origin header (server-side clients)', undefined],
    ['localhost on any port', 'http://localhost:6274'],
    ['a *.localhost name', 'http://inspector.localhost:3000'],
    ['127.0.0.1', 'http://127.0.0.1:8080'],
    ['another 127/8 address', 'http://127.1.2.3'],
    ['IPv6 loopback', 'http://[::1]:8080'],
    ['upper-case LOCALHOST', 'http://LOCALHOST:1'],
  ])('accepts %s', (_name, origin) => {
    expect(refuseOrigin(origin, none)).toBeUndefined();
  });

  it.each([
    ['a foreign site (a DNS-rebinding page)', 'http://evil.example:8080'],
    ['the opaque null origin (sandboxed frames, file://)', 'null'],
    ['a look-alike of localhost', 'http://localhost.evil.example'],
    ['a private LAN address', 'http://192.168.1.10:8080'],
    ['an unspecified address', 'http://0.0.0.0:8080'],
    ['something that is not an origin', 'not a url'],
    ['a non-http scheme', 'chrome-extension://abcdef'],
  ])('refuses %s with a message naming it and what to do', (_name, origin) => {
    const reason = refuseOrigin(origin, none);
    expect(reason).toContain(`browser origin "${origin}" are refused`);
    expect(reason).toContain('server-side client, which sends no Origin header');
  });

  it('accepts an allowed origin exactly, after normalising case and the default port', () => {
    const allowed = new Set(['https://agents.example.com']);
    expect(refuseOrigin('https://Agents.Example.com:443', allowed)).toBeUndefined();
    expect(refuseOrigin('https://agents.example.com:8443', allowed)).toContain('are refused');
    expect(refuseOrigin('http://agents.example.com', allowed)).toContain('are refused');
  });

  it('never echoes control characters of the header', () => {
    expect(refuseOrigin('http://evil.example\u0007', none)).not.toContain('\u0007');
  });
});

describe('isLoopbackOriginHost', () => {
  it.each([['localhost', true], ['a.localhost', true], ['127.0.0.1', true], ['[::1]', true], ['localhost.com', false], ['10.0.0.1', false]])(
    '%s → %s', (host, expected) => expect(isLoopbackOriginHost(host)).toBe(expected),
  );
});

describe('the origin check in front of REST and MCP', () => {
  let served: ServedHandler | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  async function start(options: Partial<AppOptions> = {}): Promise<{ base: string; service: FakeService }> {
    const service = new FakeService();
    // The app is node's request listener, served as the real listener serves it.
    served = await serveHandler(createApp({ service, log: silentLogger(), version: '1.2.3', ...options }));
    return { base: served.url, service };
  }

  const initialize = JSON.stringify({
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'browser', version: '1' } },
  });
  const mcpPost = (base: string, origin?: string) => fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(origin ? { origin } : {}) },
    body: initialize,
  });

  it('answers an MCP request from a foreign browser origin 403 with a JSON-RPC error, without running it', async () => {
    const { base, service } = await start();
    const res = await mcpPost(base, 'http://evil.example:8080');
    expect(res.status).toBe(403);
    const body = (await res.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
    expect(body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect(body.error.message).toMatch(/^Forbidden: requests from the browser origin "http:\/\/evil.example:8080" are refused/);
    expect(service.calls).toEqual([]);
  });

  it('answers a REST request from a foreign browser origin 403 in the error model', async () => {
    const { base, service } = await start();
    const res = await fetch(`${base}/api/v1/agents`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body: '{}',
    });
    expect(res.status).toBe(403);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('forbidden');
    expect(body.error.message).toMatch(/^forbidden: requests from the browser origin "https:\/\/evil.example" are refused/);
    expect(service.calls).toEqual([]);
  });

  it('writes the REST 403 like every other error (indented JSON) and names --allowed-origins as the way to allow an origin', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/api/v1/agents`, { headers: { origin: 'https://portal.example' } });
    const text = await res.text();
    expect(res.status).toBe(403);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect((JSON.parse(text) as { error: { message: string } }).error.message).toContain('--allowed-origins');
    const mcp = (await (await mcpPost(base, 'https://portal.example')).json()) as { error: { message: string } };
    expect(mcp.error.message).toContain('--allowed-origins');
  });

  it('refuses a cross-site form-style POST (text/plain, no preflight) that would otherwise create an agent', async () => {
    const { base, service } = await start();
    const res = await fetch(`${base}/api/v1/agents`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://any-site.example' },
      body: JSON.stringify({ name: 'csrf', modelConfig: 'default-model-config', systemMessage: 'x', toolset: ['preset:none'] }),
    });
    expect(res.status).toBe(403);
    await res.text();
    expect(service.calls).toEqual([]);
  });

  it('serves requests without an Origin and from loopback origins as before', async () => {
    const { base } = await start();
    expect((await mcpPost(base)).status).toBe(200);
    expect((await mcpPost(base, 'http://localhost:6274')).status).toBe(200);
    expect((await fetch(`${base}/api/v1/info`, { headers: { origin: 'http://127.0.0.1:5173' } })).status).toBe(200);
  });

  it('serves the configured public origin', async () => {
    const { base } = await start({ allowedOrigins: ['https://agents.example.com/'] });
    expect((await mcpPost(base, 'https://agents.example.com')).status).toBe(200);
    expect((await mcpPost(base, 'https://other.example.com')).status).toBe(403);
  });

  it('refuses a foreign origin before the bearer guard, so no sign-in challenge is given to the page', async () => {
    let guardRan = false;
    const guard: Step = (_req, res) => {
      guardRan = true;
      res.statusCode = 401;
      res.setHeader('WWW-Authenticate', 'Bearer');
      res.end();
      return true;
    };
    const { base } = await start({ auth: guard });
    const res = await mcpPost(base, 'http://evil.example');
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(guardRan).toBe(false);
    await res.text();
  });

  it('leaves the probes alone whatever the origin', async () => {
    const { base } = await start();
    expect((await fetch(`${base}/healthz`, { headers: { origin: 'http://evil.example' } })).status).toBe(200);
  });
});
