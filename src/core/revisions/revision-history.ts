/**
 * Reading an agent's history against its live release (docs/revisions.md "Reading the history"): the
 * revision the release carries (annotation and equal values), a leading `{revision: null, changed}`
 * entry when it was changed outside agent-manager since, malformed revisions listed with `error`, and
 * Flux's report per revision: the oldest `status.history` entry with its `configDigest` (sha256 of the
 * values as sigs.k8s.io/yaml writes them) deployed after it was recorded, so a rollback to equal values
 * does not borrow an older release's report.
 */
import { createHash } from 'node:crypto';
import type { Values } from '../writes/compose.js';
import { changedPaths, jsonEqual } from '../diff.js';
import { isJsonObject } from '../json.js';
import type { RevisionGuard, StoredRevision } from './revision-record.js';
import type { RevisionEntry } from '../types.js';
import { toYaml } from '../yaml.js';

/** One entry of a HelmRelease's `status.history`, the parts read here. */
export interface FluxSnapshot {
  configDigest?: string;
  chartVersion?: string;
  status?: string;
  lastDeployed?: string;
}

/** The live release, as the history is read against it. */
export interface LiveRelease {
  values: Values;
  annotated?: number;
  history: readonly FluxSnapshot[];
}

const sha256 = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/**
 * The digests Flux may have recorded for `values`: the YAML form, and for empty values
 * also the digest of nothing (newer helm-controllers digest nil instead of `{}`).
 */
export function valuesDigests(values: Values): string[] {
  const digests = [sha256(toYaml(values))];
  if (Object.keys(values).length === 0) digests.push(sha256(''));
  return digests;
}

/** The snapshots of a HelmRelease status, newest first as Flux keeps them. */
export function fluxHistory(status: unknown): FluxSnapshot[] {
  const history = isJsonObject(status) && Array.isArray(status.history) ? status.history : [];
  return history.filter(isJsonObject).map((h) => {
    const out: FluxSnapshot = {};
    for (const key of ['configDigest', 'chartVersion', 'status', 'lastDeployed'] as const) {
      if (typeof h[key] === 'string') out[key] = h[key];
    }
    return out;
  });
}

/** Second precision: Kubernetes timestamps carry whole seconds. */
const seconds = (time: string | undefined): number => Math.floor(Date.parse(time ?? '') / 1000);

/** What Flux reports for values recorded at `since` (undefined: not deployed yet, or no digest to match). */
export function fluxReport(values: Values, since: string | undefined,
  history: readonly FluxSnapshot[]): Pick<RevisionEntry, 'chartVersion' | 'status'> {
  const digests = valuesDigests(values);
  const from = seconds(since);
  const matching = history.filter((h) => h.configDigest !== undefined && digests.includes(h.configDigest));
  const after = Number.isNaN(from) ? matching : matching.filter((h) => !(seconds(h.lastDeployed) < from));
  const entry = after.at(-1);
  const out: Pick<RevisionEntry, 'chartVersion' | 'status'> = {};
  if (entry?.chartVersion) out.chartVersion = entry.chartVersion;
  if (entry?.status) out.status = entry.status;
  return out;
}

/** The revision the live release carries, or undefined when it was changed outside agent-manager. */
export function currentRevision(revisions: readonly StoredRevision[], live: LiveRelease): StoredRevision | undefined {
  // A malformed revision has no values to compare: it is never the current one.
  const newestFirst = [...revisions].filter((r) => r.problem === undefined).sort((a, b) => b.revision - a.revision);
  const candidate = live.annotated !== undefined
    ? newestFirst.find((r) => r.revision === live.annotated)
    : newestFirst.find((r) => jsonEqual(r.values, live.values));
  return candidate && jsonEqual(candidate.values, live.values) ? candidate : undefined;
}

/** A revision as list_agent_revisions reports it. */
export function revisionEntry(revision: StoredRevision, live: LiveRelease, current: boolean): RevisionEntry {
  const entry: RevisionEntry = {
    revision: revision.revision,
    createdAt: revision.createdAt,
    ...(revision.requestedBy ? { requestedBy: revision.requestedBy } : {}),
    ...(revision.operation !== undefined ? { operation: revision.operation } : {}),
    ...(revision.rolledBackTo !== undefined ? { rolledBackTo: revision.rolledBackTo } : {}),
    changed: [...revision.changed],
    ...(revision.guard ? { guard: guardCopy(revision.guard) } : {}),
  };
  if (revision.problem !== undefined) {
    entry.error = { code: 'invalid_request',
      message: `invalid request: the revision is malformed: ${revision.problem}` };
    return entry;
  }
  Object.assign(entry, fluxReport(revision.values, revision.createdAt, live.history));
  if (current) entry.current = true;
  return entry;
}

/** The whole list, newest first, with the `revision: null` entry when the release was changed elsewhere. */
export function revisionEntries(revisions: readonly StoredRevision[], live: LiveRelease): RevisionEntry[] {
  const newestFirst = [...revisions].sort((a, b) => b.revision - a.revision);
  const current = currentRevision(newestFirst, live);
  const entries = newestFirst.map((r) => revisionEntry(r, live, r === current));
  if (current) return entries;
  const newestReadable = newestFirst.find((r) => r.problem === undefined);
  const outOfBand: RevisionEntry = {
    revision: null,
    changed: changedPaths(newestReadable?.values ?? {}, live.values),
    ...fluxReport(live.values, undefined, live.history.slice(0, 1)),
    current: true,
  };
  return [outOfBand, ...entries];
}

/** A copy of a recorded guard verdict for an answer (the answer's lists are its own, not the revision's). */
function guardCopy(guard: RevisionGuard): NonNullable<RevisionEntry['guard']> {
  const { harness, caller, checkedAt } = guard;
  return { harness, caller, checkedAt, tools: guard.tools.map(({ name, readOnly }) => ({ name, readOnly })) };
}
