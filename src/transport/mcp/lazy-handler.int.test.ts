import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../log/logger.js';
import { requestContext } from '../http/context.js';
import { serveHandler, type ServedHandler } from '../../../test/support/transport/serve-handler.js';
import { FakeService } from '../../../test/support/transport/fake-service.js';
import type { McpHandlerOptions } from './handler.js';
import { lazyMcpHandler, type LazyMcpHandler } from './lazy-handler.js';

/**
 * The lazy handler behind the request context at `<url>/mcp`; a rejected handler is answered 500
 * with the error's message (serveHandler), as the app's error handler would answer it.
 */
async function serveLazy(
  options: McpHandlerOptions,
): Promise<{ served: ServedHandler; url: string; mcp: LazyMcpHandler }> {
  const mcp = lazyMcpHandler(options);
  const context = requestContext(silentLogger());
  const served = await serveHandler(async (req, res) => {
    await context(req, res);
    await mcp.handler(req, res);
  });
  return { served, url: `${served.url}/mcp`, mcp };
}

describe('the MCP handler loaded on first use', () => {
  let served: ServedHandler;
  let url: string;
  let mcp: LazyMcpHandler;

  beforeAll(async () => {
    ({ served, url, mcp } = await serveLazy({ service: new FakeService(), log: silentLogger(), version: '9.9.9' }));
  });

  afterAll(() => served.close());

  it('answers a first request that arrives before anything was loaded, as the real handler does', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(200);
    const body = await res.json() as { result: { tools: { name: string }[] } };
    expect(body.result.tools.map((t) => t.name)).toContain('get_agent');
  });

  it('builds the real handler once: every load hands out the same one', async () => {
    const first = await mcp.load();
    expect(await mcp.load()).toBe(first);
  });

  it('keeps the real handler\'s refusals (GET answers 405 with Allow: POST)', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('the MCP handler whose load fails', () => {
  let served: ServedHandler;
  let url: string;
  let failures = 1;

  beforeAll(async () => {
    // Building the real handler reads `operations`: the first build throws, later ones see the default.
    const options = {
      service: new FakeService(), log: silentLogger(), version: '9.9.9',
      get operations() {
        if (failures-- > 0) throw new Error('the catalog did not build');
        return undefined;
      },
    };
    ({ served, url } = await serveLazy(options));
  });

  afterAll(() => served.close());

  it('rejects the request that met the failure, and the next request loads again and is answered', async () => {
    const failed = await fetch(url);
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe('the catalog did not build');
    const answered = await fetch(url);
    expect(answered.status).toBe(405);
    expect(answered.headers.get('allow')).toBe('POST');
  });
});
