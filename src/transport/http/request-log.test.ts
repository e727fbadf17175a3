import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../log/logger.js';
import { captureLogLines } from '../../testing/log-lines.js';
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

async function serve(app: express.Express): Promise<string> {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('requestLogger', () => {
  it('writes one line per request with the request id and the caller, and never a header', async () => {
    const out = captureLogLines();
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
    await out.waitFor((l) => l.msg === 'GET /x 200', 'for GET /x');
    const lines = out.lines().filter((l) => l.msg === 'GET /x 200');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      requestId: 'req-1', caller: 'alice@lab.local', level: 'info',
      req: { method: 'GET', url: '/x?namespace=[redacted]' }, res: { statusCode: 200 },
    });
    expect(typeof lines[0]!.responseTime).toBe('number');
    expect(JSON.stringify(out.lines())).not.toContain('secret-token');
  });

  it('logs a 5xx at error, the probes at debug (a draining /readyz 503 too), and each request once even when the client leaves first', async () => {
    const out = captureLogLines();
    const log = createLogger({ destination: out.stream, level: 'debug' });
    const app = express();
    app.use(requestContext(log));
    app.use(requestLogger(log));
    app.get('/healthz', (_req, res) => { res.send('ok'); });
    // Draining: readiness answers 503 on purpose, which is no server failure.
    app.get('/readyz', (_req, res) => { res.status(503).send('shutting down'); });
    app.get('/boom', (_req, res) => { res.status(503).json({ error: 'down' }); });
    let arrived: () => void = () => undefined;
    const arriving = new Promise<void>((resolve) => { arrived = resolve; });
    app.get('/slow', () => { arrived(); });
    const url = await serve(app);
    await fetch(`${url}/healthz`);
    await fetch(`${url}/readyz`);
    await fetch(`${url}/boom`);
    const abort = new AbortController();
    const slow = fetch(`${url}/slow`, { signal: abort.signal }).catch(() => undefined);
    await arriving;
    abort.abort();
    await slow;
    await out.waitFor((l) => l.msg === 'GET /slow 200', 'for the request the client left');
    // A request made after the client left is logged after it: by then a second line for
    // /slow would have been written too.
    await fetch(`${url}/healthz`);
    const probes = () => out.lines().filter((l) => l.msg === 'GET /healthz 200').length;
    await out.waitFor(() => probes() === 2, 'for the second probe');
    const byMsg = (msg: string) => out.lines().filter((l) => l.msg === msg);
    expect(byMsg('GET /healthz 200')).toMatchObject([{ level: 'debug' }, { level: 'debug' }]);
    expect(byMsg('GET /readyz 503')).toMatchObject([{ level: 'debug', res: { statusCode: 503 } }]);
    expect(byMsg('GET /boom 503')).toMatchObject([{ level: 'error', res: { statusCode: 503 } }]);
    expect(byMsg('GET /slow 200')).toHaveLength(1);
  });
});
