/**
 * Conflict-safe writes. An agent's version is the `resourceVersion` of its HelmRelease,
 * the object every write changes; reads and write results report it, and REST sends it
 * as a strong ETag. A write that names the version it was based on (REST `If-Match`, the
 * MCP argument `resourceVersion`) is refused when the release has changed since, instead
 * of merging over a colleague's edit. The API server holds the last word: the write is
 * sent with exactly that resourceVersion (PUT) or as a DeleteOptions precondition, so a
 * change that lands between our read and our write is refused by the API server too.
 *
 * Without a precondition nothing changes: updates merge into the newest values and retry
 * lost races, deletes delete whatever is there.
 */
import { PreconditionFailed } from '../core/errors.js';
import type { KubeObject } from './ports.js';

/** The error naming the version the caller read and the current one. */
export function agentChanged(
  namespace: string, name: string, read: string, now: string | undefined, cause?: unknown,
): PreconditionFailed {
  const current = now === undefined ? 'it has no HelmRelease now' : `now ${now}`;
  return new PreconditionFailed(
    `agent ${namespace}/${name} changed since version ${read} was read (${current}); read it again`, { cause },
  );
}

/**
 * Throws when `wanted` is set and the release is not at that version. `release` is the
 * agent's HelmRelease as just read (undefined when the agent has none).
 */
export function checkPrecondition(
  namespace: string, name: string, wanted: string | undefined, release: KubeObject | undefined,
): void {
  if (wanted === undefined) return;
  const now = release?.metadata.resourceVersion;
  if (now !== wanted) throw agentChanged(namespace, name, wanted, now);
}

/** A precondition that names no version is a mistake, refused before anything is read. */
export function resourceVersionViolation(wanted: string | undefined): string | undefined {
  if (wanted === undefined || wanted.trim() !== '') return undefined;
  return 'resourceVersion is empty: pass the resourceVersion a read reported (get_agent), or leave it out';
}
