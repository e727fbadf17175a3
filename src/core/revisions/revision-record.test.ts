import { describe, expect, it } from 'vitest';
import { applyUpdate } from '../writes/update-merge.js';
import {
  annotatedRevision, beyondLimit, buildRevision, nextRevision, parseRevision, REVISION_ANNOTATION, revisionName,
  keptToolsetNote, MAX_REVISION, rollbackUpdate, specOfValues, toolsetRemovalViolation, type StoredRevision,
} from './revision-record.js';

const owner = { apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', name: 'sre', namespace: 'kagent', uid: 'u-1' };
const values = {
  agent: { name: 'sre', displayName: 'SRE', systemMessage: 'Be brief.', runtime: 'go' },
  modelConfig: { name: 'default-model-config' },
  toolset: ['preset:read-only'],
  skills: { refs: ['r:1'], gitRefs: [{ url: 'https://github.com/o/r', path: 'a/b', name: 'b' }], gitAuthSecretRef: { name: 'git' } },
  labels: { team: 'sre' },
  replicas: 2,
};

describe('revision names and numbers', () => {
  it('names a revision after its agent and number, which no other agent\'s revision can be', () => {
    expect(revisionName('sre', 11)).toBe('sre-11');
    expect(revisionName('sre-1', 1)).toBe('sre-1-1');
  });

  it('numbers the next write one past both the release annotation and every listed revision', () => {
    expect(nextRevision(undefined, [])).toBe(1);
    expect(nextRevision(5, [3, 4])).toBe(6);
    expect(nextRevision(2, [7])).toBe(8);
  });

  it('skips a number whose name another object holds, and gives none past MAX_REVISION', () => {
    expect(nextRevision(undefined, [], new Set(['sre-1', 'sre-2', 'other-3']), 'sre')).toBe(3);
    expect(nextRevision(MAX_REVISION - 1, [])).toBe(MAX_REVISION);
    expect(nextRevision(undefined, [MAX_REVISION])).toBeUndefined();
    expect(Number.isSafeInteger(MAX_REVISION + 1)).toBe(true);
  });

  it.each([['3', 3], ['0', undefined], ['-1', undefined], ['x', undefined], ['01', undefined], ['9007199254740991', undefined]])(
    'reads the annotation %j as %j', (text, want) => {
      expect(annotatedRevision({ [REVISION_ANNOTATION]: text })).toBe(want);
    },
  );
});

describe('the recorded spec', () => {
  it('holds the curated fields the values describe, and nothing else', () => {
    expect(specOfValues(values)).toEqual({
      displayName: 'SRE', systemMessage: 'Be brief.', runtime: 'go', modelConfig: 'default-model-config',
      toolset: ['preset:read-only'],
      skills: { refs: ['r:1'], gitRefs: [{ url: 'https://github.com/o/r', path: 'a/b', name: 'b' }], gitAuthSecretName: 'git' },
      labels: { team: 'sre' },
    });
  });

  it('becomes an update that, merged into any values, gives the recorded curated values back', () => {
    const later = { agent: { name: 'sre', description: 'later' }, modelConfig: { name: 'other' }, toolset: ['preset:none'], annotations: { a: 'b' }, replicas: 2 };
    const after = applyUpdate(later, rollbackUpdate(specOfValues(values), { name: 'sre' }));
    expect(after).toEqual(values);
  });

  it('keeps the live toolset when the revision had none, and says so', () => {
    const live = { agent: { name: 'sre' }, modelConfig: { name: 'm' }, toolset: ['preset:read-only'] };
    const old = { modelConfig: 'm' };
    const after = applyUpdate(live, rollbackUpdate(old, { name: 'sre' }));
    expect(after.toolset).toEqual(['preset:read-only']);
    expect(keptToolsetNote(1, old, live)).toBe(
      'revision 1 has no toolset; the current toolset [preset:read-only] is kept (a toolset is never removed)',
    );
    expect(keptToolsetNote(1, { ...old, toolset: ['preset:none'] }, live)).toBeUndefined();
    expect(keptToolsetNote(1, old, { agent: {} })).toBeUndefined();
    expect(rollbackUpdate({ modelConfig: 'm', toolset: ['preset:none'] }, { name: 'sre', force: true })).toMatchObject({ force: true, toolset: ['preset:none'] });
  });

  it('names a write that would take a toolset away, and only that one', () => {
    const withToolset = { toolset: ['preset:none'] };
    expect(toolsetRemovalViolation(withToolset, {})).toMatch(/^the write would remove the agent's toolset/);
    expect(toolsetRemovalViolation(withToolset, { toolset: ['preset:full'] })).toBeUndefined();
    expect(toolsetRemovalViolation({}, {})).toBeUndefined();
  });
});

describe('the ControllerRevision', () => {
  const object = buildRevision('sre', 4, owner, {
    operation: 'rollback', rolledBackTo: 1, requestedBy: 'alice@example.com', changed: ['agent.description'], values,
  });

  it('is labelled, owned by the release and says what happened as kubectl rollout history prints it', () => {
    expect(object.metadata).toEqual({
      name: 'sre-4', namespace: 'kagent',
      labels: { 'agent-manager.giantswarm.io/agent': 'sre', 'app.kubernetes.io/managed-by': 'agent-manager' },
      annotations: { 'kubernetes.io/change-cause': 'rollback to revision 1 by alice@example.com: agent.description' },
      ownerReferences: [{ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', name: 'sre', uid: 'u-1' }],
    });
    expect(object.revision).toBe(4);
  });

  it('reads back as it was recorded', () => {
    const read = parseRevision({ ...object, metadata: { ...object.metadata, creationTimestamp: '2026-01-01T00:00:00Z' } });
    expect(read).toEqual({
      revision: 4, name: 'sre-4', createdAt: '2026-01-01T00:00:00Z', requestedBy: 'alice@example.com', operation: 'rollback',
      rolledBackTo: 1, changed: ['agent.description'], spec: specOfValues(values), values, ownerUid: 'u-1',
    });
  });

  it('skips objects without a usable revision number', () => {
    for (const revision of [0, -1, 1.5, '3', 9007199254740991, MAX_REVISION + 1, undefined]) {
      expect(parseRevision({ metadata: { name: 'x' }, revision, data: { operation: 'update', values: {} } })).toBeUndefined();
    }
  });

  it.each([
    ['no operation', { spec: {} }, 'data.operation: expected one of "create"|"update"|"rollback"'],
    ['no values', { operation: 'update' }, 'data.values: expected object, received undefined'],
    ['a number for spec.modelConfig', { operation: 'update', spec: { modelConfig: 5 }, values: {} }, 'data.spec.modelConfig: expected string, received number'],
    ['a toolset of numbers in values', { operation: 'update', spec: { $ref: 'values' }, values: { toolset: [1] } }, 'data.values.toolset[0]: expected string, received number'],
    ['a list for values', { operation: 'update', values: [] }, 'data.values: expected object, received array'],
    ['a fraction for rolledBackTo', { operation: 'rollback', rolledBackTo: 1.5, values: {} }, 'data.rolledBackTo: expected int, received number'],
  ])('reads a revision with %s as malformed, naming what is wrong', (_case, data, problem) => {
    const read = parseRevision({ metadata: { name: 'sre-3', ownerReferences: [{ kind: 'HelmRelease', uid: 'u-1' }] }, revision: 3, data });
    expect(read).toMatchObject({ revision: 3, name: 'sre-3', ownerUid: 'u-1', spec: {}, values: {}, changed: [] });
    expect(read?.problem?.replace('Invalid option: ', '')).toBe(problem);
  });

  it('stores each value once: spec refers to values', () => {
    expect(object.data.spec).toEqual({ $ref: 'values' });
    expect(JSON.stringify(object).split('"Be brief."')).toHaveLength(2);
  });

  it('reads a revision recorded with a copy of the spec beside the values', () => {
    const old = { ...object, data: { ...object.data, spec: specOfValues(values) } };
    expect(parseRevision(old)).toMatchObject({ spec: specOfValues(values), values });
  });

  it('keeps the newest ones within the limit', () => {
    const r = (revision: number) => ({ revision }) as StoredRevision;
    expect(beyondLimit([r(1), r(3), r(2), r(4)], 2).map((x) => x.revision)).toEqual([2, 1]);
    expect(beyondLimit([r(1)], 0).map((x) => x.revision)).toEqual([1]);
  });
});
