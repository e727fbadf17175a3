/**
 * An agent's revisions in the cluster (ControllerRevisions, see core/revisions.ts):
 * read in the same round as everything else a write decides on, and recorded after the
 * release write succeeded.
 *
 * Rules:
 * - Reading the history never fails a write: an unreadable history is reported as an
 *   error and the write goes on (numbered from the release's annotation).
 * - Recording never fails the write either: the release is already written, so a
 *   revision that could not be created, or older ones that could not be deleted, become
 *   a note in the result and a warning in the log.
 * - The revision is created and the ones beyond `--revision-history-limit` are deleted
 *   in one concurrent round, so recording costs one sequential request; when the create
 *   fails after a prune, the history holds one revision fewer than the limit.
 * - Only revisions owned by this release (its uid) are its history; a deleted release's
 *   leftovers, not yet collected, still count for the numbering, so no name is reused.
 */
import {
  annotatedRevision, beyondLimit, buildRevision, nextRevision, parseRevision, REVISION_ANNOTATION, revisionSelector,
  type RevisionRecord, type StoredRevision,
} from '../core/revisions.js';
import { callerLogValue, type RequestContext } from '../identity/caller.js';
import type { OperationEnv } from './operation-env.js';
import type { KubeObject, KubePort } from './ports.js';
import type { ResourceTypes } from './resources.js';

/** The default of `--revision-history-limit`. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** The revisions labelled with an agent's name in one namespace, or why they could not be read. */
export interface HistoryRead {
  namespace: string;
  revisions: StoredRevision[];
  error?: string;
  /** The failure behind `error` (an AppError from the port), for reads that surface it. */
  failure?: unknown;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Lists an agent's revisions; never rejects. */
export async function readHistory(kube: KubePort, types: ResourceTypes, namespace: string, agent: string): Promise<HistoryRead> {
  try {
    const objects = await kube.list(types.controllerRevision, namespace, { labelSelector: revisionSelector(agent) });
    const revisions = objects.map((o) => parseRevision(o)).filter((r): r is StoredRevision => r !== undefined);
    return { namespace, revisions };
  } catch (err) {
    return { namespace, revisions: [], error: messageOf(err), failure: err };
  }
}

/** The history in the release's namespace: `read` when it was read there, else a second read. */
export async function historyNear(
  kube: KubePort, types: ResourceTypes, read: HistoryRead, release: KubeObject, agent: string,
): Promise<HistoryRead> {
  const namespace = release.metadata.namespace ?? read.namespace;
  return namespace === read.namespace ? read : readHistory(kube, types, namespace, agent);
}

/** The revisions that belong to this release. */
export function releaseRevisions(history: HistoryRead, release: KubeObject): StoredRevision[] {
  const uid = release.metadata.uid;
  return history.revisions.filter((r) => uid === undefined || r.ownerUid === uid);
}

/** The number the next write of `release` records (`release` undefined: a create). */
export function nextNumber(history: HistoryRead, release: KubeObject | undefined): number {
  return nextRevision(annotatedRevision(release?.metadata.annotations), history.revisions.map((r) => r.revision));
}

/** Writes the revision number onto the release about to be written. */
export function stampRevision(release: KubeObject, revision: number): void {
  release.metadata.annotations = { ...release.metadata.annotations, [REVISION_ANNOTATION]: String(revision) };
}

export function revisionLimit(env: OperationEnv): number {
  return Math.max(0, env.settings.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT);
}

/** What recording left behind: the revision, when it was created, and notes for the caller. */
export interface Recorded {
  revision?: number;
  notes: string[];
}

/** Records revision `revision` of the written release and prunes the history; never rejects. */
export async function recordRevision(
  env: OperationEnv, ctx: RequestContext, kube: KubePort,
  args: { agent: string; release: KubeObject; revision: number; record: RevisionRecord; history: HistoryRead },
): Promise<Recorded> {
  const { agent, release, revision, history } = args;
  const namespace = release.metadata.namespace ?? history.namespace;
  const where = `agent ${namespace}/${agent}`;
  const limit = revisionLimit(env);
  const notes: string[] = [];
  const owner = {
    apiVersion: release.apiVersion, kind: release.kind, name: release.metadata.name, namespace, uid: release.metadata.uid ?? '',
  };
  const obsolete = beyondLimit(releaseRevisions(history, release), limit - 1);
  const create = limit > 0 && owner.uid !== ''
    ? kube.create(env.types.controllerRevision, buildRevision(agent, revision, owner, args.record) as KubeObject)
    : undefined;
  const [created, ...removed] = await Promise.allSettled([
    create ?? Promise.resolve(undefined),
    ...obsolete.map((r) => kube.remove(env.types.controllerRevision, namespace, r.name)),
  ]);
  const log = { caller: callerLogValue(ctx.caller), namespace, name: agent, revision };
  if (created!.status === 'rejected') {
    const why = messageOf(created.reason);
    notes.push(`revision ${revision} of ${where} was not recorded (the change itself was applied): ${why}`);
    ctx.log.warn({ ...log, err: why }, 'revision not recorded');
  }
  const failed = removed.filter((r) => r.status === 'rejected').map((r) => messageOf((r as PromiseRejectedResult).reason));
  if (failed.length > 0) {
    notes.push(`${failed.length} revision(s) of ${where} beyond the history limit of ${limit} could not be deleted: ${failed[0]}`);
    ctx.log.warn({ ...log, err: failed[0], failed: failed.length }, 'old revisions not deleted');
  }
  if (history.error) {
    notes.push(`the revision history of ${where} could not be read, so older revisions were not pruned: ${history.error}`);
    ctx.log.warn({ ...log, err: history.error }, 'revision history not readable');
  }
  return create && created!.status === 'fulfilled' ? { revision, notes } : { notes };
}
