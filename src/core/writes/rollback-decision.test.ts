import { describe, expect, it } from 'vitest';
import { notFound, Unprocessable } from '../errors.js';
import { crossLineRollback } from '../migration/revision-line.js';
import { rollbackUpdate, type StoredRevision } from '../revisions/revision-record.js';
import { decideRollback, type RevisionRules, type RollbackFacts } from './rollback-decision.js';

const rules: RevisionRules = {
  notFound: (ns, name, revision) => notFound(`no revision ${revision} of ${ns}/${name}`),
  malformed: (ns, name, revision) => new Unprocessable(`revision ${revision.revision} of ${ns}/${name} is malformed`),
  crossLine: crossLineRollback,
  updateOf: rollbackUpdate,
};
const stored = (revision: number, extra: Partial<StoredRevision> = {}): StoredRevision => ({
  revision, name: `sre-${revision}`, createdAt: '2026-12-06T20:00:00Z', operation: 'update', changed: [],
  spec: { modelConfig: 'default-model-config', toolset: ['preset:read-only'], description: `r${revision}` },
  values: { agent: { name: 'sre' } }, ...extra,
});
const facts = (extra: Partial<RollbackFacts> = {}): RollbackFacts => ({
  namespace: 'kagent', name: 'sre', revision: 2, revisions: [stored(1), stored(2)], line: '0.x', presets: {},
  ...extra,
});

describe('decideRollback', () => {
  it('applies the revision\'s spec as an update, with its skill record and the request\'s mode', () => {
    const decision = decideRollback(facts({ mode: 'commit', force: true, requestNamespace: 'kagent' }), rules);
    expect(decision).toMatchObject({
      kind: 'update', rolledBackTo: 2, skillRefs: {}, applied: stored(2).spec,
      update: { name: 'sre', namespace: 'kagent', force: true, mode: 'commit', description: 'r2',
        modelConfig: 'default-model-config', toolset: ['preset:read-only'] },
    });
  });

  it('refuses a revision the agent does not have with the revision reads\' 404', () => {
    expect(decideRollback(facts({ revision: 9 }), rules))
      .toMatchObject({ kind: 'refuse', error: { code: 'not_found', detail: 'no revision 9 of kagent/sre' } });
  });

  it('refuses a malformed revision with the revision reads\' 422', () => {
    const revisions = [stored(2, { problem: 'spec is not an object' })];
    expect(decideRollback(facts({ revisions }), rules))
      .toMatchObject({ kind: 'refuse', error: { status: 422, detail: 'revision 2 of kagent/sre is malformed' } });
  });

  it('refuses a revision of the other chart line with a 409 naming the way back', () => {
    const decision = decideRollback(facts({ line: '2.x' }), rules);
    expect(decision).toMatchObject({ kind: 'refuse', error: { code: 'conflict',
      detail: expect.stringContaining('was recorded on chart 0.x') } });
  });

  it('refuses a revision whose spec today\'s rules refuse, naming the revision', () => {
    const revisions = [stored(2, { spec: { modelConfig: 'default-model-config', toolset: ['preset:'] } })];
    expect(decideRollback(facts({ revisions }), rules)).toMatchObject({ kind: 'refuse',
      error: { code: 'invalid_request', detail: expect.stringMatching(/^revision 2 cannot be applied again: /) } });
  });

  it('refuses a revision whose toolset names a preset the installation does not have', () => {
    const presets = { configured: ['team'] };
    const revisions = [stored(2, { spec: { modelConfig: 'm', toolset: ['preset:gone'] } })];
    expect(decideRollback(facts({ revisions, presets }), rules)).toMatchObject({ kind: 'refuse',
      error: { detail: expect.stringContaining('revision 2 cannot be applied again: ') } });
  });
});
