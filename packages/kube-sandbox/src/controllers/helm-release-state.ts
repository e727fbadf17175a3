/**
 * What a HelmRelease reconcile is to do, decided from its state alone, as Flux's helm-controller
 * classifies a release before it picks an action (`internal/reconcile`): pure, so each branch is
 * tested on plain objects; the helm-controller reads, calls `classifyRelease`, then runs the one
 * action in `helm-actions/`. Statuses are Flux's: `lastHandled*At`, `lastAttempted*`, `history`.
 */
import { asList, isObject, type JsonObject } from '../api/json.js';
import { asConditions, type Condition } from './status-helpers.js';

/** Flux's request for a reconcile now: its value is copied to status.lastHandledReconcileAt once handled. */
export const RECONCILE_REQUESTED_AT = 'reconcile.fluxcd.io/requestedAt';
// `flux reconcile helmrelease --force` and `--reset` set these beside requestedAt, to the same token.
const FORCE_AT = 'reconcile.fluxcd.io/forceAt';
const RESET_AT = 'reconcile.fluxcd.io/resetAt';

const obj = (value: unknown): JsonObject => (isObject(value) ? value : {});
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The chart the release's source offers, or why it cannot be had. */
export type SourceState = ChartSource | { reason: string; message: string };
/** A ready source's chart: its version and the hex digest of its artifact. */
export interface ChartSource { version: string; digestHex: string }
/** Whether the target cluster answered (the helm-controller's `ReleaseTarget`, without its client). */
export type TargetState = { ok: true } | { ok: false; phase: 'client' | 'request'; message: string };
export type ReleaseVerb = 'install' | 'upgrade';

/** The status a reconcile starts from: the requests it saw acknowledged, a `--reset` applied. */
export interface HandledRequests { status: JsonObject; forceAt?: string; resetAt?: string }

/**
 * Every reconcile acknowledges the `requestedAt` it saw (what `flux reconcile` waits for) in
 * status.lastHandledReconcileAt; a force or reset counts once, when its token is the request's
 * and not yet handled; `--reset` starts the failure counts again, so a stalled release is tried anew.
 */
export function handledRequests(hr: JsonObject): HandledRequests {
  const annotations = obj(obj(hr.metadata).annotations);
  const status: JsonObject = structuredClone(obj(hr.status));
  const requested = str(annotations[RECONCILE_REQUESTED_AT]);
  if (requested !== '') status.lastHandledReconcileAt = requested;
  const asked = (key: string, handled: string) => {
    const token = str(annotations[key]);
    return token !== '' && token === requested && status[handled] !== token ? token : undefined;
  };
  const forceAt = asked(FORCE_AT, 'lastHandledForceAt');
  const resetAt = asked(RESET_AT, 'lastHandledResetAt');
  if (resetAt !== undefined) {
    for (const key of ['failures', 'installFailures', 'upgradeFailures']) delete status[key];
    status.lastHandledResetAt = resetAt;
  }
  return { status, forceAt, resetAt };
}

/** What `classifyRelease` looks at: the object's flags, the handled status, the source and the target. */
export interface ReleaseState extends HandledRequests {
  generation: number;
  deleting: boolean;
  hasFinalizer: boolean;
  suspended: boolean;
  /** Read only for a release that is neither deleting, unfinalized nor suspended. */
  source?: SourceState;
  /** Read only once the source is ready. */
  target?: TargetState;
  /** The values' `configDigest` (see valuesDigest). */
  configDigest: string;
}

/** The chart version Flux records: the chart's version and the first 12 hex digits of its digest. */
export const chartVersionOf = (source: ChartSource): string =>
  `${source.version}+${source.digestHex.slice(0, 12)}`;

/** One action of a reconcile, with what it needs beyond the release itself. */
export type ReleaseDecision =
  | { kind: 'uninstall' }
  | { kind: 'add-finalizer' }
  | { kind: 'suspended' }
  | { kind: 'wait-for-source'; reason: string; message: string }
  | { kind: 'unreachable'; phase: 'client' | 'request'; message: string }
  | { kind: 'in-sync'; deployed: JsonObject; chartVersion: string }
  /** The same values and chart failed before and no reset or force asks again: the failure stands. */
  | { kind: 'failure' }
  /** The attempt is recorded and Reconciling says it runs; the action follows in the next reconcile. */
  | { kind: 'prepare'; action: ReleaseVerb; chartVersion: string; source: ChartSource }
  | { kind: ReleaseVerb; chartVersion: string; source: ChartSource };

/** The status's Helm release history, newest first. */
export const historyOf = (status: JsonObject): JsonObject[] =>
  (Array.isArray(status.history) ? status.history : []).filter(isObject);
/** The status's conditions. */
export const conditionsIn = (status: JsonObject): Condition[] =>
  asConditions(asList(status.conditions));

/** The action for `state`, in the order helm-controller checks: deletion, finalizer, suspend, source, target. */
export function classifyRelease(state: ReleaseState): ReleaseDecision {
  if (state.deleting) return { kind: 'uninstall' };
  if (!state.hasFinalizer) return { kind: 'add-finalizer' };
  if (state.suspended) return { kind: 'suspended' };
  const { source, target } = state;
  if (!source || 'reason' in source) {
    return { kind: 'wait-for-source', reason: source?.reason ?? 'SourceNotReady', message: source?.message ?? '' };
  }
  if (target && !target.ok) return { kind: 'unreachable', phase: target.phase, message: target.message };
  return classifyAttempt(state, source);
}

/** Given a ready source and a reachable cluster: in sync, failed for good, about to run, or running. */
function classifyAttempt(state: ReleaseState, source: ChartSource): ReleaseDecision {
  const { status, forceAt, resetAt, generation, configDigest } = state;
  const chartVersion = chartVersionOf(source);
  const history = historyOf(status);
  const deployed = history.find((h) => h.status === 'deployed');
  // --force: a Helm upgrade runs even when the release is in sync with what is deployed.
  if (forceAt === undefined && deployed && history[0] === deployed && deployed.chartVersion === chartVersion &&
    deployed.configDigest === configDigest) {
    return { kind: 'in-sync', deployed, chartVersion };
  }
  const conditions = conditionsIn(status);
  const ready = conditions.find((c) => c.type === 'Ready');
  const sameAttempt =
    status.lastAttemptedConfigDigest === configDigest && status.lastAttemptedRevision === chartVersion;
  if (sameAttempt && resetAt === undefined && forceAt === undefined && ready?.status === 'False' &&
    /^(Install|Upgrade)Failed$/.test(ready.reason)) {
    return { kind: 'failure' };
  }
  const action: ReleaseVerb = deployed ? 'upgrade' : 'install';
  const reconciling = conditions.find((c) => c.type === 'Reconciling');
  if (!(sameAttempt && status.lastAttemptedGeneration === generation && reconciling?.status === 'True' &&
    reconciling.observedGeneration === generation)) {
    return { kind: 'prepare', action, chartVersion, source };
  }
  return { kind: action, chartVersion, source };
}
