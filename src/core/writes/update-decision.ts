/**
 * update_agent's decision (rollback_agent's too: an update whose change is a revision's spec), staged as
 * its reads answer, in today's order of refusals: which release may be written (a bare Agent CR, a
 * GitOps-owned or suspended release without force: 409; no agent: 404) and whether the preconditions hold
 * (412); then, once the skills are pinned and the change merged, the chart line's, the guards', the
 * ModelConfig's and the schema's refusals; last where the change goes: a pull request, nothing (nothing
 * changed) or the cluster. A lost race is retried unless a resourceVersion precondition pins the write.
 */
import { invalid, type AppError } from '../errors.js';
import { guardRefusalError, type GuardOutcome } from './create-decision.js';
import { preconditionFailure, type Preconditions } from './precondition-rules.js';
import { bareAgentConflict, ownershipConflict, refuse, type ReleaseFacts, type Refuse } from './write-decision.js';

/** `R`: the release's facts with whatever the service acts on (the object read); plain facts in a test. */
export interface UpdateTargetFacts<R extends ReleaseFacts = ReleaseFacts> {
  namespace: string;
  name: string;
  force: boolean;
  commit: boolean;
  wanted: Preconditions;
  /** The agent's HelmRelease as read; undefined when it has none. */
  release?: R;
  /** An Agent CR of the name was found (either chart line's). */
  agent: boolean;
  /** The 404 when there is no release and no Agent (naming a release of another chart, when one has the name). */
  missing: AppError;
}

/** The release the update writes (at the resourceVersion read, when a precondition was given), or the refusal. */
export function decideUpdateTarget<R extends ReleaseFacts>(
  facts: UpdateTargetFacts<R>,
): Refuse | { kind: 'target'; release: R } {
  const { namespace, name, release } = facts;
  if (!release) return refuse(facts.agent ? bareAgentConflict(namespace, name) : facts.missing);
  const owned = ownershipConflict(release, facts.force, facts.commit);
  // A GitOps-owned release refused in apply mode: the 409 says how to propose the change instead.
  if (owned) return { ...refuse(owned), commitHint: true };
  const failed = preconditionFailure(namespace, name, facts.wanted, release);
  return failed ? refuse(failed) : { kind: 'target', release };
}

/** The 400 of what the release's chart line refuses in the change (judged after the skills are pinned). */
export function lineRefusal(lineProblem: string | undefined): Refuse | undefined {
  return lineProblem === undefined ? undefined : refuse(invalid(lineProblem));
}

export interface UpdateFacts {
  commit: boolean;
  /** What the claude-Harness guards answered on the merged values. */
  guarded: GuardOutcome;
  /** Why the merged values' ModelConfig is not one of the namespace's. */
  modelConfigProblem?: string;
  /** The chart schema's refusal of the (guarded) merged values; undefined when it accepts them. */
  schemaProblem?: string;
  /** The value paths the merge changes. */
  changed: readonly string[];
  /**
   * The skill-refs annotation: `next` is the pinning's new text (null: remove it; undefined: the skills were
   * left alone), `current` what the release carries.
   */
  skillRefs: { next?: string | null; current?: string };
}

export type UpdateDecision =
  | Refuse
  | { kind: 'commit' }
  /** Nothing changed: nothing is written or recorded, the answer is the release as read. */
  | { kind: 'noop' }
  /** The merged values are written, with the skill-refs annotation set to `annotation` when it is defined. */
  | { kind: 'apply'; annotation?: string | null };

export function decideUpdate(facts: UpdateFacts): UpdateDecision {
  if ('refuse' in facts.guarded) return refuse(guardRefusalError(facts.guarded.refuse));
  const problem = facts.modelConfigProblem ?? facts.schemaProblem;
  if (problem !== undefined) return refuse(invalid(problem));
  if (facts.commit) return { kind: 'commit' };
  const { next, current } = facts.skillRefs;
  // What was asked can change without a pin changing (a tag at the branch's head): that is written too.
  const refsChanged = next !== undefined && (next ?? undefined) !== current;
  if (facts.changed.length === 0 && !refsChanged) return { kind: 'noop' };
  return { kind: 'apply', ...(next === undefined ? {} : { annotation: next }) };
}

/**
 * What a write that lost a race (409) does: without a precondition it is retried from a fresh read while
 * attempts are left (`retry`), else thrown as it came (`rethrow`); with a `resourceVersion` precondition it is
 * the 412 naming the version now (`race-lost`), since a retry would merge over a change the caller has not seen.
 */
export function updateConflictOutcome(
  facts: { conflict: boolean; resourceVersion?: string; attempt: number; attempts: number },
): 'rethrow' | 'race-lost' | 'retry' {
  if (!facts.conflict) return 'rethrow';
  if (facts.resourceVersion !== undefined) return 'race-lost';
  return facts.attempt < facts.attempts ? 'retry' : 'rethrow';
}
