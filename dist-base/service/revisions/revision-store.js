/**
 * An agent's revisions in the cluster (ControllerRevisions, core/revisions/revision-record.ts): read in the same round
 * as everything a write decides on, recorded after the release write succeeded. Neither reading nor
 * recording ever fails the write (a failure is a note and a warning); the create and the prune beyond
 * `--revision-history-limit` run in one concurrent round, so recording costs one sequential request;
 * only revisions owned by the release count, and no new one takes a stray's name; over 1 MiB is not
 * recorded. docs/revisions.md "Rules" gives each rule.
 */
import { annotatedRevision, beyondLimit, buildRevision, nextRevision, parseRevision, REVISION_ANNOTATION, revisionSelector, } from '../../core/revisions/revision-record.js';
import { MAX_REVISION } from '../../core/revisions/revision-schema.js';
import { parseSkillRefs, SKILL_REFS_ANNOTATION } from '../../core/skills/skill-pins.js';
import { callerLogFields } from '../../identity/caller.js';
/** The default of `--revision-history-limit`. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;
const messageOf = (err) => (err instanceof Error ? err.message : String(err));
/** Lists an agent's revisions; never rejects. */
export async function readHistory(kube, types, namespace, agent) {
    try {
        const objects = await kube.list(types.controllerRevision, namespace, { labelSelector: revisionSelector(agent) });
        const revisions = [];
        const unnumbered = [];
        for (const object of objects) {
            const parsed = parseRevision(object);
            if (parsed)
                revisions.push(parsed);
            else
                unnumbered.push({ name: object.metadata.name, uid: object.metadata.uid });
        }
        return { namespace, agent, revisions, unnumbered, taken: new Set(objects.map((o) => o.metadata.name)) };
    }
    catch (err) {
        return { namespace, agent, revisions: [], unnumbered: [], taken: new Set(), error: messageOf(err), failure: err };
    }
}
/** The history in the release's namespace: `read` when it was read there, else a second read. */
export async function historyNear(kube, types, read, release, agent) {
    const namespace = release.metadata.namespace ?? read.namespace;
    return namespace === read.namespace ? read : readHistory(kube, types, namespace, agent);
}
/**
 * The revisions that belong to this release (owned by its uid). Any other object with the
 * label (a deleted release's leftovers not yet collected, or one labelled by hand or by
 * someone hostile) is no part of the history and does not count for the numbering; with
 * `log`, each is reported once.
 */
export function releaseRevisions(history, release, log) {
    const uid = release?.metadata.uid;
    const owned = history.revisions.filter((r) => release !== undefined && (uid === undefined || r.ownerUid === uid));
    if (log) {
        const strays = [
            ...history.revisions.filter((r) => !owned.includes(r)).map((r) => ({ name: r.name, uid: r.ownerUid, why: 'not owned by the release' })),
            ...history.unnumbered.map((u) => ({ name: u.name, uid: u.uid,
                why: `no revision number from 1 to ${MAX_REVISION}` })),
        ];
        for (const stray of strays)
            reportOnce(log, history, stray);
    }
    return owned;
}
/** Strays already reported; only to keep the log quiet (nothing depends on it), so bounded and per process. */
const reported = new Set();
const REPORTED_MAX = 10_000;
function reportOnce(log, history, stray) {
    const key = `${history.namespace}/${stray.name}/${stray.uid ?? ''}`;
    if (reported.has(key))
        return;
    if (reported.size >= REPORTED_MAX)
        reported.clear();
    reported.add(key);
    log.warn({ namespace: history.namespace, agent: history.agent, controllerRevision: stray.name, reason: stray.why }, 'ControllerRevision with the agent label ignored: it is not part of the agent\'s history');
}
/**
 * The number the next write of `release` records (`release` undefined: a create), from the
 * release's own revisions, skipping names other objects hold; undefined when none is left.
 */
export function nextNumber(history, release) {
    const owned = releaseRevisions(history, release).map((r) => r.revision);
    return nextRevision(annotatedRevision(release?.metadata.annotations), owned, history.taken, history.agent);
}
/** Writes the revision number onto the release about to be written (none left: the annotation stays as it is). */
export function stampRevision(release, revision) {
    if (revision === undefined)
        return;
    release.metadata.annotations = { ...release.metadata.annotations, [REVISION_ANNOTATION]: String(revision) };
}
export function revisionLimit(env) {
    return Math.max(0, env.settings.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT);
}
/** The largest revision recorded: API servers refuse objects of about 1.5 MiB (etcd's request limit). */
export const MAX_REVISION_BYTES = 1 << 20;
/** Records revision `revision` of the written release and prunes the history; never rejects. */
export async function recordRevision(env, ctx, kube, args) {
    const { agent, release, revision, history } = args;
    const namespace = release.metadata.namespace ?? history.namespace;
    const where = `agent ${namespace}/${agent}`;
    const limit = revisionLimit(env);
    const notes = [];
    const log = { ...callerLogFields(ctx), namespace, agent, revision };
    const owner = {
        apiVersion: release.apiVersion, kind: release.kind, name: release.metadata.name, namespace,
        uid: release.metadata.uid ?? '',
    };
    let object;
    if (revision === undefined) {
        notes.push(`no revision of ${where} was recorded (the change itself was applied): every revision number up to ` +
            `${MAX_REVISION} is taken`);
        ctx.log.warn(log, 'revision not recorded: no number left');
    }
    else if (limit > 0 && owner.uid !== '') {
        object = buildRevision(agent, revision, owner, withAskedSkills(args.record, release));
        const bytes = Buffer.byteLength(JSON.stringify(object));
        if (bytes > MAX_REVISION_BYTES) {
            object = undefined;
            notes.push(`revision ${revision} of ${where} was not recorded (the change itself was applied): it would be ` +
                `${bytes} bytes, more than the 1 MiB a revision may hold`);
            ctx.log.warn({ ...log, bytes }, 'revision not recorded: too large');
        }
    }
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
    const failed = removed.filter((r) => r.status === 'rejected').map((r) => messageOf(r.reason));
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
/** The record with what the release's pinned skills asked for (its skill-refs annotation), so a revision keeps both. */
function withAskedSkills(record, release) {
    if (record.skillRefs)
        return record;
    const skillRefs = parseSkillRefs(release.metadata.annotations?.[SKILL_REFS_ANNOTATION]);
    return skillRefs.gitRefs || skillRefs.refs ? { ...record, skillRefs } : record;
}
//# sourceMappingURL=revision-store.js.map