import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { GatewayTimeout, RetryLater, toMcpErrorText } from '../core/errors.js';
import { fromKube } from './kube-errors.js';

const status = (code: number, message: string, headers: Record<string, string> = {}, extra: object = {}) =>
  new ApiException(code, 'HTTP error', JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, code, ...extra }), headers);

describe('fromKube', () => {
  it.each([
    [404, 'not_found', 'not found: get helmrelease kagent/sre'],
    [403, 'forbidden', 'forbidden: create helmrelease kagent/sre: denied'],
    [409, 'conflict', 'conflict: create helmrelease kagent/sre: denied'],
    [422, 'invalid_request', 'invalid request: create helmrelease kagent/sre: denied'],
    [400, 'invalid_request', 'invalid request: create helmrelease kagent/sre: denied'],
    [401, 'unauthenticated', "unauthenticated: create helmrelease kagent/sre: the API server refused the caller's token (401): denied"],
    [500, 'backend_error', 'create helmrelease kagent/sre: denied'],
  ])('maps HTTP %i to %s', (code, errorCode, message) => {
    const what = code === 404 ? 'get helmrelease kagent/sre' : 'create helmrelease kagent/sre';
    const err = fromKube(status(code, 'denied'), what);
    expect(err.code).toBe(errorCode);
    expect(err.message).toBe(message);
  });

  it('keeps the API error as the cause', () => {
    const original = status(409, 'the object has been modified');
    expect(fromKube(original, 'update helmrelease kagent/sre').cause).toBe(original);
  });

  it('turns a transport failure into a backend error naming the call', () => {
    const err = fromKube(new Error('connect ECONNREFUSED 127.0.0.1:6443'), 'list agents in kagent');
    expect(err.code).toBe('backend_error');
    expect(err.message).toBe('list agents in kagent: connect ECONNREFUSED 127.0.0.1:6443');
  });
});

describe('fromKube and a namespace that is not there', () => {
  it('names the namespace of a list the API server answers 404, and what to do', () => {
    const err = fromKube(status(404, 'the server could not find the requested resource'), 'list helmreleases in kagent');
    expect(err.code).toBe('not_found');
    expect(err.message).toBe(
      'not found: list helmreleases in kagent: the API server answered 404: check that namespace kagent exists (create it, or point ' +
      '--kagent-namespace or --managed-namespaces at the namespace kagent runs in) and that the resource\'s API (its CRD) is installed',
    );
  });

  it('names the missing namespace of a write, and what to do', () => {
    const err = fromKube(status(404, 'namespaces "ghost" not found'), 'create ocirepository ghost/agent');
    expect(err.message).toBe(
      'not found: create ocirepository ghost/agent: namespace ghost does not exist; create it, or point --kagent-namespace or ' +
      '--managed-namespaces at the namespace kagent runs in',
    );
  });

  it('keeps the short 404 of a get (an absent object is an answer, not a fault)', () => {
    expect(fromKube(status(404, 'helmreleases "sre" not found'), 'get helmrelease kagent/sre').message).toBe('not found: get helmrelease kagent/sre');
  });
});

describe('fromKube and a request deadline', () => {
  it('names the call and the deadline when node-fetch reports the abort', () => {
    const abort = Object.assign(new Error('The user aborted a request.'), { name: 'AbortError', type: 'aborted' });
    const err = fromKube(abort, 'list helmreleases in kagent', 30_000);
    expect(err.code).toBe('backend_error');
    expect(err.status).toBe(504);
    expect(err.message).toBe(
      'list helmreleases in kagent: the Kubernetes API server did not answer within 30s; check that it is reachable and healthy, then retry',
    );
    expect(err.cause).toBe(abort);
  });
});

describe('fromKube and an API server that says "not now"', () => {
  it('passes a 429 on as a 429 with its Retry-After, and says when to retry in the message MCP shows', () => {
    const err = fromKube(status(429, 'Too many requests, please try again later.', { 'retry-after': '7' }, { reason: 'TooManyRequests' }),
      'create helmrelease kagent/sre');
    expect(err).toBeInstanceOf(RetryLater);
    expect({ code: err.code, status: err.status, retryAfter: (err as RetryLater).retryAfterSeconds }).toEqual({
      code: 'backend_error', status: 429, retryAfter: 7,
    });
    expect(toMcpErrorText(err)).toBe('backend_error: create helmrelease kagent/sre: the Kubernetes API server is throttling ' +
      'requests (429 TooManyRequests: Too many requests, please try again later.); retry after 7s');
  });

  it('passes a 503 on as a 503, taking the wait from the Status details when there is no header', () => {
    const err = fromKube(status(503, 'the server is shutting down', {}, { details: { retryAfterSeconds: 3 } }), 'list agents in kagent');
    expect({ status: err.status, retryAfter: (err as RetryLater).retryAfterSeconds })
      .toEqual({ status: 503, retryAfter: 3 });
    expect(err.message).toBe('list agents in kagent: the Kubernetes API server is unavailable (503 ServiceUnavailable: the server ' +
      'is shutting down); retry after 3s');
  });

  it.each([
    ['a 504', 504, {}],
    ['the reason Timeout on another status', 500, { reason: 'Timeout' }],
  ])('answers %s from the API server as a 504 naming the Kubernetes reason, not a 502', (_case, code, extra) => {
    const err = fromKube(status(code, 'request did not complete within requested timeout', {}, extra), 'get helmrelease kagent/sre');
    expect(err).toBeInstanceOf(GatewayTimeout);
    expect({ code: err.code, status: err.status }).toEqual({ code: 'backend_error', status: 504 });
    expect(err.message).toBe(`get helmrelease kagent/sre: the Kubernetes API server timed out (${code} Timeout): request did not ` +
      'complete within requested timeout; retry, and check the API server\'s load if it keeps happening');
  });
});
