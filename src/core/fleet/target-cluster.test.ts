import { describe, expect, it } from 'vitest';
import {
  emptyKubeconfigText, missingKubeconfigText, missingTargetMusterText, parseTarget, placeOnCluster, placedReleaseName,
} from './target-cluster.js';

const release = {
  apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
  metadata: { name: 'sre', namespace: 'kagent', labels: { 'app.kubernetes.io/managed-by': 'agent-manager' } },
  spec: {
    interval: '10m', serviceAccountName: 'flux-applier', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'kagent' },
    values: { agent: { name: 'sre' } },
  },
};

describe('parseTarget', () => {
  it('is the management cluster when neither is given', () => {
    expect(parseTarget({})).toBeUndefined();
    expect(parseTarget({ organization: '', cluster: '' })).toBeUndefined();
  });

  it.each([
    [{ organization: 'x' }, 'invalid request: a target cluster needs both organization and cluster (got organization "x", cluster "")'],
    [{ cluster: 'alpha' }, 'invalid request: a target cluster needs both organization and cluster (got organization "", cluster "alpha")'],
    [{ organization: 'X', cluster: 'alpha' }, 'invalid request: organization "X" must be a DNS-1123 label'],
    [{ organization: 'a'.repeat(60), cluster: 'alpha' }, `invalid request: organization "${'a'.repeat(60)}" must be a DNS-1123 label`],
    [{ organization: 'acme', cluster: 'Alpha_1' }, 'invalid request: cluster "Alpha_1" must be a DNS-1123 label'],
  ])('refuses %j', (input, message) => {
    expect(() => parseTarget(input)).toThrow(message);
  });

  it('takes both when both are labels', () => {
    expect(parseTarget({ organization: 'acme', cluster: 'alpha' })).toEqual({ organization: 'acme', cluster: 'alpha' });
  });
});

describe('placeOnCluster', () => {
  it('moves the release to org-<organization> as <cluster>-<agent>, installing into the agent namespace through the kubeconfig Secret', () => {
    expect(placeOnCluster(release, { organization: 'acme', cluster: 'alpha' }, 'sre', 'kagent')).toEqual({
      apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
      metadata: {
        name: 'alpha-sre', namespace: 'org-acme',
        labels: { 'app.kubernetes.io/managed-by': 'agent-manager', 'agent-platform.giantswarm.io/cluster': 'alpha' },
      },
      spec: {
        interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'org-acme' },
        values: { agent: { name: 'sre' } },
        releaseName: 'sre', targetNamespace: 'kagent', storageNamespace: 'kagent',
        kubeConfig: { secretRef: { name: 'alpha-kubeconfig', key: 'value' } },
      },
    });
  });

  it('refuses a release name past 63 characters with the hint to shorten the agent name', () => {
    const agent = 'a'.repeat(58);
    expect(() => placedReleaseName({ organization: 'acme', cluster: 'alpha' }, agent)).toThrow(
      `invalid request: the HelmRelease name "alpha-${agent}" (cluster-agent) is longer than 63 characters; pick a shorter agent name`,
    );
    expect(placedReleaseName({ organization: 'acme', cluster: 'alpha' }, 'a'.repeat(57))).toHaveLength(63);
  });
});

describe('target refusal texts', () => {
  const target = { organization: 'acme', cluster: 'beta' };
  it('name the Secret Cluster API writes, its key and the muster URL flag', () => {
    expect(missingKubeconfigText(target)).toBe(
      'cluster beta of organization acme has no kubeconfig Secret org-acme/beta-kubeconfig (Cluster API writes it when the cluster is created)',
    );
    expect(emptyKubeconfigText(target)).toBe('the kubeconfig Secret org-acme/beta-kubeconfig has no key "value"');
    expect(missingTargetMusterText(target)).toContain('an agent on cluster beta could not reach muster');
  });

  it('start a missing muster URL\'s refusal in the original\'s words and name the flag and the chart value that set it', () => {
    const text = missingTargetMusterText(target);
    expect(text.startsWith('this installation has no muster URL for agents on workload clusters (agent-manager\'s ' +
      'targetMusterURL); an agent on cluster beta could not reach muster')).toBe(true);
    expect(text).toContain('--target-muster-url');
    expect(text).toContain('fleet.targetMusterURL');
  });
});
