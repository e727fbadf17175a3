import { describe, expect, it } from 'vitest';
import { currentWarnings, lastSuccessAt, MAX_EVENTS, summarizeEvents } from './events.js';
import type { Status } from '../types.js';

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

describe('lastSuccessAt and currentWarnings', () => {
  type Release = NonNullable<Status['helmRelease']>;
  const release = (over: Partial<Release> = {}): Release => ({
    exists: true, ready: true, suspended: false, gitOpsOwned: false, deleting: false, generation: 8,
    conditions: [{ type: 'Ready', status: 'True', reason: 'UpgradeSucceeded', observedGeneration: 8, lastTransitionTime: '2024-05-01T10:05:00Z' }],
    ...over,
  });
  const warning = (lastTimestamp?: string) => ({
    type: 'Warning', reason: 'UpgradeFailed', message: 'm', object: 'HelmRelease/sre', ...(lastTimestamp ? { lastTimestamp } : {}),
  });

  it.each<[string, Release | undefined, string | undefined]>([
    ['Ready turned True for the current generation', release(), '2024-05-01T10:05:00Z'],
    ['Ready True without a generation on the condition', release({ conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-05-01T10:05:00Z' }] }),
      '2024-05-01T10:05:00Z'],
    ['a newer deploy of the newest Helm release, to the second', release({ history: [{ version: 3, status: 'deployed', lastDeployed: '2024-05-01T10:09:30.9Z' }] }),
      '2024-05-01T10:09:30Z'],
    ['the later of the two', release({ history: [{ version: 3, status: 'deployed', lastDeployed: '2024-05-01T09:00:00Z' }] }), '2024-05-01T10:05:00Z'],
    ['not a Ready of an older generation', release({ conditions: [{ type: 'Ready', status: 'True', observedGeneration: 7, lastTransitionTime: '2024-05-01T10:05:00Z' }] }),
      undefined],
    ['not a False Ready', release({ ready: false, conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2024-05-01T10:05:00Z' }] }), undefined],
    ['not a failed newest Helm release', release({ conditions: [], history: [{ version: 3, status: 'failed', lastDeployed: '2024-05-01T10:09:30Z' }] }),
      undefined],
    ['nothing without a release', undefined, undefined],
  ])('is when %s', (_name, given, at) => {
    expect(lastSuccessAt(given)).toBe(at);
  });

  it('keeps the warnings of that second and after, and those without a time', () => {
    const events = [warning('2024-05-01T10:06:00Z'), warning('2024-05-01T10:05:00Z'), warning('2024-05-01T10:04:59Z'), warning()];
    expect(currentWarnings(events, release())).toEqual([events[0], events[1], events[3]]);
  });

  it('keeps every warning when the release has no success to show', () => {
    const events = [warning('2024-05-01T10:04:59Z')];
    expect(currentWarnings(events, release({ conditions: [] }))).toEqual(events);
    expect(currentWarnings(undefined, release())).toEqual([]);
  });
});
