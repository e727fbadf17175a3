import type { Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../log/logger.js';
import { captureLogLines } from '../../../test/support/log-lines.js';
import { requestContext } from './context.js';
import { sendCompactJson, sendText, type HttpRequest, type HttpResponse } from './exchange.js';
import { runSteps } from '../../../test/support/transport/steps.js';
import { requestLogger } from './request-log.js';
import { serveHandler, type ServedHandler } from '../../../test/support/transport/serve-handler.js';

let served: ServedHandler | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

type Route = (req: HttpRequest, res: HttpResponse) => void;

/** Serves the context and the access log in front of `routes` (GET only, by path); 404 otherwise. */
async function serve(log: Logger, routes: Record<string, Route>): Promise<string> {
  const steps = [requestContext(log), requestLogger(log)];
  served = await serveHandler((req, res) => {
    runSteps(steps, req, res);
    const route = req.method === 'GET' ? routes[req.path] : undefined;
    if (route) route(req, res);
    else sendText(res, 404, 'not found');
  });
  return served.url;
}

describe('requestLogger', () => {
  it('writes one line per request with the request id and the caller, and never a header', async () => {
    const out = captureLogLines();
    const log = createLogger({ destination: out.stream });
    const url = await serve(log, {
      '/x': (req, res) => {
        // What the OAuth guard does once it verified a token.
        req.ctx.caller = { subject: 'sub-1', email: 'alice@lab.local', groups: [], source: 'sso' };
        sendCompactJson(res, 200, { ok: true });
      },
    });
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

  it('logs a 5xx at error but a 501 at info, the probes at debug (a draining /readyz 503 too), and each request once even when the client leaves first', async () => {
    const out = captureLogLines();
    const log = createLogger({ destination: out.stream, level: 'debug' });
    let arrived: () => void = () => undefined;
    const arriving = new Promise<void>((resolve) => { arrived = resolve; });
    const url = await serve(log, {
      '/healthz': (_req, res) => sendText(res, 200, 'ok'),
      // Draining: readiness answers 503 on purpose, which is no server failure.
      '/readyz': (_req, res) => sendText(res, 503, 'shutting down'),
      '/boom': (_req, res) => sendCompactJson(res, 503, { error: 'down' }),
      // A capability this installation does not offer: the caller's question, not an outage.
      '/unoffered': (_req, res) => sendCompactJson(res, 501, { error: 'not offered' }),
      '/slow': () => arrived(),
    });
    await fetch(`${url}/healthz`);
    await fetch(`${url}/readyz`);
    await fetch(`${url}/boom`);
    await fetch(`${url}/unoffered`);
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
    expect(byMsg('GET /unoffered 501')).toMatchObject([{ level: 'info', res: { statusCode: 501 } }]);
    expect(byMsg('GET /slow 200')).toHaveLength(1);
  });
});
