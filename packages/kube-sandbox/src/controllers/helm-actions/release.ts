/**
 * A Helm install or upgrade, run: the chart's own refusal of the values, a missing storage
 * namespace on another cluster, or the API server's refusal fails it (failure.ts); else the release
 * is deployed (an upgrade replaces what the chart rendered and keeps what others added, helm-apply.ts),
 * the history and inventory say so, and the failure counts start again.
 */
import { CHART_NAME } from '../agent-chart.js';
import { releaseFailure } from '../chart-lines.js';
import { metadata } from '../work-loop.js';
import { applyRelease, inventoryEntry, MANAGER } from '../helm-apply.js';
import { conditionsIn } from '../helm-release-state.js';
import type { ReleaseTarget } from '../remote-cluster.js';
import { recordEvent, removeConditions, subjectOf, writeStatus } from '../status-helpers.js';
import { historyEntry, recordAttempt, recordRelease, trimHistory, type Attempt } from './attempt.js';
import { HR, setAll, type Reconcile } from './common.js';
import { releaseFailed } from './failure.js';

export function runRelease(run: Reconcile, target: ReleaseTarget & { ok: true }, a: Attempt,
  forceAt: string | undefined): void {
  const { ctx, hr, status, generation } = run;
  recordAttempt(status, a, generation);
  if (forceAt !== undefined) status.lastHandledForceAt = forceAt;
  // Helm on another cluster writes its release records there first; a missing namespace stops it.
  const noStorage = target.server && !target.store.find('namespaces', '', a.storageNamespace)
    ? { kind: 'render' as const, message: `create: failed to create: namespaces "${a.storageNamespace}" not found` }
    : undefined;
  const failure = releaseFailure(a.values, a.source.version) ?? noStorage;
  const outcome = failure ?? applyRelease(target.store, hr, a.values, a.chartVersion, a.action);
  if (!Array.isArray(outcome)) return releaseFailed(run, target, a, outcome);
  status.history = trimHistory(hr, [historyEntry(a, 'deployed'),
    ...a.history.map((h) => (h.status === 'deployed' ? { ...h, status: 'superseded' } : h))]);
  status.inventory = { entries: outcome.map(inventoryEntry) };
  recordRelease(hr, target, a, 'deployed');
  for (const key of ['failures', 'installFailures', 'upgradeFailures']) delete status[key];
  const message = `Helm ${a.action} succeeded for release ${a.targetNamespace}/${a.releaseName}.v${a.version} ` +
    `with chart ${CHART_NAME}@${a.chartVersion}`;
  const conditions = setAll(removeConditions(conditionsIn(status), 'Stalled', 'Reconciling'), ['Ready', 'Released'],
    { status: 'True', reason: `${a.Action}Succeeded`, message, observedGeneration: generation });
  writeStatus(ctx.store, HR, hr, { ...status, observedGeneration: generation, conditions }, MANAGER);
  recordEvent(ctx.store, subjectOf(hr), 'Normal', `${a.Action}Succeeded`, message, MANAGER);
  const helmRelease = `${String(metadata(hr).namespace)}/${String(metadata(hr).name)}`;
  ctx.log?.info?.({ controller: MANAGER, helmRelease, chartVersion: a.chartVersion, revision: a.version },
    `helm-controller: ${a.action} of ${helmRelease} succeeded`);
}
