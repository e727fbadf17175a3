import { describe, expect, it } from 'vitest';
import { isKubeObject, kubeObjectOf } from './kube-json.js';

const gvr = { group: 'helm.toolkit.fluxcd.io', version: 'v2', kind: 'HelmRelease' };

describe('kubeObjectOf', () => {
  it('keeps an answer that names its apiVersion and kind as it is', () => {
    const object = { apiVersion: 'helm.toolkit.fluxcd.io/v2beta2', kind: 'HelmRelease', metadata: { name: 'sre' } };
    expect(kubeObjectOf(object, gvr)).toBe(object);
    expect(object.apiVersion).toBe('helm.toolkit.fluxcd.io/v2beta2');
  });

  it('fills in the apiVersion and kind a list item lacks from the type asked for (core group: version alone)', () => {
    expect(kubeObjectOf({ metadata: { name: 'sre' } }, gvr))
      .toEqual({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'sre' } });
    expect(kubeObjectOf({ metadata: { name: 'cm' } }, { group: '', version: 'v1', kind: 'ConfigMap' }))
      .toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
  });

  it('refuses what is no Kubernetes object: no metadata, a name of another type, not an object', () => {
    for (const value of [undefined, null, 'x', [], {}, { metadata: 'x' }, { metadata: { name: 3 } }]) {
      expect(kubeObjectOf(value, gvr)).toBeUndefined();
    }
  });
});

describe('isKubeObject', () => {
  it('holds for JSON with an apiVersion, a kind and a metadata.name, all strings', () => {
    expect(isKubeObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } })).toBe(true);
    expect(isKubeObject({ kind: 'Pod', metadata: { name: 'p' } })).toBe(false);
    expect(isKubeObject({ apiVersion: 'v1', kind: 'Pod', metadata: {} })).toBe(false);
    expect(isKubeObject('Pod')).toBe(false);
  });
});
