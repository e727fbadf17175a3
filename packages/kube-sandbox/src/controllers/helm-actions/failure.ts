/**
 * A failed Helm action as helm-controller reports it with no retries left: Ready/Released False
 * `InstallFailed`/`UpgradeFailed`, Stalled, the failure counts, a Warning event; a release Helm
 * recorded before the API server refused its objects stays in the history as failed. Until the
 * values or the chart change (or `--reset`/`--force`), the failure stands, judged for each generation.
 */
import { conditionsIn } from '../helm-release-state.js';
import { CHART_NAME, type ChartFailure } from '../agent-chart.js';
import { metadata } from '../work-loop.js';
import { MANAGER } from '../helm-apply.js';
import type { ReleaseTarget } from '../remote-cluster.js';
import { recordEvent, removeConditions, setCondition, subjectOf, writeStatus } from '../status-helpers.js';
import { historyEntry, recordRelease, trimHistory, type Attempt } from './attempt.js';
import { forGeneration, HR, setAll, type Reconcile } from './common.js';

/** Retries exhausted: wait for new values or a new chart; the failure is judged again for this generation. */
export function failureStands({ ctx, hr, status, generation }: Reconcile): void {
  status.lastAttemptedGeneration = generation;
  writeStatus(ctx.store, HR, hr,
    { ...status, observedGeneration: generation, conditions: forGeneration(conditionsIn(status), generation) },
    MANAGER);
}

export function releaseFailed(run: Reconcile, target: ReleaseTarget & { ok: true }, a: Attempt,
  failure: ChartFailure): void {
  const { ctx, hr, status, generation } = run;
  if (failure.kind === 'apply') {
    status.history = trimHistory(hr, [historyEntry(a, 'failed'), ...a.history]);
    recordRelease(hr, target, a, 'failed');
  }
  const message = `Helm ${a.action} failed for release ${a.targetNamespace}/${a.releaseName} with chart ` +
    `${CHART_NAME}@${a.chartVersion}: ${failure.message}`;
  let conditions = setAll(removeConditions(conditionsIn(status), 'Reconciling'), ['Ready', 'Released'],
    { status: 'False', reason: `${a.Action}Failed`, message, observedGeneration: generation });
  conditions = setCondition(conditions,
    { type: 'Stalled', status: 'True', reason: 'RetriesExceeded', message: `Failed to ${a.action} after 1 attempt(s)`,
      observedGeneration: generation });
  status.failures = Number(status.failures ?? 0) + 1;
  status[`${a.action}Failures`] = Number(status[`${a.action}Failures`] ?? 0) + 1;
  writeStatus(ctx.store, HR, hr, { ...status, observedGeneration: generation, conditions }, MANAGER);
  recordEvent(ctx.store, subjectOf(hr), 'Warning', `${a.Action}Failed`, message, MANAGER);
  const helmRelease = `${String(metadata(hr).namespace)}/${String(metadata(hr).name)}`;
  ctx.log?.info?.({ controller: MANAGER, helmRelease, reason: `${a.Action}Failed` },
    `helm-controller: ${a.action} of ${helmRelease} failed`);
}
