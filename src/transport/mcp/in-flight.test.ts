import type { CancelledNotification } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Caller, RequestContext } from '../../identity/caller.js';
import { silentLogger } from '../../log/logger.js';
import { asCancellation, InFlightCalls, RECENT_MS, requestIds, singleToolCallId } from './in-flight.js';

const ctx = (subject?: string): RequestContext => ({
  requestId: 'r', log: silentLogger(),
  ...(subject ? { caller: { subject, groups: [], source: 'sso' } satisfies Caller } : {}),
});
const cancelling = (requestId: string | number): CancelledNotification => ({ method: 'notifications/cancelled', params: { requestId } });

describe('InFlightCalls', () => {
  it('cancels the call a cancellation names, once, and forgets it when it is done', () => {
    const calls = new InFlightCalls();
    const cancelled: unknown[] = [];
    const done = calls.track(ctx(), 3, (n) => cancelled.push(n.params.requestId));
    expect(calls.cancel(ctx(), cancelling(3))).toBe(true);
    expect(cancelled).toEqual([3]);
    done();
    expect(calls.size).toBe(0);
    expect(calls.cancel(ctx(), cancelling(3))).toBe(false);
  });

  it('tells a string id from a number id', () => {
    const calls = new InFlightCalls();
    calls.track(ctx(), '9', () => { throw new Error('the string id was cancelled'); });
    expect(calls.cancel(ctx(), cancelling(9))).toBe(false);
  });

  it('never cancels another caller\'s call of the same id', () => {
    const calls = new InFlightCalls();
    calls.track(ctx('alice'), 1, () => { throw new Error('alice\'s call was cancelled'); });
    expect(calls.cancel(ctx('bob'), cancelling(1))).toBe(false);
    expect(calls.cancel(ctx(), cancelling(1))).toBe(false);
  });

  it('ignores a cancellation that two calls in flight could both be meant by', () => {
    const calls = new InFlightCalls();
    const first = calls.track(ctx(), 0, () => { throw new Error('a guess was cancelled'); });
    calls.track(ctx(), 0, () => { throw new Error('a guess was cancelled'); });
    expect(calls.cancel(ctx(), cancelling(0))).toBe(false);
    first();
    expect(calls.size).toBe(1);
  });
});

describe('reading a POST body', () => {
  it('reads a notifications/cancelled naming a request, and nothing else, as a cancellation', () => {
    const n = { jsonrpc: '2.0' as const, method: 'notifications/cancelled', params: { requestId: 4, reason: 'stop' } };
    expect(asCancellation(n)).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 4, reason: 'stop' } });
    expect(asCancellation({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} })).toBeUndefined();
    expect(asCancellation({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: null } })).toBeUndefined();
    expect(asCancellation({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(asCancellation({ jsonrpc: '2.0', id: 1, method: 'notifications/cancelled', params: { requestId: 4 } })).toBeUndefined();
  });

  it('takes the id of a single tools/call only, never of a batch', () => {
    expect(singleToolCallId({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: {} })).toBe('a');
    expect(singleToolCallId([{ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: {} }])).toBeUndefined();
    expect(singleToolCallId({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBeUndefined();
    expect(singleToolCallId({ jsonrpc: '2.0', method: 'tools/call' })).toBeUndefined();
  });
});

describe('a cancellation whose id another request of the sender had lately', () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, pass: (ms: number) => { now += ms; } };
  };

  it('is ignored while a finished call of that id could be the one it means (two clients, one sender)', () => {
    const time = clock();
    const calls = new InFlightCalls(time.now);
    const doneB = calls.track(ctx(), 1, () => { throw new Error('B was done already'); });
    calls.track(ctx(), 1, () => { throw new Error('A was cancelled by B\'s late cancellation'); });
    doneB();
    time.pass(50);
    expect(calls.cancel(ctx(), cancelling(1))).toBe(false);
  });

  it('is ignored when another client\'s request of that id (any method) came before the call', () => {
    const time = clock();
    const calls = new InFlightCalls(time.now);
    calls.saw(ctx(), 1);
    time.pass(10);
    calls.track(ctx(), 1, () => { throw new Error('a call was cancelled for another client\'s tools/list'); });
    expect(calls.cancel(ctx(), cancelling(1))).toBe(false);
  });

  it('is followed once nothing else had the id for RECENT_MS', () => {
    const time = clock();
    const calls = new InFlightCalls(time.now);
    calls.saw(ctx(), 1);
    time.pass(RECENT_MS + 1);
    const cancelled: unknown[] = [];
    calls.track(ctx(), 1, (n) => cancelled.push(n.params.requestId));
    expect(calls.cancel(ctx(), cancelling(1))).toBe(true);
    expect(cancelled).toEqual([1]);
  });

  it('is followed when the same id was only another sender\'s', () => {
    const time = clock();
    const calls = new InFlightCalls(time.now);
    calls.saw(ctx('bob'), 1);
    const cancelled: unknown[] = [];
    calls.track(ctx('alice'), 1, (n) => cancelled.push(n.params.requestId));
    expect(calls.cancel(ctx('alice'), cancelling(1))).toBe(true);
    expect(cancelled).toEqual([1]);
  });

  it('reads ids of requests only, in a single message or a batch', () => {
    expect(requestIds({ jsonrpc: '2.0', id: 3, method: 'ping' })).toEqual([3]);
    expect(requestIds([{ jsonrpc: '2.0', id: 'a', method: 'tools/list' }, { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 4, result: {} }, { jsonrpc: '2.0', id: null, method: 'ping' }])).toEqual(['a']);
  });
});
