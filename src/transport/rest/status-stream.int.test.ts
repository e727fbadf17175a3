/**
 * The status route's stream on the router with a fake service (the wire only; the
 * service's following is tested against the sandbox): the SSE headers, one `status` event
 * per status, the `end` event with the reason, JSON errors before the first status, and
 * the plain JSON read without `watch=true`.
 */
import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../core/errors.js';
import type { RequestContext } from '../../identity/caller.js';
import type { OperationService } from '../operations.js';
import { FakeService, SAMPLE_STATUS } from '../../../test/support/transport/fake-service.js';
import { serveRouter, serveRouterPerFile } from '../../../test/support/transport/serve-router.js';
import { parseEvents } from '../../../test/support/transport/sse.js';

const service = new FakeService();
const api = serveRouterPerFile(service);

describe('GET /agents/{ns}/{name}/status?watch=true', () => {
  it('answers text/event-stream: a status event per status, then end with the reason', async () => {
    const res = await fetch(`${api.base}/agents/kagent/sre/status?watch=true&timeoutSeconds=30`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache, private, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const text = await res.text();
    const events = parseEvents(text);
    expect(events.map((e) => e.event)).toEqual(['status', 'status', 'end']);
    expect(events[0]!.data).toMatchObject({ name: 'sre', verdict: 'progressing' });
    expect(events[1]!.data).toMatchObject({ verdict: 'ready' });
    expect(events[2]!.data).toEqual({ reason: 'ready' });
    expect(text).toMatch(/\nid: end\nevent: end\ndata: \{"reason":"ready"\}\n\n$/);
    expect(service.inputs('followAgentStatus')).toEqual([{ namespace: 'kagent', name: 'sre', timeoutSeconds: 30 }]);
  });

  it('takes the documented generation and follows the status until that generation is observed', async () => {
    const res = await fetch(`${api.base}/agents/kagent/sre/status?watch=true&generation=8`);
    expect(res.status).toBe(200);
    expect(parseEvents(await res.text()).map((e) => e.event)).toEqual(['status', 'status', 'end']);
    expect(service.inputs('followAgentStatus')).toEqual([{ namespace: 'kagent', name: 'sre', generation: 8 }]);
  });

  it('answers an EventSource reconnecting after the end (Last-Event-ID: end) 204, which stops it, without following', async () => {
    const res = await fetch(`${api.base}/agents/kagent/sre/status?watch=true`, { headers: { 'last-event-id': 'end' } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(service.calls).toEqual([]);
  });

  it('takes watch=TRUE in any case, and without watch=true answers the plain JSON status', async () => {
    expect((await fetch(`${api.base}/agents/kagent/sre/status?watch=TRUE`)).headers.get('content-type')).toBe('text/event-stream');
    const plain = await fetch(`${api.base}/agents/kagent/sre/status?watch=false&timeoutSeconds=5`);
    expect(plain.headers.get('content-type')).toBe('application/json');
    expect(await plain.json()).toMatchObject({ name: 'sre', verdict: 'progressing' });
  });

  it('refuses a timeoutSeconds that is no whole number with a JSON 400 naming it', async () => {
    const res = await fetch(`${api.base}/agents/kagent/sre/status?watch=true&timeoutSeconds=soon`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      error: { code: 'invalid_request', message: 'invalid request: timeoutSeconds must be a whole number in the query, got "soon"' },
    });
  });

  it('answers a refusal before the first status as the usual JSON error', async () => {
    service.failWith(new AppError(ErrorCode.NotFound, 'agent kagent/sre not found'), 'followAgentStatus');
    const res = await fetch(`${api.base}/agents/kagent/sre/status?watch=true`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it.each([['watch', 'watch=true&watch=false'], ['timeoutSeconds', 'watch=true&timeoutSeconds=5&timeoutSeconds=9']])(
    'refuses %s given twice with different values, as every flag, before any stream', async (name, query) => {
      const res = await fetch(`${api.base}/agents/kagent/sre/status?${query}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: { code: 'invalid_request', message: `invalid request: the query parameter ${name} is given more than once with different values; send it once` },
      });
      expect(service.calls).toEqual([]);
    },
  );
});

/** A service whose stream sends one status and then follows until its request's signal aborts. */
class EndlessStream extends FakeService {
  ended: string[] = [];

  override async followAgentStatus(
    ctx: RequestContext, _request: Parameters<OperationService['followAgentStatus']>[1], onStatus: (s: typeof SAMPLE_STATUS) => void,
  ): ReturnType<OperationService['followAgentStatus']> {
    onStatus(SAMPLE_STATUS);
    await new Promise<void>((resolve) => ctx.signal!.addEventListener('abort', () => resolve(), { once: true }));
    this.ended.push('aborted');
    return 'disconnected';
  }
}

describe('HEAD /agents/{ns}/{name}/status?watch=true', () => {
  it('answers the stream headers and stops following at once instead of holding watches open with no body to send', async () => {
    const endless = new EndlessStream();
    const served = await serveRouter(endless);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (
      method: string, path: string,
    ) => new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const req = request(`${served.base}${path}`, { method, agent }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end();
    });
    try {
      const head = await send('HEAD', '/agents/kagent/sre/status?watch=true&timeoutSeconds=600');
      expect(head).toEqual({ status: 200, type: 'text/event-stream', body: '' });
      const next = await send('GET', '/info');
      expect(next.status).toBe(200);
      expect(endless.ended).toEqual(['aborted']);
    } finally {
      agent.destroy();
      await served.close();
    }
  });
});
