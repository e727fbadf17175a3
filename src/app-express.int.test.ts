import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from './log/logger.js';
import { FakeService } from '../test/support/transport/fake-service.js';
import { serveListener, type ServedHandler } from '../test/support/transport/serve-handler.js';
import { createApp } from './app.js';

/** One raw request, its request line as given (an absolute-form target is what fetch never sends). */
interface RawAnswer { status: number; headers: Record<string, unknown>; body: string }

function raw(server: Server, method: string, target: string): Promise<RawAnswer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: target }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers,
        body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the app as an express 5 application', () => {
  let served: ServedHandler;

  beforeAll(async () => {
    served = await serveListener(createApp({ service: new FakeService(), log: silentLogger(), version: '1.2.3' }));
  });

  afterAll(() => served.close());

  it('adds nothing express would of its own: no X-Powered-By, no ETag on an answer without a version', async () => {
    const res = await fetch(`${served.url}/api/v1/info`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('etag')).toBeNull();
    await res.text();
  });

  it('routes a request in absolute form (RFC 9112 §3.2.2) by its path and query', async () => {
    const res = await raw(served.server, 'GET', `${served.url}/api/v1/agents?namespace=tenant`);
    expect(res.status).toBe(200);
  });

  it('matches the probes exactly: a trailing slash or another letter case is a JSON 404', async () => {
    for (const path of ['/healthz/', '/HEALTHZ']) {
      const res = await raw(served.server, 'GET', path);
      expect([path, res.status, JSON.parse(res.body)]).toEqual([path, 404,
        { error: { code: 'not_found', message: `not found: no route for GET ${path}` } }]);
    }
  });

  it('answers a path segment that is not valid percent-encoding 400 naming it, never express\'s own text', async () => {
    const res = await raw(served.server, 'DELETE', '/api/v1/agents/kagent/%ZZ');
    expect(res.status).toBe(400);
    expect(res.body).toContain('the path segment \\"%ZZ\\" is not valid percent-encoding');
    expect(res.body).not.toMatch(/Failed to decode/);
  });
});
