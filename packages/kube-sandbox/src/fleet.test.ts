import { describe, expect, it } from 'vitest';
import { checkOrganization, placedRelease, workloadClusterNames, workloadSeed } from './fleet.js';
import { DEFAULT_SEED } from './seed.js';
import { SAMPLE_SEED, seedPeopleRbac } from './seed-samples.js';

describe('workloadClusterNames', () => {
  it('names N workload clusters cluster-1 to cluster-N, and takes given names as they are', () => {
    expect(workloadClusterNames(3)).toEqual(['cluster-1', 'cluster-2', 'cluster-3']);
    expect(workloadClusterNames(['alpha', 'beta'])).toEqual(['alpha', 'beta']);
    expect(workloadClusterNames(undefined)).toEqual([]);
  });

  it('refuses a name that is no DNS-1123 label, a name given twice and a count that is no whole number', () => {
    expect(() => workloadClusterNames(['Alpha'])).toThrow('workload cluster "Alpha" must be a DNS-1123 label');
    expect(() => workloadClusterNames(['alpha', 'alpha'])).toThrow('workload cluster "alpha" is named twice');
    expect(() => workloadClusterNames(1.5)).toThrow('workloadClusters must be a whole number from 0 to 50, got 1.5');
  });
});

describe('checkOrganization', () => {
  it('refuses an organization whose org- namespace could not exist', () => {
    expect(checkOrganization('acme')).toBe('acme');
    expect(() => checkOrganization('ACME')).toThrow('organization "ACME" must be a DNS-1123 label');
    expect(() => checkOrganization('a'.repeat(60))).toThrow('at most 59 characters');
  });
});

describe('placedRelease', () => {
  it('places an agent as <cluster>-<agent> in org-<organization>, installing through the cluster\'s kubeconfig Secret', () => {
    const hr = placedRelease('acme', 'alpha', 'sre', { displayName: 'SRE' }) as any;
    expect(hr.metadata).toEqual({
      name: 'alpha-sre', namespace: 'org-acme',
      labels: { 'app.kubernetes.io/managed-by': 'agent-manager', 'agent-platform.giantswarm.io/cluster': 'alpha' },
    });
    expect(hr.spec).toMatchObject({
      releaseName: 'sre', targetNamespace: 'kagent', storageNamespace: 'kagent',
      kubeConfig: { secretRef: { name: 'alpha-kubeconfig', key: 'value' } },
      chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'org-acme' },
    });
    expect(hr.spec).not.toHaveProperty('serviceAccountName');
  });
});

describe('workloadSeed', () => {
  it('seeds a workload cluster like the management one, but the sample platform without its sample agents', () => {
    expect(workloadSeed('samples')).toEqual([...DEFAULT_SEED, seedPeopleRbac]);
    expect(SAMPLE_SEED.length).toBeGreaterThan(DEFAULT_SEED.length + 1);
    expect(workloadSeed(false)).toBe(false);
    expect(workloadSeed(undefined)).toBe(true);
  });
});
