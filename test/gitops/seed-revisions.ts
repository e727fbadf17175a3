/**
 * Revisions of the GitOps-owned agent `sre` as earlier applied writes of agent-manager
 * recorded them (ControllerRevisions owned by its release), for the commit-mode rollback
 * suites: the world's releases were applied by Flux, so they start with no history.
 */
import type { Sandbox } from '@agent-manager/kube-sandbox';
import { AGENT_LABEL, buildRevision } from '../../src/core/revisions/revision-record.js';

export const NIGHT_SHIFT = {
  agent: { name: 'sre', displayName: 'Night shift' },
  modelConfig: { name: 'default-model-config' },
  toolset: ['preset:kubernetes-read', 'server:prometheus'],
};

export function seedRevision(sandbox: Sandbox, revision: number, values: Record<string, unknown>, agent = 'sre'): void {
  const release = sandbox.store.get('helmreleases', 'kagent', agent) as unknown as { metadata: { uid: string } };
  const owner = { apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', name: agent, namespace: 'kagent', uid: release.metadata.uid };
  sandbox.store.create('controllerrevisions',
    buildRevision(agent, revision, owner, { operation: 'update', changed: [], values, requestedBy: 'bob@example.com' }), { fieldManager: 'test' });
}

/** Every recorded revision of the namespace, as `<agent>-<revision>`, sorted. */
export function storedRevisions(sandbox: Sandbox): string[] {
  return sandbox.store.list('controllerrevisions', { namespace: 'kagent' }).items
    .map((o) => `${(o.metadata as { labels: Record<string, string> }).labels[AGENT_LABEL]}-${o.revision as number}`).sort();
}
