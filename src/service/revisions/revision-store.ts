/**
 * An agent's revisions in the cluster (ControllerRevisions, core/revisions/revision-record.ts): read with
 * everything a write decides on, recorded after the release write succeeded, never failing the write (a
 * failure is a note and a warning). The create and the prune of what the write read run in one round;
 * as a concurrent write's record can land after that read, or this one's after another's prune, the
 * history is listed again and pruned to the limit, so the last create is always followed by a prune that
 * sees every revision. Only the release's own count; none takes a stray's name; over 1 MiB is not kept.
 */
import {
  annotatedRevision, beyondLimit, buildRevision, nextRevision, parseRevision, REVISION_ANNOTATION, revisionSelector,
  type RevisionRecord, type StoredRevision,
} from '../../core/revisions/revision-record.js';
import type { Logger } from 'pino';
import { MAX_REVISION } from '../../core/revisions/revision-schema.js';
import { parseSkillRefs, SKILL_REFS_ANNOTATION } from '../../core/skills/skill-pins.js';
import { callerLogFields, type RequestContext } from '../../identity/caller.js';
import type { OperationEnv } from '../operation-env.js';
import type { KubeObject, KubePort } from '../ports.js';
import type { ResourceTypes } from '../resources.js';

/** The default of `--revision-history-limit`. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** The revisions labelled with an agent's name in one namespace, or why they could not be read. */
export interface HistoryRead {
  namespace: string;
  agent: string;
  /** Every labelled object that has a revision number (any owner; see releaseRevisions). */
  revisions: StoredRevision[];
  /** The name of every labelled object: no new revision may take one. */
  taken: ReadonlySet<string>;
  /** Labelled objects without a usable revision number (ignored, reported in the log). */
  unnumbered: readonly { name: string; uid?: string }[];
  error?: string;
  /** The failure behind `error` (an AppError from the port), for reads that surface it. */
  failure?: unknown;
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Lists an agent's revisions; never rejects. */
export async function readHistory(
  kube: KubePort, types: ResourceTypes, namespace: string, agent: string,
): Promise<HistoryRead> {
  try {
    const objects = await kube.list(types.controllerRevision, namespace, { labelSelector: revisionSelector(agent) });
    const revisions: StoredRevision[] = [];
    const unnumbered: { name: string; uid?: string }[] = [];
    for (const object of objects) {
      const parsed = parseRevision(object);
      if (parsed) revisions.push(parsed);
      else unnumbered.push({ name: object.metadata.name, uid: object.metadata.uid });
    }
    return { namespace, agent, revisions, unnumbered, taken: new Set(objects.map((o) => o.metadata.name)) };
  } catch (err) {
    return { namespace, agent, revisions: [], unnumbered: [], taken: new Set(), error: messageOf(err), failure: err };
  }
}

/** The history in the release's namespace: `read` when it was read there, else a second read. */
export async function historyNear(
  kube: KubePort, types: ResourceTypes, read: HistoryRead, release: KubeObject, agent: string,
): Promise<HistoryRead> {
  const namespace = release.metadata.namespace ?? read.namespace;
  return namespace === read.namespace ? read : readHistory(kube, types, namespace, agent);
}

/**
 * The revisions that belong to this release (owned by its uid). Any other object with the
 * label (a deleted release's leftovers not yet collected, or one labelled by hand or by
 * someone hostile) is no part of the history and does not count for the numbering; with
 * `log`, each is reported once.
 */
export function releaseRevisions(
  history: HistoryRead, release: KubeObject | undefined, log?: Logger,
): StoredRevision[] {
  const uid = release?.metadata.uid;
  const owned = history.revisions.filter((r) => release !== undefined && (uid === undefined || r.ownerUid === uid));
  if (log) {
    const strays = [
      ...history.revisions.filter((r) => !owned.includes(r)).map((r) =>
        ({ name: r.name, uid: r.ownerUid, why: 'not owned by the release' })),
      ...history.unnumbered.map((u) => ({ name: u.name, uid: u.uid,
        why: `no revision number from 1 to ${MAX_REVISION}` })),
    ];
    for (const stray of strays) reportOnce(log, history, stray);
  }
  return owned;
}

/** Strays already reported; only to keep the log quiet (nothing depends on it), so bounded and per process. */
const reported = new Set<string>();
const REPORTED_MAX = 10_000;

function reportOnce(log: Logger, history: HistoryRead, stray: { name: string; uid?: string; why: string }): void {
  const key = `${history.namespace}/${stray.name}/${stray.uid ?? ''}`;
  if (reported.has(key)) return;
  if (reported.size >= REPORTED_MAX) reported.clear();
  reported.add(key);
  log.warn({ namespace: history.namespace, agent: history.agent, controllerRevision: stray.name, reason: stray.why },
    'ControllerRevision with the agent label ignored: it is not part of the agent\'s history');
}

/**
 * The number the next write of `release` records (`release` undefined: a create), from the
 * release's own revisions, skipping names other objects hold; undefined when none is left.
 */
export function nextNumber(history: HistoryRead, release: KubeObject | undefined): number | undefined {
  const owned = releaseRevisions(history, release).map((r) => r.revision);
  return nextRevision(annotatedRevision(release?.metadata.annotations), owned, history.taken, history.agent);
}

/** Writes the revision number onto the release about to be written (none left: the annotation stays as it is). */
export function stampRevision(release: KubeObject, revision: number | undefined): void {
  if (revision === undefined) return;
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

/** The largest revision recorded: API servers refuse objects of about 1.5 MiB (etcd's request limit). */
export const MAX_REVISION_BYTES = 1 << 20;

/** Records revision `revision` of the written release and prunes the history; never rejects. */
export async function recordRevision(
  env: OperationEnv, ctx: RequestContext, kube: KubePort,
  args: {
    agent: string; release: KubeObject; revision: number | undefined; record: RevisionRecord; history: HistoryRead;
  },
): Promise<Recorded> {
  const { agent, release, revision, history } = args;
  const namespace = release.metadata.namespace ?? history.namespace;
  const where = `agent ${namespace}/${agent}`;
  const limit = revisionLimit(env);
  const notes: string[] = [];
  const log = { ...callerLogFields(ctx), namespace, agent, revision };
  const object = revisionToCreate(ctx, args, { namespace, where, limit, log }, notes);
  const obsolete = beyondLimit(releaseRevisions(history, release), limit - 1);
  const create = object ? kube.create(env.types.controllerRevision, object) : undefined;
  const [created, ...removed] = await Promise.allSettled([
    create ?? Promise.resolve(undefined),
    ...obsolete.map((r) => kube.remove(env.types.controllerRevision, namespace, r.name)),
  ]);
  if (created.status === 'rejected') {
    const why = messageOf(created.reason);
    notes.push(`revision ${String(revision)} of ${where} was not recorded (the change itself was applied): ${why}`);
    ctx.log.warn({ ...log, err: why }, 'revision not recorded');
  }
  const failed = rejections(removed);
  if (create && created.status === 'fulfilled') {
    const again = await pruneAfterCreate(env, kube, history, release, limit, obsolete.map((r) => r.name));
    failed.push(...again.failed);
    if (again.error !== undefined) {
      notes.push(`the revision history of ${where} could not be listed after recording revision ${String(revision)}, ` +
        `so a revision a concurrent write recorded may be kept beyond the limit until the next write: ${again.error}`);
      ctx.log.warn({ ...log, err: again.error }, 'revision history not readable after recording');
    }
  }
  if (failed.length > 0) {
    notes.push(`${failed.length} revision(s) of ${where} beyond the history limit of ${limit} could not be ` +
      `deleted: ${failed[0]}`);
    ctx.log.warn({ ...log, err: failed[0], failed: failed.length }, 'old revisions not deleted');
  }
  if (history.error) {
    notes.push(`the revision history of ${where} could not be read, so older revisions were not pruned: ` +
      `${history.error}`);
    ctx.log.warn({ ...log, err: history.error }, 'revision history not readable');
  }
  return create && created.status === 'fulfilled' ? { revision, notes } : { notes };
}

/**
 * The ControllerRevision recording `revision`, or undefined when none is created: no number left or too large
 * (each noted for the caller and logged), no history kept (limit 0), or a release with no uid to own it.
 */
function revisionToCreate(
  ctx: RequestContext,
  args: { agent: string; release: KubeObject; revision: number | undefined; record: RevisionRecord },
  at: { namespace: string; where: string; limit: number; log: object }, notes: string[],
): KubeObject | undefined {
  const { agent, release, revision } = args;
  const { where, log } = at;
  const owner = {
    apiVersion: release.apiVersion, kind: release.kind, name: release.metadata.name, namespace: at.namespace,
    uid: release.metadata.uid ?? '',
  };
  if (revision === undefined) {
    notes.push(`no revision of ${where} was recorded (the change itself was applied): every revision number up to ` +
      `${MAX_REVISION} is taken`);
    ctx.log.warn(log, 'revision not recorded: no number left');
    return undefined;
  }
  if (at.limit <= 0 || owner.uid === '') return undefined;
  const object = buildRevision(agent, revision, owner, withAskedSkills(args.record, release));
  const bytes = Buffer.byteLength(JSON.stringify(object));
  if (bytes <= MAX_REVISION_BYTES) return object;
  notes.push(`revision ${revision} of ${where} was not recorded (the change itself was applied): it would be ` +
    `${bytes} bytes, more than the 1 MiB a revision may hold`);
  ctx.log.warn({ ...log, bytes }, 'revision not recorded: too large');
  return undefined;
}

const rejections = (settled: PromiseSettledResult<unknown>[]): string[] =>
  settled.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => messageOf(r.reason));

/**
 * The prune that follows this write's create: the release's revisions listed again (the create
 * included) and those beyond the newest `limit` deleted, but for the ones the first prune already
 * took (`deleted`). A revision another write deletes at the same time is gone either way (a 404 is no
 * failure). Answers the deletions that failed, or why the history could not be listed (it stays pruned
 * as read).
 */
async function pruneAfterCreate(
  env: OperationEnv, kube: KubePort, read: HistoryRead, release: KubeObject, limit: number, deleted: string[],
): Promise<{ failed: string[]; error?: string }> {
  const namespace = release.metadata.namespace ?? read.namespace;
  const fresh = await readHistory(kube, env.types, namespace, read.agent);
  if (fresh.error !== undefined) return { failed: [], error: fresh.error };
  const obsolete = beyondLimit(releaseRevisions(fresh, release), limit).filter((r) => !deleted.includes(r.name));
  const removed = await Promise.allSettled(
    obsolete.map((r) => kube.remove(env.types.controllerRevision, namespace, r.name)),
  );
  return { failed: rejections(removed) };
}

/** The record with what the release's pinned skills asked for (its skill-refs annotation), so a revision keeps both. */
function withAskedSkills(record: RevisionRecord, release: KubeObject): RevisionRecord {
  if (record.skillRefs) return record;
  const skillRefs = parseSkillRefs(release.metadata.annotations?.[SKILL_REFS_ANNOTATION]);
  return skillRefs.gitRefs || skillRefs.refs ? { ...record, skillRefs } : record;
}
