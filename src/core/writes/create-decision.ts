/**
 * create_agent's decision, staged as its reads answer: a name that is taken is a 409 before anything else
 * is judged (so it is reported as such whatever GitHub says of the skills), then the chart line's and the
 * ModelConfig's 400s, then the guards' and the chart schema's verdict on the values, and last where the
 * change goes: a pull request (commit mode) or the cluster, with the chart source created, dry-run or reused.
 * Pure: the service reads the facts, and acts.
 */
import { AppError, conflict, invalid } from '../errors.js';
import type { GuardRefusal, GuardVerdict } from '../guards/claude-guard.js';
import type { Values } from './compose.js';
import { refuse, type Refuse } from './write-decision.js';

export interface CreateNameFacts {
  namespace: string;
  name: string;
  /** The HelmRelease of the name, when there is one: `live` unless it is being deleted. */
  release?: { live: boolean };
  /** An Agent CR of the name exists without a release (either chart line's). */
  bareAgent: boolean;
}

export function releaseExistsConflict(namespace: string, name: string): AppError {
  return conflict(`HelmRelease ${namespace}/${name} already exists; use update_agent to change it`);
}

/** A release of that name is still being deleted (Flux uninstalls first): the name is free once it is gone. */
export function releaseTerminatingConflict(namespace: string, name: string): AppError {
  return conflict(`HelmRelease ${namespace}/${name} is being deleted; retry create_agent once it is gone`);
}

export function bareAgentExistsConflict(namespace: string, name: string): AppError {
  return conflict(
    `Agent ${namespace}/${name} already exists without a HelmRelease (a bare CR); delete it first (delete_agent with ` +
    `force) or pick another name`,
  );
}

/** The 409 of a name that is taken, or undefined when it is free. */
export function createNameRefusal(facts: CreateNameFacts): Refuse | undefined {
  const { namespace, name, release } = facts;
  if (release) {
    return refuse(release.live ? releaseExistsConflict(namespace, name) : releaseTerminatingConflict(namespace, name));
  }
  return facts.bareAgent ? refuse(bareAgentExistsConflict(namespace, name)) : undefined;
}

/** The 400 of what the namespace's chart line or its ModelConfigs refuse in the spec, in that order. */
export function createSpecRefusal(facts: { lineProblem?: string; modelConfigProblem?: string }): Refuse | undefined {
  const problem = facts.lineProblem ?? facts.modelConfigProblem;
  return problem === undefined ? undefined : refuse(invalid(problem));
}

/** What the claude-Harness guards answered: the values to write (with their verdict), or the refusal. */
export type GuardOutcome = { values: Values; guard?: GuardVerdict } | { refuse: GuardRefusal };

/** The error a guard refusal is answered with: its code and its first reason. */
export const guardRefusalError = (refusal: GuardRefusal): AppError =>
  new AppError(refusal.code, refusal.reasons[0] ?? 'refused');

/**
 * What happens to the namespace's chart source: `ensure` (created, or waited for while it is being
 * deleted), `dry-run` (its create is sent with dryRun=All), `reuse` (a live one), or `reuse-elsewhere`
 * (a live one whose URL is not the installation's chart: reused, and logged).
 */
export type SourceStep = 'ensure' | 'dry-run' | 'reuse' | 'reuse-elsewhere';

export interface CreateFacts {
  mode?: 'apply' | 'commit';
  dryRun: boolean;
  guarded: GuardOutcome;
  /** The chart schema's refusal of the guarded values; undefined when it accepts them (or the guards refused). */
  schemaProblem?: string;
  /** The namespace's chart source as read: undefined when there is none. */
  source?: { live: boolean; url: unknown };
  /** The installation's chart URL (`--chart-oci-url`). */
  chartOciUrl: string;
  /** The toolset notes the answer carries. */
  notes: string[];
}

export type CreateDecision =
  | Refuse
  | { kind: 'commit'; values: Values; notes: string[] }
  | { kind: 'apply'; values: Values; guard?: GuardVerdict; source: SourceStep; dryRun: boolean; notes: string[] };

/** The last stage: the guards' and the schema's refusals, then a proposal or an applied create. */
export function decideCreate(facts: CreateFacts): CreateDecision {
  const { guarded, notes } = facts;
  if ('refuse' in guarded) return refuse(guardRefusalError(guarded.refuse));
  if (facts.schemaProblem !== undefined) return refuse(invalid(facts.schemaProblem));
  if (facts.mode === 'commit') return { kind: 'commit', values: guarded.values, notes };
  return {
    kind: 'apply', values: guarded.values, ...(guarded.guard ? { guard: guarded.guard } : {}),
    source: sourceStep(facts), dryRun: facts.dryRun, notes,
  };
}

function sourceStep(facts: CreateFacts): SourceStep {
  if (!facts.source?.live) return facts.dryRun ? 'dry-run' : 'ensure';
  return facts.source.url === facts.chartOciUrl ? 'reuse' : 'reuse-elsewhere';
}

/**
 * What a failed release create means. Only a refusal the API server answered (4xx: `definite`) proves the
 * release was not written, so only then is a source this call created removed again (a 5xx, a timeout or a
 * dropped connection leaves the outcome unknown: the release may still land, and a release without its
 * source is broken while an unused source is harmless). A 409 is the name taken meanwhile: `placedTaken`
 * (on a workload cluster, another cluster's agent may own the release name) or the usual 409.
 */
export function createFailure(facts: {
  namespace: string; name: string; sourceCreated: boolean; dryRun: boolean; definite: boolean; conflict: boolean;
  placedTaken?: AppError;
}): { removeSource: boolean; error?: AppError } {
  const removeSource = facts.sourceCreated && !facts.dryRun && facts.definite;
  if (!facts.conflict) return { removeSource };
  return { removeSource, error: facts.placedTaken ?? releaseExistsConflict(facts.namespace, facts.name) };
}
