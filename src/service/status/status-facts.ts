/**
 * The facts of a status that do not depend on the chart line: the objects a status is folded from, a release's
 * facts (Flux's conditions, generations, history) and the generations a Status carries at its top. Both chart
 * lines' folds read them (status.ts for 0.x, status-2x.ts for 2.x).
 */
import type { HistoryEntry, Status } from '../../core/types.js';
import type { StatusFacts } from '../../core/status/verdict.js';
import { asObject, finiteNumberOr, wholeNumber } from '../../core/json.js';
import { parseHelmRelease } from '../../core/objects/helm-release-view.js';
import type { KubeObject } from '../ports.js';
import { helmReleaseRef } from '../reads/read-model.js';

/** The objects a status is folded from, however they were read (a round of reads, or watches). */
export interface StatusObjects {
  agent?: KubeObject;
  release?: KubeObject;
  deployment?: KubeObject;
  pods: readonly KubeObject[];
  /** The namespace's Warning events (the fold keeps those about the agent and its pods). */
  events: readonly KubeObject[];
}

/** `metadata.generation` and `status.observedGeneration`, where the object carries them. */
export function generations(object: KubeObject): { generation?: number; observedGeneration?: number } {
  const out: { generation?: number; observedGeneration?: number } = {};
  const generation = wholeNumber(object.metadata.generation);
  const observed = wholeNumber(asObject(object.status).observedGeneration);
  if (generation !== undefined) out.generation = generation;
  if (observed !== undefined) out.observedGeneration = observed;
  return out;
}

export function releaseFacts(release: KubeObject): NonNullable<StatusFacts['helmRelease']> {
  const view = parseHelmRelease(release);
  const ref = helmReleaseRef(view);
  const { conditions } = view.status;
  const history = view.status.history
    .slice(0, 5)
    .map((h): HistoryEntry => {
      const entry: HistoryEntry = { version: finiteNumberOr(h.version, 0) };
      if (typeof h.chartVersion === 'string') entry.chartVersion = h.chartVersion;
      if (typeof h.status === 'string') entry.status = h.status;
      if (typeof h.lastDeployed === 'string') entry.lastDeployed = h.lastDeployed;
      return entry;
    });
  const facts: NonNullable<StatusFacts['helmRelease']> = {
    exists: true,
    ready: ref.ready,
    suspended: ref.suspended,
    gitOpsOwned: ref.gitOpsOwned,
    deleting: ref.deleting,
    ...generations(release),
  };
  const lastAttempted = view.status.lastAttemptedGeneration;
  if (lastAttempted !== undefined) facts.lastAttemptedGeneration = lastAttempted;
  if (conditions.length > 0) facts.conditions = conditions;
  if (history.length > 0) facts.history = history;
  if (ref.lastAttemptedRevision) facts.lastAttemptedRevision = ref.lastAttemptedRevision;
  return facts;
}

/** The facts of a release that does not exist. */
export const NO_RELEASE: NonNullable<StatusFacts['helmRelease']> = {
  exists: false, ready: null, suspended: false, gitOpsOwned: false, deleting: false,
};

/** What a Status says at its top of its release: its generation, what helm-controller observed, suspended. */
export function releaseTop(hr: StatusFacts['helmRelease']): Pick<Status, 'generation' | 'observedGeneration' |
  'suspended'> {
  const top: Pick<Status, 'generation' | 'observedGeneration' | 'suspended'> = {};
  if (hr?.generation !== undefined) top.generation = hr.generation;
  if (hr?.observedGeneration !== undefined) top.observedGeneration = hr.observedGeneration;
  if (hr?.suspended) top.suspended = true;
  return top;
}
