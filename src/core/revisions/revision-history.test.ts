import { describe, expect, it } from 'vitest';
import { currentRevision, fluxHistory, fluxReport, revisionEntries, valuesDigests, type LiveRelease } from './revision-history.js';
import type { StoredRevision } from './revision-record.js';

const revision = (n: number, values: Record<string, unknown>, createdAt = `2026-01-0${n}T00:00:00Z`): StoredRevision => ({
  revision: n, name: `sre-${n}`, createdAt, operation: n === 1 ? 'create' : 'update', changed: [`c${n}`], spec: {}, values,
});
const v1 = { agent: { name: 'sre', description: 'one' } };
const v2 = { agent: { name: 'sre', description: 'two' } };

describe('the digest Flux records for values', () => {
  // helm-controller's own test vectors (internal/chartutil/digest_test.go).
  it('is sha256 over the values as sorted YAML', () => {
    expect(valuesDigests({ foo: 'bar', baz: { cool: 'stuff' } })[0]).toBe('sha256:3f3641788a2d4abda3534eaa90c90b54916e4c6e3a5b2e1b24758b7bfa701ecd');
    expect(valuesDigests({})).toEqual([
      'sha256:ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356',
      'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ]);
  });
});

describe('what Flux reports for a revision', () => {
  const [d1] = valuesDigests(v1);
  const history = fluxHistory({
    history: [
      { configDigest: d1, chartVersion: '0.6.1+b', status: 'deployed', lastDeployed: '2026-01-04T00:00:01Z' },
      { configDigest: valuesDigests(v2)[0], chartVersion: '0.6.1+a', status: 'superseded', lastDeployed: '2026-01-02T00:00:01Z' },
      { configDigest: d1, chartVersion: '0.6.0+a', status: 'superseded', lastDeployed: '2026-01-01T00:00:01Z' },
    ],
  });

  it('is the oldest Helm release of its values deployed after it was recorded', () => {
    expect(fluxReport(v1, '2026-01-01T00:00:00Z', history)).toEqual({ chartVersion: '0.6.0+a', status: 'superseded' });
    expect(fluxReport(v1, '2026-01-04T00:00:00Z', history)).toEqual({ chartVersion: '0.6.1+b', status: 'deployed' });
    expect(fluxReport(v2, '2026-01-02T00:00:00Z', history)).toEqual({ chartVersion: '0.6.1+a', status: 'superseded' });
  });

  it('is nothing while Flux has not deployed the values', () => {
    expect(fluxReport(v1, '2026-01-05T00:00:00Z', history)).toEqual({});
    expect(fluxReport({ other: true }, undefined, history)).toEqual({});
  });
});

describe('the current revision', () => {
  const revisions = [revision(1, v1), revision(2, v2), revision(3, v1)];
  const live = (values: Record<string, unknown>, annotated?: number): LiveRelease => ({
    values, annotated, history: [],
  });

  it('is the annotated one when the live values are its values', () => {
    expect(currentRevision(revisions, live(v1, 1))?.revision).toBe(1);
    expect(currentRevision(revisions, live(v1, 3))?.revision).toBe(3);
    expect(currentRevision(revisions, live(v2, 3))).toBeUndefined();
  });

  it('is the newest with the live values when the release carries no annotation', () => {
    expect(currentRevision(revisions, live(v1))?.revision).toBe(3);
  });

  it('lists newest first, marking the current one', () => {
    const entries = revisionEntries(revisions, live(v1, 3));
    expect(entries.map((e) => [e.revision, e.current])).toEqual([[3, true], [2, undefined], [1, undefined]]);
    expect(entries[1]).toEqual({ revision: 2, createdAt: '2026-01-02T00:00:00Z', operation: 'update', changed: ['c2'] });
  });

  it('starts the list with revision: null and what differs from the newest when the release was changed elsewhere', () => {
    const edited = { agent: { name: 'sre', description: 'by hand' }, replicas: 2 };
    const entries = revisionEntries(revisions, live(edited, 3));
    expect(entries[0]).toEqual({ revision: null, changed: ['agent.description', 'replicas'], current: true });
    expect(entries.slice(1).every((e) => e.current === undefined)).toBe(true);
  });
});
