import { describe, expect, it } from 'vitest';
import { parseOciRepository } from './oci-repository-view.js';

describe('parseOciRepository', () => {
  it('reads the URL, the range or tag and the resolved revision of a valid source', () => {
    const view = parseOciRepository({
      metadata: { name: 'agent', namespace: 'kagent' },
      spec: { url: 'oci://ghcr.io/x/agent', ref: { semver: '>=2.0.0 <3.0.0', tag: '2.1.0' } },
      status: { artifact: { revision: '2.1.0@sha256:abc' }, conditions: [{ type: 'Ready', status: 'True' }] },
    });
    expect(view).toMatchObject({
      meta: { name: 'agent', namespace: 'kagent' }, url: 'oci://ghcr.io/x/agent', semver: '>=2.0.0 <3.0.0',
      tag: '2.1.0', revision: '2.1.0@sha256:abc', conditions: [{ type: 'Ready', status: 'True' }],
    });
  });

  it('a source not resolved yet has no revision and no conditions', () => {
    const view = parseOciRepository({ metadata: { name: 'agent' }, spec: { url: 'oci://x', ref: { semver: '0.x' } } });
    expect(view.revision).toBeUndefined();
    expect(view.conditions).toEqual([]);
  });

  it('forged field types and empty strings read as absent', () => {
    const view = parseOciRepository({
      metadata: { name: 'agent' }, spec: { url: 7, ref: { semver: '', tag: 1 } }, status: { artifact: 'x' },
    });
    expect(view).toEqual({ meta: { name: 'agent', labels: {}, annotations: {}, ownerReferences: [] }, conditions: [] });
    expect(parseOciRepository('garbage').meta.name).toBe('');
  });
});
