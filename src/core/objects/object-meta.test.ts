import { describe, expect, it } from 'vitest';
import { parseMeta } from './object-meta.js';

describe('parseMeta', () => {
  it('reads the metadata the product uses from a valid object', () => {
    const meta = parseMeta({
      metadata: {
        name: 'sre', namespace: 'kagent', uid: 'u1', resourceVersion: '7', generation: 3,
        creationTimestamp: '2026-01-01T00:00:00Z', deletionTimestamp: '2026-01-02T00:00:00Z',
        labels: { a: 'b' }, annotations: { c: 'd' }, ownerReferences: [{ kind: 'HelmRelease', name: 'sre', uid: 'h1' }],
      },
    });
    expect(meta).toEqual({
      name: 'sre', namespace: 'kagent', uid: 'u1', resourceVersion: '7', generation: 3,
      creationTimestamp: '2026-01-01T00:00:00Z', deletionTimestamp: '2026-01-02T00:00:00Z',
      labels: { a: 'b' }, annotations: { c: 'd' }, ownerReferences: [{ kind: 'HelmRelease', name: 'sre', uid: 'h1' }],
    });
  });

  it('an object with no metadata reads as an unnamed one with empty maps', () => {
    for (const object of [undefined, null, 'x', [], {}, { metadata: 'x' }]) {
      expect(parseMeta(object)).toEqual({ name: '', labels: {}, annotations: {}, ownerReferences: [] });
    }
  });

  it('forged field types read as absent; maps keep only their string entries', () => {
    const meta = parseMeta({
      metadata: {
        name: 5, namespace: ['x'], uid: {}, generation: 1.5, deletionTimestamp: true,
        labels: { ok: 'yes', n: 1, o: {} }, annotations: ['a'], ownerReferences: [null, 'x', { kind: 3, uid: 'u' }],
      },
    });
    expect(meta).toEqual({
      name: '', labels: { ok: 'yes' }, annotations: {},
      ownerReferences: [{ kind: undefined, name: undefined, uid: 'u' }],
    });
  });
});
