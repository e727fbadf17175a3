/**
 * delete_agent's decision, from what the lookup found: a bare Agent CR, a GitOps-owned or a suspended release
 * is removed only with force; commit mode removes the release's document from git, and has nothing to remove
 * for a bare CR; a precondition is judged on the release read, and a release deleted with one is deleted at
 * exactly the resourceVersion read. Refusals keep today's order: ownership, then preconditions.
 */
import { conflict, type AppError } from '../errors.js';
import { preconditionFailure, writeAt, type Preconditions } from './precondition-rules.js';
import { bareAgentConflict, ownershipConflict, refuse, type ReleaseFacts, type Refuse } from './write-decision.js';

/** `R`: the release's facts with whatever the service acts on (the object read); plain facts in a test. */
export interface DeleteFacts<R extends ReleaseFacts = ReleaseFacts> {
  namespace: string;
  name: string;
  mode?: 'apply' | 'commit';
  force: boolean;
  wanted: Preconditions;
  /** The agent's HelmRelease as read; undefined when it has none. */
  release?: R;
  /** An Agent CR of the name was found (either chart line's). */
  agent: boolean;
  /** The 404 when there is neither (it names a release of another chart that has the name, when there is one). */
  missing: AppError;
}

export type DeleteDecision<R extends ReleaseFacts = ReleaseFacts> =
  | Refuse
  | { kind: 'commit'; release: R }
  /** Only the bare Agent CR goes (force). */
  | { kind: 'apply'; target: 'agent' }
  /**
   * The release goes, at `writeAt` when a precondition was given; `removeAgent`: a suspended release's Agent
   * goes too (force), since Flux will not uninstall it.
   */
  | { kind: 'apply'; target: 'release'; release: R; writeAt?: string; removeAgent: boolean };

/** The 409 of a commit-mode delete of a bare Agent CR: there is no release to remove in git. */
export function bareAgentNotInGit(namespace: string, name: string): AppError {
  return conflict(
    `Agent ${namespace}/${name} is a bare CR with no HelmRelease behind it, so commit mode has no release to remove ` +
    `in git; delete it where it is defined, or with force in apply mode`,
  );
}

export function decideDelete<R extends ReleaseFacts>(facts: DeleteFacts<R>): DeleteDecision<R> {
  const { namespace, name, release, wanted } = facts;
  if (!release && !facts.agent) return refuse(facts.missing);
  if (!release) {
    // A proposal never writes to the cluster, and git holds no HelmRelease of a bare CR to remove.
    if (facts.mode === 'commit') return refuse(bareAgentNotInGit(namespace, name));
    if (!facts.force) return refuse(bareAgentConflict(namespace, name));
  } else if (facts.mode !== 'commit') {
    const owned = ownershipConflict(release, facts.force);
    if (owned) return { ...refuse(owned), commitHint: true };
  }
  const failed = preconditionFailure(namespace, name, wanted, release);
  if (failed) return refuse(failed);
  if (!release) return { kind: 'apply', target: 'agent' };
  if (facts.mode === 'commit') return { kind: 'commit', release };
  const at = writeAt(wanted, release);
  return {
    kind: 'apply', target: 'release', release, ...(at === undefined ? {} : { writeAt: at }),
    removeAgent: release.suspended && facts.force && facts.agent,
  };
}

/**
 * What a failed delete means. A 409 to a delete sent at a resourceVersion (a precondition held on our read) is
 * the API server's own check: with a `resourceVersion` precondition it is the 412 naming the version now
 * (`moved`, `read` being the caller's), with only a `version` one the release `changed` between check and
 * write. Anything else is thrown as it came (`rethrow`).
 */
export function deleteFailure(
  facts: { writeAt?: string; resourceVersion?: string; conflict: boolean },
): { kind: 'rethrow' } | { kind: 'changed' } | { kind: 'moved'; read: string } {
  if (facts.writeAt === undefined || !facts.conflict) return { kind: 'rethrow' };
  return facts.resourceVersion === undefined ? { kind: 'changed' } : { kind: 'moved', read: facts.resourceVersion };
}
