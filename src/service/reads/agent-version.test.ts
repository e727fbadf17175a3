import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../../core/frozen.js';
import { agentVersion } from './agent-version.js';
import type { KubeObject } from '../ports.js';

const release = (metadata: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
  metadata: { name: 'sre', namespace: 'kagent', uid: 'u-1', generation: 3, resourceVersion: '44', labels: { a: '1', b: '2' }, annotations: { x: 'y' }, ...metadata },
  status,
});

describe('agentVersion', () => {
  it('is <generation>-<8 hex>, and the same whatever the resourceVersion, the status or the order of the keys', () => {
    const v = agentVersion(release({}));
    expect(v).toMatch(/^3-[0-9a-f]{8}$/);
    expect(agentVersion(release({ resourceVersion: '99' }, { observedGeneration: 3, conditions: [{ type: 'Ready', status: 'True' }] }))).toBe(v);
    expect(agentVersion(release({ labels: { b: '2', a: '1' } }))).toBe(v);
  });

  it('changes with the generation (the spec), a label, an annotation, and the uid of a release created again', () => {
    const v = agentVersion(release({}));
    expect(agentVersion(release({ generation: 4 }))).toMatch(/^4-/);
    for (const changed of [{ labels: { a: '1', b: '3' } }, { annotations: {} }, { annotations: { x: 'z' } }, { uid: 'u-2' }]) {
      expect(agentVersion(release(changed))).not.toBe(v);
    }
  });

  it('remembers the version of a frozen (cached) release, and computes a mutable one afresh every time', () => {
    const frozen = deepFreeze(release({}));
    expect(agentVersion(frozen)).toBe(agentVersion(frozen));
    const mutable = release({});
    const before = agentVersion(mutable);
    mutable.metadata.labels = { ...mutable.metadata.labels, team: 'sre' };
    expect(agentVersion(mutable)).not.toBe(before);
  });
});
