import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../identity/caller.js';
import { createLogger } from '../../log/logger.js';
import { bindCaller, requestContext, requestIdOf } from './context.js';
import { sendText, type HttpRequest, type HttpResponse, type Step } from './exchange.js';
import { runSteps } from '../../../test/support/transport/steps.js';
import { serveHandler, type ServedHandler } from '../../../test/support/transport/serve-handler.js';

describe('requestIdOf', () => {
  it.each([
    ['a plain id', 'abc-123', 'abc-123'],
    ['a UUID', '3f1d7c3e-5a6b-4c2d-9e8f-0a1b2c3d4e5f', '3f1d7c3e-5a6b-4c2d-9e8f-0a1b2c3d4e5f'],
    ['a trace-style id', 'Root=1-5759e988-bd862e3fe1be46a994272793', 'Root=1-5759e988-bd862e3fe1be46a994272793'],
    ['the first of repeated headers', ['first', 'second'], 'first'],
  ])('keeps %s', (_case, incoming, id) => {
    expect(requestIdOf(incoming)).toBe(id);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['spaces', 'a b'],
    ['a newline', 'a\nb'],
    ['quotes', '"x"'],
    ['more than 128 characters', 'a'.repeat(129)],
  ])('replaces %s with a random UUID', (_case, incoming) => {
    expect(requestIdOf(incoming)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('requestContext and bindCaller', () => {
  let served: ServedHandler | undefined;

  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  /** Serves `steps`, then `route` for GET `path`; 404 for anything else. */
  async function start(
    steps: Step[], path: string, route: (req: HttpRequest, res: HttpResponse) => void,
  ): Promise<string> {
    served = await serveHandler(async (req, res) => {
      if (await runSteps(steps, req, res)) return;
      if (req.method === 'GET' && req.path === path) route(req, res);
      else sendText(res, 404, 'not found');
    });
    return served.url;
  }

  function capture(): { lines: Array<Record<string, unknown>>; log: ReturnType<typeof createLogger> } {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    return { lines, log: createLogger({ destination, level: 'debug' }) };
  }

  it('echoes a sane incoming X-Request-Id and binds it to the context logger', async () => {
    const { lines, log } = capture();
    let seen: RequestContext | undefined;
    const base = await start([requestContext(log)], '/x', (req, res) => {
      seen = req.ctx;
      req.ctx.log.info('inside');
      sendText(res, 200, 'ok');
    });
    const res = await fetch(`${base}/x`, { headers: { 'X-Request-Id': 'proxy-42' } });
    expect(res.headers.get('x-request-id')).toBe('proxy-42');
    expect(seen?.requestId).toBe('proxy-42');
    expect(seen?.caller).toBeUndefined();
    expect(lines.find((l) => l.msg === 'inside')).toMatchObject({ requestId: 'proxy-42' });
  });

  it('gives every request without an id a fresh one', async () => {
    const base = await start([requestContext(capture().log)], '/x', (_req, res) => sendText(res, 200, 'ok'));
    const [a, b] = await Promise.all([fetch(`${base}/x`), fetch(`${base}/x`)]);
    expect(a.headers.get('x-request-id')).toBeTruthy();
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('copies the guard\'s caller and token into the context and names the caller in its log lines', async () => {
    const { lines, log } = capture();
    let seen: RequestContext | undefined;
    const guard: Step = (req) => {
      req.caller = { subject: 'sub-admin', email: 'admin@lab.local', groups: ['platform-admins'], source: 'sso' };
      req.callerToken = 'header.payload.signature';
    };
    const base = await start([requestContext(log), guard, bindCaller()], '/x', (req, res) => {
      seen = req.ctx;
      req.ctx.log.info('inside');
      sendText(res, 200, 'ok');
    });
    await fetch(`${base}/x`);
    expect(seen?.caller?.email).toBe('admin@lab.local');
    expect(seen?.token).toBe('header.payload.signature');
    const line = lines.find((l) => l.msg === 'inside')!;
    expect(line.caller).toBe('admin@lab.local');
    expect(JSON.stringify(lines)).not.toContain('header.payload.signature');
  });

  it('aborts the context signal when the client goes away mid-request', async () => {
    let aborted: Promise<void> | undefined;
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => { arrived = resolve; });
    const base = await start([requestContext(capture().log)], '/slow', (req) => {
      aborted = new Promise((resolve) => req.ctx.signal!.addEventListener('abort', () => resolve()));
      arrived();
    });
    const controller = new AbortController();
    const pending = fetch(`${base}/slow`, { signal: controller.signal }).catch(() => undefined);
    await arrival;
    controller.abort();
    await pending;
    await aborted;
  });

  it('hands a signal asked for only after the client went away already aborted', async () => {
    let asked: Promise<boolean> | undefined;
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => { arrived = resolve; });
    const base = await start([requestContext(capture().log)], '/late', (req, res) => {
      asked = new Promise((resolve) => res.once('close', () => setImmediate(() => resolve(req.ctx.signal!.aborted))));
      arrived();
    });
    const controller = new AbortController();
    const pending = fetch(`${base}/late`, { signal: controller.signal }).catch(() => undefined);
    await arrival;
    controller.abort();
    await pending;
    expect(await asked).toBe(true);
  });

  it('keeps the logger and the signal when the context is spread into a new one', async () => {
    const { lines, log } = capture();
    let copied: RequestContext | undefined;
    const base = await start([requestContext(log)], '/x', (req, res) => {
      const copy = { ...req.ctx };
      copied = copy;
      copy.log.info('from the copy');
      sendText(res, 200, 'ok');
    });
    await fetch(`${base}/x`);
    expect(copied?.signal).toBeInstanceOf(AbortSignal);
    expect(lines.find((l) => l.msg === 'from the copy')?.requestId).toBe(copied?.requestId);
  });

  it('gives every context the same two accessors, own and enumerable (no closures per request)', async () => {
    const seen: RequestContext[] = [];
    const base = await start([requestContext(capture().log)], '/x', (req, res) => {
      seen.push(req.ctx);
      sendText(res, 200, 'ok');
    });
    await fetch(`${base}/x`);
    await fetch(`${base}/x`);
    const [a, b] = seen.map((ctx) => ({
      log: Object.getOwnPropertyDescriptor(ctx, 'log'), signal: Object.getOwnPropertyDescriptor(ctx, 'signal'),
    }));
    expect(a?.log).toMatchObject({ enumerable: true, get: expect.any(Function) });
    expect(a?.log?.get).toBe(b?.log?.get);
    expect(a?.signal?.get).toBe(b?.signal?.get);
    expect(seen[0]!.requestId).not.toBe(seen[1]!.requestId);
  });
});
