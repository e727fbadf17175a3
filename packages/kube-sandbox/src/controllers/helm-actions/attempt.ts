/**
 * One Helm install or upgrade as helm-controller records it: `lastAttempted*` before it runs, the
 * history entry it adds (newest first, at most `spec.maxHistory`), and on another cluster Helm's
 * release records beside what the release installed (helm-storage.ts).
 */
import { nowTimestamp, type JsonObject } from '../../api/json.js';
import { CHART_APP_VERSION, CHART_NAME } from '../agent-chart.js';
import { renderRelease } from '../chart-lines.js';
import { metadata } from '../work-loop.js';
import { releaseNameOf } from '../helm-apply.js';
import { storeRelease } from '../helm-storage.js';
import { historyOf, type ReleaseVerb } from '../helm-release-state.js';
import type { ReleaseTarget } from '../remote-cluster.js';
import { sha256Hex } from '../status-helpers.js';
import { obj, storageNamespaceOf, str, type Reconcile } from './common.js';

/** What an attempt runs with and records. */
export interface Attempt {
  action: ReleaseVerb;
  /** `Install` or `Upgrade`, as condition reasons and events spell it. */
  Action: 'Install' | 'Upgrade';
  chartVersion: string;
  source: { version: string; digestHex: string };
  values: JsonObject;
  configDigest: string;
  releaseName: string;
  targetNamespace: string;
  storageNamespace: string;
  history: JsonObject[];
  /** The revision this attempt would be: one above the highest in the history. */
  version: number;
}

export function attemptOf(run: Reconcile, action: ReleaseVerb, chartVersion: string,
  source: { version: string; digestHex: string }, configDigest: string): Attempt {
  const spec = obj(run.hr.spec);
  const history = historyOf(run.status);
  return {
    action, Action: action === 'install' ? 'Install' : 'Upgrade', chartVersion, source, values: obj(spec.values),
    configDigest, releaseName: releaseNameOf(run.hr),
    targetNamespace: str(spec.targetNamespace) || String(metadata(run.hr).namespace),
    storageNamespace: storageNamespaceOf(run.hr), history,
    version: history.reduce((max, h) => Math.max(max, Number(h.version ?? 0)), 0) + 1,
  };
}

/** helm-controller patches the attempt into the status before it runs a Helm action. */
export function recordAttempt(status: JsonObject, a: Attempt, generation: number): void {
  Object.assign(status, {
    lastAttemptedGeneration: generation, lastAttemptedConfigDigest: a.configDigest,
    lastAttemptedRevision: a.chartVersion, lastAttemptedRevisionDigest: `sha256:${a.source.digestHex}`,
    lastAttemptedReleaseAction: a.action, storageNamespace: a.storageNamespace,
  });
}

/** The history entry of this attempt in `state`. */
export function historyEntry(a: Attempt, state: 'deployed' | 'failed'): JsonObject {
  const now = nowTimestamp();
  return {
    name: a.releaseName, namespace: a.targetNamespace, version: a.version, status: state, chartName: CHART_NAME,
    chartVersion: a.chartVersion, appVersion: CHART_APP_VERSION, configDigest: a.configDigest,
    digest: `sha256:${sha256Hex(`${a.releaseName}.v${a.version}:${a.configDigest}:${a.chartVersion}`)}`,
    firstDeployed: str(a.history.at(-1)?.firstDeployed) || now, lastDeployed: now,
    ociDigest: `sha256:${a.source.digestHex}`, action: a.action,
  };
}

const maxHistoryOf = (hr: JsonObject): number => {
  const max = obj(hr.spec).maxHistory;
  return typeof max === 'number' ? max : 5;
};

/** `entries` cut to the release's `spec.maxHistory` (0: all). */
export function trimHistory(hr: JsonObject, entries: JsonObject[]): JsonObject[] {
  const maxHistory = maxHistoryOf(hr);
  return maxHistory > 0 ? entries.slice(0, maxHistory) : entries;
}

/** On a workload cluster Helm's release records are kept there, beside what the release installed. */
export function recordRelease(hr: JsonObject, target: ReleaseTarget & { ok: true }, a: Attempt,
  state: 'deployed' | 'failed'): void {
  if (!target.server) return;
  const { releaseName, targetNamespace: namespace, values } = a;
  storeRelease(target.store, {
    name: releaseName, namespace, storageNamespace: a.storageNamespace, version: a.version, status: state,
    action: a.action, chartVersion: a.chartVersion, values, maxHistory: maxHistoryOf(hr),
    rendered: renderRelease({ values, releaseName, namespace, chartVersion: a.source.version }),
  });
}
