import { describe, expect, it } from 'vitest';
import { notFound } from '../errors.js';
import {
  decideUpdate, decideUpdateTarget, lineRefusal, updateConflictOutcome, type UpdateFacts, type UpdateTargetFacts,
} from './update-decision.js';
import type { ReleaseFacts } from './write-decision.js';

const release = (extra: Partial<ReleaseFacts> = {}): ReleaseFacts =>
  ({ ref: 'kagent/sre', suspended: false, resourceVersion: '7', version: 'v7', ...extra });
const target = (extra: Partial<UpdateTargetFacts> = {}): UpdateTargetFacts => ({
  namespace: 'kagent', name: 'sre', force: false, commit: false, wanted: {}, release: release(), agent: true,
  missing: notFound('agent kagent/sre does not exist'), ...extra,
});
const values = { agent: { name: 'sre' } };
const facts = (extra: Partial<UpdateFacts> = {}): UpdateFacts => ({
  commit: false, guarded: { values }, changed: ['agent.description'], skillRefs: {}, ...extra,
});

describe('decideUpdateTarget', () => {
  it('writes the release of an agent that has one', () => {
    expect(decideUpdateTarget(target())).toEqual({ kind: 'target', release: release() });
  });

  it('answers the lookup\'s 404 when there is no release and no Agent', () => {
    const missing = notFound('gone');
    expect(decideUpdateTarget(target({ release: undefined, agent: false, missing }))).toEqual({ kind: 'refuse', error: missing });
  });

  it('refuses a bare Agent CR, whose values no release holds, even with force', () => {
    expect(decideUpdateTarget(target({ release: undefined, force: true }))).toMatchObject({
      kind: 'refuse', error: { code: 'conflict', detail: expect.stringContaining('agent-manager only writes HelmRelease values') },
    });
  });

  it('refuses a GitOps-owned or suspended release without force, marked for the commit-mode hint', () => {
    for (const owned of [release({ kustomization: '' }), release({ suspended: true })]) {
      expect(decideUpdateTarget(target({ release: owned }))).toMatchObject({ kind: 'refuse', commitHint: true });
    }
  });

  it('writes a GitOps-owned release with force, and proposes to one in commit mode', () => {
    const owned = release({ kustomization: 'fleet' });
    expect(decideUpdateTarget(target({ release: owned, force: true }))).toMatchObject({ kind: 'target' });
    expect(decideUpdateTarget(target({ release: owned, commit: true }))).toMatchObject({ kind: 'target' });
  });

  it('refuses with a 412 when the release moved past the version the caller read', () => {
    expect(decideUpdateTarget(target({ wanted: { resourceVersion: '6' } }))).toMatchObject({
      kind: 'refuse', error: { status: 412, detail: 'agent kagent/sre changed since version 6 was read (now 7); read it again' },
    });
    expect(decideUpdateTarget(target({ wanted: { version: 'v7' } }))).toMatchObject({ kind: 'target' });
  });
});

describe('lineRefusal', () => {
  it('refuses what the chart line refuses with a 400, and lets the rest through', () => {
    expect(lineRefusal('harness "x" is not one of kagent\'s')?.error.code).toBe('invalid_request');
    expect(lineRefusal(undefined)).toBeUndefined();
  });
});

describe('decideUpdate', () => {
  it('applies a change that changes values', () => {
    expect(decideUpdate(facts())).toEqual({ kind: 'apply' });
  });

  it('writes nothing when nothing changed', () => {
    expect(decideUpdate(facts({ changed: [] }))).toEqual({ kind: 'noop' });
    expect(decideUpdate(facts({ changed: [], skillRefs: { next: 'a=1', current: 'a=1' } }))).toEqual({ kind: 'noop' });
  });

  it('writes a changed skill-refs annotation even when no value changed, and its removal', () => {
    expect(decideUpdate(facts({ changed: [], skillRefs: { next: 'a=2', current: 'a=1' } })))
      .toEqual({ kind: 'apply', annotation: 'a=2' });
    expect(decideUpdate(facts({ changed: [], skillRefs: { next: null, current: 'a=1' } })))
      .toEqual({ kind: 'apply', annotation: null });
  });

  it('proposes the change in commit mode, changed or not', () => {
    expect(decideUpdate(facts({ commit: true, changed: [] }))).toEqual({ kind: 'commit' });
  });

  it('refuses in order: the guards, then the ModelConfig, then the chart schema', () => {
    const refused = { refuse: { code: 'unauthenticated' as const, reasons: ['who are you'] } };
    expect(decideUpdate(facts({ guarded: refused, modelConfigProblem: 'm', schemaProblem: 's' })))
      .toMatchObject({ kind: 'refuse', error: { code: 'unauthenticated', detail: 'who are you' } });
    expect(decideUpdate(facts({ modelConfigProblem: 'm', schemaProblem: 's' })))
      .toMatchObject({ kind: 'refuse', error: { code: 'invalid_request', detail: 'm' } });
    expect(decideUpdate(facts({ commit: true, schemaProblem: 's' })))
      .toMatchObject({ kind: 'refuse', error: { code: 'invalid_request', detail: 's' } });
  });
});

describe('updateConflictOutcome', () => {
  it('retries a lost race without a precondition while attempts are left, then gives it up', () => {
    expect(updateConflictOutcome({ conflict: true, attempt: 1, attempts: 60 })).toBe('retry');
    expect(updateConflictOutcome({ conflict: true, attempt: 60, attempts: 60 })).toBe('rethrow');
  });

  it('answers a race lost under a resourceVersion precondition with the 412, never a retry', () => {
    expect(updateConflictOutcome({ conflict: true, resourceVersion: '7', attempt: 1, attempts: 1 })).toBe('race-lost');
  });

  it('throws any other failure as it came', () => {
    expect(updateConflictOutcome({ conflict: false, attempt: 1, attempts: 60 })).toBe('rethrow');
  });
});
