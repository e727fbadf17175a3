import { describe, expect, it } from 'vitest';
import { MAX_EVENTS, summarizeEvents } from './events.js';

// Raw Event JSON the way the API server returns it (only the fields the summary reads).
const event = (kind: string, name: string, over: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'v1', kind: 'Event', type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container',
  involvedObject: { kind, name, namespace: 'ns' }, metadata: { name: `${name}.17a`, creationTimestamp: '2024-05-01T09:00:00Z' },
  lastTimestamp: '2024-05-01T10:00:00Z', count: 3, ...over,
});

describe('summarizeEvents', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['the Agent (same name)', event('Agent', 'sre'), true],
    ['the HelmRelease (same name)', event('HelmRelease', 'sre'), true],
    ['the Deployment (same name)', event('Deployment', 'sre'), true],
    ['one of the pods', event('Pod', 'odd-pod-name'), true],
    ['a ReplicaSet named <name>-…', event('ReplicaSet', 'sre-7d9c'), true],
    ['a Pod named <name>-… not in the list', event('Pod', 'sre-7d9c-xyz'), true],
    ['a Service named <name>-…', event('Service', 'sre-svc'), false],
    ['another agent\'s pod', event('Pod', 'sre2-7d9c-xyz'), false],
    ['another agent', event('Agent', 'other'), false],
  ])('keeps an event about %s: %s', (_name, ev, kept) => {
    expect(summarizeEvents([ev], 'sre', ['odd-pod-name'])).toHaveLength(kept ? 1 : 0);
  });

  it('keeps Warning events only', () => {
    expect(summarizeEvents([event('Agent', 'sre', { type: 'Normal' })], 'sre', [])).toEqual([]);
  });

  it('renders type, reason, message, Kind/name, count and time', () => {
    expect(summarizeEvents([event('Pod', 'sre-1')], 'sre', [])).toEqual([{
      type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', object: 'Pod/sre-1',
      count: 3, lastTimestamp: '2024-05-01T10:00:00Z',
    }]);
  });

  it.each<[string, Record<string, unknown>, string | undefined]>([
    ['lastTimestamp first', {}, '2024-05-01T10:00:00Z'],
    ['then eventTime, cut to the second', { lastTimestamp: null, eventTime: '2024-05-01T11:00:00.123456Z' }, '2024-05-01T11:00:00Z'],
    ['then creationTimestamp', { lastTimestamp: null, eventTime: null }, '2024-05-01T09:00:00Z'],
    ['a Date from client-node', { lastTimestamp: new Date('2024-05-01T12:00:00Z') }, '2024-05-01T12:00:00Z'],
    ['none at all', { lastTimestamp: undefined, metadata: {} }, undefined],
  ])('takes the time from %s', (_name, over, want) => {
    const [ev] = summarizeEvents([event('Pod', 'sre-1', over)], 'sre', []);
    expect(ev.lastTimestamp).toBe(want);
  });

  it('leaves out a zero or absent count', () => {
    const [a, b] = summarizeEvents([event('Pod', 'sre-1', { count: 0 }), event('Pod', 'sre-2', { count: undefined })], 'sre', []);
    expect('count' in a).toBe(false);
    expect('count' in b).toBe(false);
  });

  it('sorts newest first, events without a time last, and keeps at most ten', () => {
    const raw = Array.from({ length: 12 }, (_, i) =>
      event('Pod', `sre-${i}`, { lastTimestamp: `2024-05-01T10:${String(i).padStart(2, '0')}:00Z` }));
    raw.unshift(event('Pod', 'sre-none', { lastTimestamp: null, metadata: {} }));
    const out = summarizeEvents(raw, 'sre', []);
    expect(MAX_EVENTS).toBe(10);
    expect(out.map((e) => e.object)).toEqual(['Pod/sre-11', 'Pod/sre-10', 'Pod/sre-9', 'Pod/sre-8', 'Pod/sre-7', 'Pod/sre-6', 'Pod/sre-5', 'Pod/sre-4', 'Pod/sre-3', 'Pod/sre-2']);
    const withUntimed = summarizeEvents(raw.slice(0, 3), 'sre', []);
    expect(withUntimed.at(-1)?.object).toBe('Pod/sre-none');
  });

  it('skips entries that are not objects', () => {
    expect(summarizeEvents([null, 'x', 3], 'sre', [])).toEqual([]);
  });
});
