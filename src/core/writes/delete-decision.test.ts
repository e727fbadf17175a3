import { describe, expect, it } from 'vitest';
import { notFound } from '../errors.js';
import { decideDelete, deleteFailure, type DeleteFacts } from './delete-decision.js';
import type { ReleaseFacts } from './write-decision.js';

const release = (extra: Partial<ReleaseFacts> = {}): ReleaseFacts =>
  ({ ref: 'kagent/sre', suspended: false, resourceVersion: '7', version: 'v7', ...extra });
const facts = (extra: Partial<DeleteFacts> = {}): DeleteFacts => ({
  namespace: 'kagent', name: 'sre', force: false, wanted: {}, release: release(), agent: true,
  missing: notFound('agent kagent/sre does not exist'), ...extra,
});
const refusal = (decision: ReturnType<typeof decideDelete>) => {
  if (decision.kind !== 'refuse') throw new Error(`not refused: ${decision.kind}`);
  const { code, status, message } = decision.error;
  return { code, status, message, hint: decision.commitHint === true };
};

describe('decideDelete', () => {
  it('deletes the release of an agent that has one, at no particular version', () => {
    expect(decideDelete(facts())).toEqual({ kind: 'apply', target: 'release', release: release(), removeAgent: false });
  });

  it('answers the lookup\'s 404 when there is neither a release nor an Agent', () => {
    const missing = notFound('agent kagent/sre: no such agent');
    expect(decideDelete(facts({ release: undefined, agent: false, missing }))).toEqual({ kind: 'refuse', error: missing });
  });

  it('refuses a bare Agent CR without force, saying to delete it with force', () => {
    expect(refusal(decideDelete(facts({ release: undefined })))).toMatchObject({
      code: 'conflict', message: expect.stringContaining('is a bare CR with no HelmRelease behind it'), hint: false,
    });
  });

  it('removes only the bare Agent CR with force', () => {
    expect(decideDelete(facts({ release: undefined, force: true }))).toEqual({ kind: 'apply', target: 'agent' });
  });

  it('refuses a bare Agent CR in commit mode even with force: git holds no release of it', () => {
    expect(refusal(decideDelete(facts({ release: undefined, force: true, mode: 'commit' })))).toMatchObject({
      code: 'conflict', message: expect.stringContaining('commit mode has no release to remove in git'),
    });
  });

  it('refuses a forced bare-CR delete whose precondition names a release, since there is none now', () => {
    expect(refusal(decideDelete(facts({ release: undefined, force: true, wanted: { resourceVersion: '7' } }))))
      .toMatchObject({ status: 412, message: expect.stringContaining('it has no HelmRelease now') });
  });

  it('refuses a GitOps-owned release without force, marked for the commit-mode hint', () => {
    expect(refusal(decideDelete(facts({ release: release({ kustomization: 'fleet' }) })))).toEqual({
      code: 'conflict', status: 409, hint: true, message: expect.stringContaining('is applied by Flux Kustomization "fleet"'),
    });
  });

  it('refuses a suspended release without force, and with force removes its Agent too', () => {
    const suspended = release({ suspended: true });
    expect(refusal(decideDelete(facts({ release: suspended })))).toMatchObject({
      message: expect.stringContaining('is suspended'), hint: true,
    });
    expect(decideDelete(facts({ release: suspended, force: true }))).toMatchObject({ target: 'release', removeAgent: true });
  });

  it('proposes the delete in commit mode without the ownership guards', () => {
    const owned = release({ kustomization: 'fleet', suspended: true });
    expect(decideDelete(facts({ release: owned, mode: 'commit' }))).toEqual({ kind: 'commit', release: owned });
  });

  it('judges ownership before the preconditions', () => {
    const decision = decideDelete(facts({ release: release({ kustomization: 'fleet' }), wanted: { version: 'old' } }));
    expect(refusal(decision).status).toBe(409);
  });

  it('refuses a precondition that no longer holds with a 412 naming both versions, in either mode', () => {
    for (const mode of ['apply', 'commit'] as const) {
      expect(refusal(decideDelete(facts({ mode, wanted: { resourceVersion: '6' } })))).toMatchObject({
        status: 412, message: expect.stringContaining('changed since version 6 was read (now 7)'),
      });
    }
    expect(refusal(decideDelete(facts({ wanted: { version: 'v6' } }))).message).toContain('(now v7)');
  });

  it('deletes at the resourceVersion read when a precondition holds', () => {
    expect(decideDelete(facts({ wanted: { version: 'v7' } }))).toMatchObject({ target: 'release', writeAt: '7' });
  });
});

describe('deleteFailure', () => {
  it('throws any failure of a delete sent without a precondition as it came', () => {
    expect(deleteFailure({ conflict: true })).toEqual({ kind: 'rethrow' });
    expect(deleteFailure({ writeAt: '7', conflict: false })).toEqual({ kind: 'rethrow' });
  });

  it('reads a 409 at a resourceVersion precondition as the 412 of the version now', () => {
    expect(deleteFailure({ writeAt: '7', resourceVersion: '7', conflict: true })).toEqual({ kind: 'moved', read: '7' });
  });

  it('reads a 409 at a version precondition as a change between check and write', () => {
    expect(deleteFailure({ writeAt: '7', conflict: true })).toEqual({ kind: 'changed' });
  });
});
