import { describe, expect, it } from 'vitest';
import { summarizePods } from './pods.js';

// Raw Pod JSON the way the API server returns it (only the fields the summary reads).
const pod = (name: string, status: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { kagent: 'sre' } }, status,
});
const ready = [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: 'True' }];
const notReady = [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }];

describe('summarizePods', () => {
  it('reports a healthy pod with no containers listed', () => {
    expect(summarizePods([pod('sre-1', {
      phase: 'Running', conditions: ready,
      containerStatuses: [{ name: 'agent', ready: true, restartCount: 0, state: { running: { startedAt: '2024-05-01T10:00:00Z' } } }],
    })])).toEqual([{ name: 'sre-1', phase: 'Running', ready: true, restarts: 0 }]);
  });

  it.each<[string, Record<string, unknown>, unknown]>([
    ['a waiting container with reason and message',
      { name: 'agent', ready: false, restartCount: 5, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m' } } },
      { name: 'agent', state: 'waiting', reason: 'CrashLoopBackOff', message: 'back-off 5m' }],
    ['a waiting container without a message',
      { name: 'agent', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } },
      { name: 'agent', state: 'waiting', reason: 'ContainerCreating' }],
    ['a terminated regular container, whatever its exit code',
      { name: 'agent', ready: false, restartCount: 1, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
      { name: 'agent', state: 'terminated', reason: 'Completed' }],
    ['a running container that is not ready',
      { name: 'agent', ready: false, restartCount: 0, state: { running: { startedAt: '2024-05-01T10:00:00Z' } } },
      { name: 'agent', state: 'running', reason: 'NotReady' }],
  ])('lists %s', (_name, cs, want) => {
    const [summary] = summarizePods([pod('p', { phase: 'Running', conditions: notReady, containerStatuses: [cs] })]);
    expect(summary.containers).toEqual([want]);
    expect(summary.ready).toBe(false);
  });

  it.each<[string, Record<string, unknown>, unknown]>([
    ['a waiting init container',
      { name: 'skills', restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } },
      [{ name: 'skills', state: 'waiting', reason: 'PodInitializing', init: true }]],
    ['an init container that failed',
      { name: 'skills', restartCount: 2, state: { terminated: { exitCode: 128, reason: 'Error', message: 'clone failed\nfatal' } } },
      [{ name: 'skills', state: 'terminated', reason: 'Error', message: 'clone failed\nfatal', init: true }]],
    ['not an init container that completed',
      { name: 'skills', restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
      undefined],
    ['not a running init container (sidecar), ready or not',
      { name: 'proxy', ready: false, restartCount: 0, state: { running: {} } },
      undefined],
  ])('lists %s', (_name, cs, want) => {
    const [summary] = summarizePods([pod('p', { phase: 'Pending', initContainerStatuses: [cs] })]);
    expect(summary.containers).toEqual(want);
  });

  it('sums restarts over containers and init containers, init containers listed first', () => {
    const [summary] = summarizePods([pod('p', {
      phase: 'Running', conditions: notReady,
      initContainerStatuses: [{ name: 'init', restartCount: 2, state: { terminated: { exitCode: 1, reason: 'Error' } } }],
      containerStatuses: [
        { name: 'agent', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } },
        { name: 'side', ready: true, restartCount: 1, state: { running: {} } },
      ],
    })]);
    expect(summary).toEqual({
      name: 'p', phase: 'Running', ready: false, restarts: 6,
      containers: [
        { name: 'init', state: 'terminated', reason: 'Error', init: true },
        { name: 'agent', state: 'waiting', reason: 'CrashLoopBackOff' },
      ],
    });
  });

  it('sorts pods by name', () => {
    const names = summarizePods([pod('sre-c', {}), pod('sre-a', {}), pod('sre-b', {})]).map((p) => p.name);
    expect(names).toEqual(['sre-a', 'sre-b', 'sre-c']);
  });

  it('reads a pod without status as not ready, no phase, no restarts', () => {
    expect(summarizePods([{ metadata: { name: 'p' } }, 'junk', null])).toEqual([{ name: 'p', phase: '', ready: false, restarts: 0 }]);
  });

  it('reads ready only from a True Ready condition', () => {
    const [summary] = summarizePods([pod('p', { phase: 'Running', conditions: [{ type: 'ContainersReady', status: 'True' }, { type: 'Ready', status: 'Unknown' }] })]);
    expect(summary.ready).toBe(false);
  });
});
