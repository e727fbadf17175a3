import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../log/logger.js';
import { requestContext } from '../http/context.js';
import { FakeService } from '../testing/fake-service.js';
import { lazyMcpHandler, type LazyMcpHandler } from './lazy-handler.js';

describe('the MCP handler loaded on first use', () => {
  let server: Server;
  let url: string;
  let mcp: LazyMcpHandler;

  beforeAll(async () => {
    mcp = lazyMcpHandler({ service: new FakeService(), log: silentLogger(), version: '9.9.9' });
    const app = express();
    app.use(requestContext(silentLogger()));
    app.all('/mcp', mcp.handler);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

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
