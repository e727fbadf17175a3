import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../ports.js';
import { agentVersion } from '../reads/agent-version.js';
import { releaseFacts } from './release-facts.js';

const release = (metadata: Partial<KubeObject['metadata']> = {}, spec: unknown = { values: {} }): KubeObject => ({
  apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
  metadata: { name: 'sre', namespace: 'kagent', resourceVersion: '7', ...metadata }, spec,
});

describe('releaseFacts', () => {
  it('reads no release as no facts', () => {
    expect(releaseFacts(undefined)).toBeUndefined();
  });

  it('names the release and its resourceVersion, and computes the version only when a precondition names one', () => {
    expect(releaseFacts(release())).toEqual({ ref: 'kagent/sre', suspended: false, resourceVersion: '7' });
    const read = release();
    expect(releaseFacts(read, { version: 'v1' })?.version).toBe(agentVersion(read));
  });

  it('counts the Kustomization label as GitOps ownership by its presence, even with an empty value', () => {
    const labels = { 'kustomize.toolkit.fluxcd.io/name': '' };
    expect(releaseFacts(release({ labels }))).toMatchObject({ kustomization: '' });
  });

  it('reads only a suspend of true as suspended, and a spec that is no object as not suspended', () => {
    expect(releaseFacts(release({}, { suspend: true }))?.suspended).toBe(true);
    expect(releaseFacts(release({}, { suspend: 'true' }))?.suspended).toBe(false);
    expect(releaseFacts(release({}, 'forged'))?.suspended).toBe(false);
  });
});
