/**
 * Conflict-safe writes, the pure half: `version` (REST `If-Match`; changes with spec, labels and annotations,
 * not status) or `resourceVersion` (strict: any write since refuses it). One that no longer holds is refused
 * (412 on REST) rather than merged over a colleague's edit; one that holds still writes at exactly the
 * resourceVersion read, so a change landing in between is refused by the API server, never lost.
 * docs/safe-change.md "Conflict-safe edits" has the full rules; service/writes/release-facts.ts reads the facts.
 */
import { conflict, PreconditionFailed } from '../errors.js';

/** What a write says it was based on. */
export interface Preconditions {
  resourceVersion?: string;
  version?: string;
}

/** Where the agent's HelmRelease is now: its resourceVersion and the agent's `version` (undefined: no release). */
export interface ReleaseVersions {
  resourceVersion?: string;
  version?: string;
}

/** True when the write names something it was based on. */
export const hasPrecondition = (p: Preconditions): boolean =>
  p.resourceVersion !== undefined || p.version !== undefined;

/** The error naming the version the caller read and the current one. */
export function agentChanged(
  namespace: string, name: string, read: string, now: string | undefined, cause?: unknown,
): PreconditionFailed {
  const current = now === undefined ? 'it has no HelmRelease now' : `now ${now}`;
  // A caller's version may be any length (an If-Match header): the message quotes 200 characters of it.
  const shown = read.length > 200 ? `${read.slice(0, 200)}…` : read;
  return new PreconditionFailed(
    `agent ${namespace}/${name} changed since version ${shown} was read (${current}); read it again`, { cause },
  );
}

/** The 409 of a write whose precondition held on our read but whose release moved before the write landed. */
export function changedDuringWrite(namespace: string, name: string, cause?: unknown) {
  return conflict(
    `agent ${namespace}/${name} changed between the precondition check and the write, which the API server refused; ` +
    `nothing was written: read it again and retry`,
    cause,
  );
}

/**
 * The 412 when a precondition does not hold on the release just read (`now` undefined: the agent has no
 * release); the resourceVersion one is judged first. Undefined when every precondition given holds.
 */
export function preconditionFailure(
  namespace: string, name: string, wanted: Preconditions, now: ReleaseVersions | undefined,
): PreconditionFailed | undefined {
  if (wanted.resourceVersion !== undefined && now?.resourceVersion !== wanted.resourceVersion) {
    return agentChanged(namespace, name, wanted.resourceVersion, now?.resourceVersion);
  }
  if (wanted.version !== undefined && now?.version !== wanted.version) {
    return agentChanged(namespace, name, wanted.version, now?.version);
  }
  return undefined;
}

/** The resourceVersion a write with a precondition is sent at (the one read); undefined without one. */
export function writeAt(wanted: Preconditions, now: ReleaseVersions | undefined): string | undefined {
  return hasPrecondition(wanted) ? now?.resourceVersion : undefined;
}

/** A precondition that names no version is a mistake, refused before anything is read. */
export function resourceVersionViolation(wanted: string | undefined): string | undefined {
  if (wanted === undefined || wanted.trim() !== '') return undefined;
  return 'resourceVersion is empty: pass the resourceVersion a read reported (get_agent), or leave it out';
}

/** As resourceVersionViolation, for `version`. */
export function versionViolation(wanted: string | undefined): string | undefined {
  if (wanted === undefined || wanted.trim() !== '') return undefined;
  return 'version is empty: pass the version a read or a write reported (get_agent), or leave it out';
}
