import { describe, expect, it } from 'vitest';
import { classifyRelease, handledRequests, type ReleaseState } from './helm-release-state.js';

const source = { version: '0.6.1', digestHex: 'abcdef0123456789' };
const chartVersion = '0.6.1+abcdef012345';
const deployed = { version: 1, status: 'deployed', chartVersion, configDigest: 'sha256:v1', action: 'install' };
const state = (over: Partial<ReleaseState> = {}): ReleaseState => ({
  status: {}, generation: 2, deleting: false, hasFinalizer: true, suspended: false,
  source, target: { ok: true }, configDigest: 'sha256:v1', ...over,
});
const failed = (reason: string) => ({
  lastAttemptedConfigDigest: 'sha256:v2', lastAttemptedRevision: chartVersion,
  conditions: [{ type: 'Ready', status: 'False', reason, message: 'refused' }],
});

describe('classifyRelease', () => {
  it('a deleted release is uninstalled before anything else is looked at', () => {
    expect(classifyRelease(state({ deleting: true, hasFinalizer: false, suspended: true })))
      .toEqual({ kind: 'uninstall' });
  });

  it('the finalizer comes first, also on a suspended release', () => {
    expect(classifyRelease(state({ hasFinalizer: false, suspended: true }))).toEqual({ kind: 'add-finalizer' });
  });

  it('a suspended release is its own verdict, whatever its source', () => {
    expect(classifyRelease(state({ suspended: true, source: { reason: 'ArtifactFailed', message: 'gone' } })))
      .toEqual({ kind: 'suspended' });
  });

  it('a source that is not ready makes the release wait with its reason', () => {
    expect(classifyRelease(state({ source: { reason: 'SourceNotReady', message: 'not ready' } })))
      .toEqual({ kind: 'wait-for-source', reason: 'SourceNotReady', message: 'not ready' });
  });

  it('a cluster that cannot be reached is reported in the phase that failed', () => {
    expect(classifyRelease(state({ target: { ok: false, phase: 'request', message: 'refused' } })))
      .toEqual({ kind: 'unreachable', phase: 'request', message: 'refused' });
  });

  it('a release first records its install attempt, then installs once the attempt is on record', () => {
    expect(classifyRelease(state())).toEqual({ kind: 'prepare', action: 'install', chartVersion, source });
    const recorded = {
      lastAttemptedConfigDigest: 'sha256:v1', lastAttemptedRevision: chartVersion, lastAttemptedGeneration: 2,
      conditions: [{ type: 'Reconciling', status: 'True', reason: 'Progressing', message: '', observedGeneration: 2 }],
    };
    expect(classifyRelease(state({ status: recorded }))).toEqual({ kind: 'install', chartVersion, source });
  });

  it('a release whose deployed revision has the same chart and values is in sync', () => {
    expect(classifyRelease(state({ status: { history: [deployed] } })))
      .toEqual({ kind: 'in-sync', deployed, chartVersion });
  });

  it('new values on a deployed release are an upgrade; so is --force on one in sync', () => {
    expect(classifyRelease(state({ status: { history: [deployed] }, configDigest: 'sha256:v2' })))
      .toMatchObject({ kind: 'prepare', action: 'upgrade' });
    expect(classifyRelease(state({ status: { history: [deployed] }, forceAt: 't1' })))
      .toMatchObject({ kind: 'prepare', action: 'upgrade' });
  });

  it('a newer failed revision on top of the deployed one is not in sync', () => {
    const history = [{ ...deployed, version: 2, status: 'failed' }, deployed];
    expect(classifyRelease(state({ status: { history } }))).toMatchObject({ kind: 'prepare', action: 'upgrade' });
  });

  it('the same values and chart that failed stay a failure until a reset or force asks again', () => {
    const status = { history: [deployed], ...failed('UpgradeFailed') };
    expect(classifyRelease(state({ status, configDigest: 'sha256:v2' }))).toEqual({ kind: 'failure' });
    expect(classifyRelease(state({ status, configDigest: 'sha256:v2', resetAt: 't1' })))
      .toMatchObject({ kind: 'prepare', action: 'upgrade' });
    expect(classifyRelease(state({ status, configDigest: 'sha256:v3' })))
      .toMatchObject({ kind: 'prepare', action: 'upgrade' });
  });

  it('a Ready False for another reason than a failed action is no failure that stands', () => {
    expect(classifyRelease(state({ status: failed('StateError'), configDigest: 'sha256:v2' })))
      .toMatchObject({ kind: 'prepare', action: 'install' });
  });
});

describe('handledRequests', () => {
  const hr = (annotations: Record<string, string>, status: Record<string, unknown> = {}) =>
    ({ metadata: { name: 'sre', annotations }, status });

  it('acknowledges the reconcile request it saw', () => {
    expect(handledRequests(hr({ 'reconcile.fluxcd.io/requestedAt': 't1' })))
      .toEqual({ status: { lastHandledReconcileAt: 't1' }, forceAt: undefined, resetAt: undefined });
  });

  it('a reset counts once, with the request token, and clears the failure counts', () => {
    const asks = { 'reconcile.fluxcd.io/requestedAt': 't1', 'reconcile.fluxcd.io/resetAt': 't1' };
    const first = handledRequests(hr(asks, { failures: 2, installFailures: 2 }));
    expect(first).toEqual({ status: { lastHandledReconcileAt: 't1', lastHandledResetAt: 't1' }, resetAt: 't1',
      forceAt: undefined });
    expect(handledRequests(hr(asks, first.status)).resetAt).toBeUndefined();
  });

  it('a force whose token is not the request is not asked', () => {
    const asks = { 'reconcile.fluxcd.io/requestedAt': 't2', 'reconcile.fluxcd.io/forceAt': 't1' };
    expect(handledRequests(hr(asks)).forceAt).toBeUndefined();
  });
});
