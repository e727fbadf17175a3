import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type AppOptions } from '../../app.js';
import { silentLogger } from '../../log/logger.js';
import { FakeService } from '../../../test/support/transport/fake-service.js';
import type { Step } from './exchange.js';
import { PREFLIGHT_MAX_AGE_SECONDS } from './cors.js';
import { serveHandler, type ServedHandler } from '../../../test/support/transport/serve-handler.js';

const PORTAL = 'https://portal.example.com';

let served: ServedHandler | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function start(options: Partial<AppOptions> = {}): Promise<{ base: string; service: FakeService }> {
  const service = new FakeService();
  served = await serveHandler(createApp({
    service, log: silentLogger(), version: '1.2.3', allowedOrigins: [`${PORTAL}/`], ...options,
  }));
  return { base: served.url, service };
}

const preflight = (url: string, origin: string, method = 'PATCH', headers = 'authorization, content-type, if-match') =>
  fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

const list = (value: string | null): string[] => (value ?? '').split(',').map((v) => v.trim().toLowerCase());

const cors = (res: Response): Record<string, string> =>
  Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-')));

const initialize = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'portal', version: '1' } },
});

describe('CORS for a listed origin', () => {
  it('answers a REST preflight 204 with the methods and headers the API uses, before the bearer guard', async () => {
    let guardRan = false;
    const guard: Step = (_req, res) => {
      guardRan = true;
      res.statusCode = 401;
      res.end();
      return true;
    };
    const { base, service } = await start({ auth: guard });
    const res = await preflight(`${base}/api/v1/agents/kagent/sre`, PORTAL);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(list(res.headers.get('vary'))).toContain('origin');
    expect(list(res.headers.get('access-control-allow-methods'))).toEqual(
      expect.arrayContaining(['get', 'head', 'post', 'patch', 'delete']));
    expect(list(res.headers.get('access-control-allow-headers'))).toEqual(expect.arrayContaining(
      ['authorization', 'content-type', 'if-match', 'if-none-match', 'accept', 'last-event-id']));
    expect(res.headers.get('access-control-max-age')).toBe(String(PREFLIGHT_MAX_AGE_SECONDS));
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(guardRan).toBe(false);
    expect(service.calls).toEqual([]);
  });

  it('answers an MCP preflight with POST, GET and DELETE and the MCP headers', async () => {
    const { base } = await start();
    const res = await preflight(`${base}/mcp`, PORTAL, 'POST', 'content-type, mcp-protocol-version');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(list(res.headers.get('access-control-allow-methods'))).toEqual(['get', 'post', 'delete']);
    expect(list(res.headers.get('access-control-allow-headers'))).toEqual(expect.arrayContaining(
      ['authorization', 'content-type', 'accept', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id']));
  });

  it('lets a page read a REST answer with its ETag and Location, and the 401 of the bearer guard', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/api/v1/agents/kagent/sre`, { headers: { origin: PORTAL } });
    expect(res.status).toBe(200);
    await res.text();
    expect(res.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(list(res.headers.get('vary'))).toContain('origin');
    expect(list(res.headers.get('access-control-expose-headers'))).toEqual(
      expect.arrayContaining(['etag', 'location', 'www-authenticate', 'retry-after']));
    const guard: Step = (_req, answer) => {
      answer.statusCode = 401;
      answer.setHeader('WWW-Authenticate', 'Bearer');
      answer.end();
      return true;
    };
    await served?.close();
    const guarded = await start({ auth: guard });
    const refused = await fetch(`${guarded.base}/api/v1/agents`, { headers: { origin: PORTAL } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(PORTAL);
  });

  it('lets a page read an MCP answer, and exposes the MCP headers', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/mcp`, {
      method: 'POST', body: initialize,
      headers: { origin: PORTAL, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(200);
    await res.text();
    expect(res.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(list(res.headers.get('access-control-expose-headers'))).toEqual(
      expect.arrayContaining(['mcp-session-id', 'www-authenticate']));
  });
});

describe('CORS for any other origin: none', () => {
  it.each([
    ['a foreign site', 'https://evil.example'],
    ['a look-alike of the listed origin', 'https://portal.example.com.evil.example'],
    ['the listed host on another port', 'https://portal.example.com:8443'],
    ['the listed host over http', 'http://portal.example.com'],
    ['the null origin', 'null'],
  ])('gives %s no CORS header and the origin check\'s 403 for its preflight', async (_name, origin) => {
    const { base } = await start();
    for (const url of [`${base}/api/v1/agents`, `${base}/mcp`]) {
      const res = await preflight(url, origin, 'POST');
      expect(res.status).toBe(403);
      await res.text();
      expect(cors(res)).toEqual({});
    }
  });

  it('gives a loopback origin, which the origin check accepts, no CORS header unless it is listed', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/api/v1/info`, { headers: { origin: 'http://localhost:5173' } });
    expect(res.status).toBe(200);
    await res.text();
    expect(cors(res)).toEqual({});
    await served?.close();
    const listed = await start({ allowedOrigins: ['http://localhost:5173'] });
    const answered = await preflight(`${listed.base}/api/v1/agents`, 'http://localhost:5173', 'POST');
    expect(answered.status).toBe(204);
    expect(answered.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('changes nothing when no origin is listed', async () => {
    const { base } = await start({ allowedOrigins: [] });
    const res = await fetch(`${base}/api/v1/info`, { headers: { origin: PORTAL } });
    expect(res.status).toBe(403);
    await res.text();
    expect(cors(res)).toEqual({});
    expect(list(res.headers.get('vary'))).not.toContain('origin');
  });

  it('leaves an OPTIONS that is not a preflight to the routes (405 naming the methods)', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/api/v1/agents`, { method: 'OPTIONS', headers: { origin: PORTAL } });
    expect(res.status).toBe(405);
    await res.text();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBe(PORTAL);
  });
});
