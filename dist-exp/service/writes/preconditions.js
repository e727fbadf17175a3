/**
 * Conflict-safe writes: `version` (REST `If-Match`; changes with spec, labels and annotations, not status,
 * so a caller can chain it from write to write) or `resourceVersion` (strict: any write since refuses
 * it). One that no longer holds is refused (412 on REST) rather than merged over a colleague's edit; one
 * that holds still writes at exactly the resourceVersion read, so a change landing in between is refused
 * by the API server, never lost. Without a precondition updates merge into the newest values and retry
 * lost races. docs/safe-change.md "Conflict-safe edits" has the full rules.
 */
import { conflict, PreconditionFailed } from '../../core/errors.js';
import { agentVersion } from '../reads/agent-version.js';
/** True when the write names something it was based on. */
export const hasPrecondition = (p) => p.resourceVersion !== undefined || p.version !== undefined;
/** The error naming the version the caller read and the current one. */
export function agentChanged(namespace, name, read, now, cause) {
    const current = now === undefined ? 'it has no HelmRelease now' : `now ${now}`;
    // A caller's version may be any length (an If-Match header): the message quotes 200 characters of it.
    const shown = read.length > 200 ? `${read.slice(0, 200)}…` : read;
    return new PreconditionFailed(`agent ${namespace}/${name} changed since version ${shown} was read (${current}); read it again`, { cause });
}
/** The 409 of a write whose precondition held on our read but whose release moved before the write landed. */
export function changedDuringWrite(namespace, name, cause) {
    return conflict(`agent ${namespace}/${name} changed between the precondition check and the write, which the API server refused; ` +
        `nothing was written: read it again and retry`, cause);
}
/**
 * Throws when `wanted` is set and the release is not at that version. `release` is the
 * agent's HelmRelease as just read (undefined when the agent has none).
 */
export function checkPrecondition(namespace, name, wanted, release) {
    if (wanted === undefined)
        return;
    const now = release?.metadata.resourceVersion;
    if (now !== wanted)
        throw agentChanged(namespace, name, wanted, now);
}
/**
 * Throws when a precondition does not hold on the release just read; when any is set,
 * returns the resourceVersion the write is then sent at (the one read).
 */
export function checkPreconditions(namespace, name, wanted, release) {
    checkPrecondition(namespace, name, wanted.resourceVersion, release);
    if (wanted.version !== undefined) {
        const now = release ? agentVersion(release) : undefined;
        if (now !== wanted.version)
            throw agentChanged(namespace, name, wanted.version, now);
    }
    return hasPrecondition(wanted) ? release?.metadata.resourceVersion : undefined;
}
/** A precondition that names no version is a mistake, refused before anything is read. */
export function resourceVersionViolation(wanted) {
    if (wanted === undefined || wanted.trim() !== '')
        return undefined;
    return 'resourceVersion is empty: pass the resourceVersion a read reported (get_agent), or leave it out';
}
/** As resourceVersionViolation, for `version`. */
export function versionViolation(wanted) {
    if (wanted === undefined || wanted.trim() !== '')
        return undefined;
    return 'version is empty: pass the version a read or a write reported (get_agent), or leave it out';
}
//# sourceMappingURL=preconditions.js.map