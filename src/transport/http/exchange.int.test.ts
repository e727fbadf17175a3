import { request as httpRequest, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { addVary, header, sendText, whenClosed, type HttpRequest, type HttpResponse, type Step } from './exchange.js';
import { prepareRequest, runSteps } from '../../../test/support/transport/steps.js';
import { serveHandler } from '../../../test/support/transport/serve-handler.js';

const request = (url: string, headers: IncomingMessage['headers'] = {}): HttpRequest =>
  prepareRequest({ url, headers, method: 'GET' } as IncomingMessage);

/** A response that only keeps its headers, which is all these helpers touch. */
function headersOnly(): HttpResponse {
  const headers = new Map<string, unknown>();
  return {
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader(name: string, value: unknown) {
      headers.set(name.toLowerCase(), value);
      return this;
    },
  } as unknown as HttpResponse;
}

describe('prepareRequest', () => {
  it('splits the path from the query and parses the query as express 5 did, repeated keys as arrays', () => {
    const req = request('/api/v1/agents?namespace=tenant&details=false&x=1&x=2&empty=');
    expect(req.path).toBe('/api/v1/agents');
    expect({ ...req.query }).toEqual({ namespace: 'tenant', details: 'false', x: ['1', '2'], empty: '' });
    expect(req.params).toEqual({});
  });

  it('gives a URL without a query (or with a bare ?) an empty query', () => {
    expect(Object.keys(request('/api/v1/info').query)).toEqual([]);
    expect(request('/api/v1/info?').path).toBe('/api/v1/info');
    expect(Object.keys(request('/api/v1/info?').query)).toEqual([]);
  });

  it('takes the path and query of a request in absolute form (RFC 9112 §3.2.2)', () => {
    const req = request('http://agent-manager.example:8080/api/v1/agents?namespace=tenant');
    expect([req.path, req.query.namespace]).toEqual(['/api/v1/agents', 'tenant']);
  });

  it('leaves a prepared request as it is', () => {
    const req = request('/a?b=1');
    req.params = { kept: 'yes' };
    expect(prepareRequest(req).params).toEqual({ kept: 'yes' });
  });
});

describe('runSteps', () => {
  const res = headersOnly();

  it('runs synchronous steps in order without a promise and stops at the one that answers', () => {
    const seen: string[] = [];
    const steps: Step[] = [() => void seen.push('a'), () => (seen.push('b'), true), () => void seen.push('c')];
    expect(runSteps(steps, request('/'), res)).toBe(true);
    expect(seen).toEqual(['a', 'b']);
    expect(runSteps(steps.slice(2), request('/'), res)).toBe(false);
  });

  it('waits for an asynchronous step and goes on after it unless it answered', async () => {
    const seen: string[] = [];
    const later = (answered: boolean): Step => async () => {
      await Promise.resolve();
      seen.push(`async ${answered}`);
      return answered;
    };
    await expect(runSteps([later(false), () => void seen.push('sync'), later(true), () => void seen.push('never')],
      request('/'), res)).resolves.toBe(true);
    expect(seen).toEqual(['async false', 'sync', 'async true']);
  });

  it('hands a thrown error and a rejection to the caller', async () => {
    expect(() => runSteps([() => {
      throw new Error('sync');
    }], request('/'), res)).toThrow('sync');
    await expect(runSteps([() => Promise.reject(new Error('async'))], request('/'), res)).rejects.toThrow('async');
  });
});

describe('header', () => {
  it('reads a header case-insensitively and joins a repeated one', () => {
    const req = request('/', { 'if-match': '"a"', 'x-list': ['1', '2'] as never });
    expect(header(req, 'If-Match')).toBe('"a"');
    expect(header(req, 'x-list')).toBe('1, 2');
    expect(header(req, 'missing')).toBeUndefined();
  });
});

describe('addVary', () => {
  it('adds a field once, keeps what is there and leaves *', () => {
    const res = headersOnly();
    addVary(res, 'Authorization');
    addVary(res, 'authorization');
    expect(res.getHeader('Vary')).toBe('Authorization');
    addVary(res, 'Origin');
    expect(res.getHeader('Vary')).toBe('Authorization, Origin');
    const any = headersOnly();
    any.setHeader('Vary', '*');
    addVary(any, 'Authorization');
    expect(any.getHeader('Vary')).toBe('*');
  });
});

describe('whenClosed', () => {
  it('runs every ending in order on one close listener, after an answer was written', async () => {
    const seen: string[] = [];
    let listeners = -1;
    const served = await serveHandler((_req, res) => {
      whenClosed(res, (ended) => seen.push(`first ${ended.writableFinished}`));
      whenClosed(res, (ended) => seen.push(`second ${ended.writableFinished}`));
      listeners = res.listenerCount('close');
      return new Promise<void>((resolve) => {
        res.once('close', () => resolve());
        sendText(res, 200, 'ok');
      });
    });
    try {
      const answer = await fetch(`${served.url}/x`);
      expect(await answer.text()).toBe('ok');
      await expect.poll(() => seen).toEqual(['first true', 'second true']);
      expect(listeners).toBe(1);
    } finally {
      await served.close();
    }
  });

  it('runs them with writableFinished false when the client left before the answer', async () => {
    const seen: boolean[] = [];
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const served = await serveHandler((_req, res) => new Promise<void>((resolve) => {
      whenClosed(res, (ended) => {
        seen.push(ended.writableFinished);
        resolve();
      });
      arrived();
    }));
    try {
      const req = httpRequest(`${served.url}/slow`);
      req.on('error', () => undefined);
      req.end();
      await reached;
      req.destroy();
      await expect.poll(() => seen).toEqual([false]);
    } finally {
      await served.close();
    }
  });
});
