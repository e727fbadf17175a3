import { describe, expect, it } from 'vitest';
import { summaryOf } from './agent-summary.js';
import type { Agent } from '../types.js';

const release = { name: 'sre', namespace: 'kagent', ready: true, suspended: false, gitOpsOwned: false, deleting: false };
const full: Agent = {
  name: 'sre', namespace: 'kagent', exists: true, displayName: 'SRE', description: 'On call', modelConfig: 'default',
  systemMessage: 'You are on call.', toolset: ['preset:read-only'], ready: true, accepted: true, managed: 'helmrelease',
  conditions: [{ type: 'Ready', status: 'True', reason: 'Reconciled', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
  helmRelease: { ...release, reason: 'InstallSucceeded', message: 'Helm install succeeded' },
  values: { systemMessage: 'You are on call.' }, resourceVersion: '7',
};

describe('summaryOf', () => {
  it('keeps the row a list page shows and leaves out values, system message, conditions and the release', () => {
    expect(summaryOf(full)).toEqual({
      name: 'sre', namespace: 'kagent', exists: true, displayName: 'SRE', description: 'On call', modelConfig: 'default',
      toolset: ['preset:read-only'], ready: true, managed: 'helmrelease',
    });
  });

  it('names suspended and deleting only when true, and the release reason only while it is not Ready', () => {
    const failing: Agent = {
      ...full, ready: false,
      helmRelease: { ...release, ready: false, suspended: true, deleting: true, reason: 'UpgradeFailed', message: 'values don\'t meet the schema' },
    };
    expect(summaryOf(failing)).toMatchObject({
      suspended: true, deleting: true, releaseReason: 'UpgradeFailed', releaseMessage: 'values don\'t meet the schema',
    });
    expect(summaryOf(full)).not.toHaveProperty('suspended');
    expect(summaryOf(full)).not.toHaveProperty('releaseReason');
  });

  it('names the workload cluster a fleet agent runs on, so two rows of one name on two clusters differ', () => {
    const placed: Agent = { ...full, organization: 'acme', cluster: 'alpha' };
    expect(summaryOf(placed)).toMatchObject({ name: 'sre', namespace: 'kagent', organization: 'acme', cluster: 'alpha' });
    expect(summaryOf(full)).not.toHaveProperty('organization');
    expect(summaryOf(full)).not.toHaveProperty('cluster');
  });

  it('says implicit full access for an agent whose release declares no toolset', () => {
    const open: Agent = {
      ...full, toolset: undefined, implicitFullAccess: true, exists: false, helmRelease: undefined,
    };
    expect(summaryOf(open)).toEqual({
      name: 'sre', namespace: 'kagent', exists: false, displayName: 'SRE', description: 'On call', modelConfig: 'default',
      implicitFullAccess: true, ready: true, managed: 'helmrelease',
    });
  });
});
