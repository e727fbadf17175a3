import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../log/logger.js';
import { requestContext } from './context.js';
import { requestLogger } from './request-log.js';

let server: Server | undefined;
afterEach(async () => {
  if (server) {
    const closing = new Promise((resolve) => server!.close(resolve));
    server.closeAllConnections();
    await closing;
  }
  server = undefined;
});

function capture() {
  const chunks: string[] = [];
  const stream = new Writable({ write(chunk, _e, cb) { chunks.push(String(chunk)); cb(); } });
  return { stream, lines: () => chunks.join('').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

async function serve(app: express.Express): Promise<string> {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('requestLogger', () => {
  it('writes one line per request with the request id and the caller, and never a header', async () => {
    const out = capture();
    const log = createLogger({ destination: out.stream });
    const app = express();
    app.use(requestContext(log));
    app.use(requestLogger(log));
    app.get('/x', (req, res) => {
      // What the OAuth guard does once it verified a token.
      req.ctx.caller = { subject: 'sub-1', email: 'alice@lab.local', groups: [], source: 'sso' };
      res.json({ ok: true });
    });
    const url = await serve(app);
    const res = await fetch(`${url}/x?namespace=kagent`, { headers: { authorization: 'Bearer secret-token', 'x-request-id': 'req-1' } });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = out.lines().filter((l) => l.msg === 'GET /x 200');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      requestId: 'req-1', caller: 'alice@lab.local', level: 'info',
      req: { method: 'GET', url: '/x?namespace=[redacted]' }, res: { statusCode: 200 },
    });
    expect(typeof lines[0]!.responseTime).toBe('number');
    expect(JSON.stringify(out.lines())).not.toContain('secret-token');
  });

  it('logs a 5xx at error, the probes at debug, and each request once even when the client leaves first', async () => {
    const out = capture();
    const log = createLogger({ destination: out.stream, level: 'debug' });
    const app = express();
    app.use(requestContext(log));
    app.use(requestLogger(log));
    app.get('/healthz', (_req, res) => { res.send('ok'); });
    app.get('/boom', (_req, res) => { res.status(503).json({ error: 'down' }); });
    let left: () => void = () => undefined;
    const leaving = new Promise<void>((resolve) => { left = resolve; });
    app.get('/slow', (req) => { req.once('close', () => setTimeout(left, 10)); });
    const url = await serve(app);
    await fetch(`${url}/healthz`);
    await fetch(`${url}/boom`);
    const abort = new AbortController();
    const slow = fetch(`${url}/slow`, { signal: abort.signal }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    abort.abort();
    await slow;
    await leaving;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const byMsg = (msg: string) => out.lines().filter((l) => l.msg === msg);
    expect(byMsg('GET /healthz 200')).toMatchObject([{ level: 'debug' }]);
    expect(byMsg('GET /boom 503')).toMatchObject([{ level: 'error', res: { statusCode: 503 } }]);
    expect(byMsg('GET /slow 200')).toHaveLength(1);
  });
});
