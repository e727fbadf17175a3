/**
 * rollback_agent's decision: which recorded revision is applied again, as an update through update_agent's
 * path (so every rule of an update holds, and its decision says noop, apply or commit). A revision the
 * agent does not have is a 404, a malformed one a 422, one of the other chart line a 409 (the way back is
 * migrate's reverse run), and one whose spec today's rules or the installation's presets refuse a 400.
 * The revision rules come in as `RevisionRules`: core/revisions and core/migration build on core/writes
 * (compose.ts), so core/writes does not import them back (no cycle between sibling folders).
 */
import { conflict, invalid, type AppError } from '../errors.js';
import type { ChartLine } from '../chart-lines/major-line.js';
import type { StoredRevision } from '../revisions/revision-record.js';
import type { SkillRefs } from '../skills/skill-pins.js';
import { unknownPresetViolation, type PresetPolicy } from '../toolset/toolset-preflight.js';
import type { AgentUpdate, CommitOptions, RevisionSpec } from '../types.js';
import type { Values } from './compose.js';
import { updateViolations } from './update-checks.js';
import { refuse, type Refuse } from './write-decision.js';

export interface RollbackFacts {
  /** The namespace the request resolved to, and as the request gave it (the update carries that one). */
  namespace: string;
  requestNamespace?: string;
  name: string;
  revision: number;
  force?: boolean;
  mode?: CommitOptions['mode'];
  /** The release's own revisions (owned by its uid), as read. */
  revisions: readonly StoredRevision[];
  /** The chart line the release renders now. */
  line: ChartLine;
  presets: PresetPolicy;
}

/**
 * The revision rules the decision applies: the refusals revision reads share (service/revisions/revision-reads.ts),
 * the chart-line check (core/migration/revision-line.ts) and the update a revision's spec makes
 * (core/revisions/revision-record.ts). Pure functions all.
 */
export interface RevisionRules {
  notFound(namespace: string, name: string, revision: number): AppError;
  malformed(namespace: string, name: string, revision: StoredRevision): AppError;
  crossLine(where: string, revision: number, values: Values, line: ChartLine): string | undefined;
  updateOf(spec: RevisionSpec, target: { name: string; namespace?: string; force?: boolean }): AgentUpdate;
}

export type RollbackDecision =
  | Refuse
  /** The update to make (the mode travels with it: in commit mode the ownership guards do not apply). */
  | { kind: 'update'; update: AgentUpdate; rolledBackTo: number; skillRefs: SkillRefs; applied: RevisionSpec };

export function decideRollback(facts: RollbackFacts, rules: RevisionRules): RollbackDecision {
  const { namespace, name, revision } = facts;
  const target = facts.revisions.find((r) => r.revision === revision);
  if (!target) return refuse(rules.notFound(namespace, name, revision));
  if (target.problem !== undefined) return refuse(rules.malformed(namespace, name, target));
  // A revision of the other chart line cannot be applied to this one: the way back is migrate's reverse run.
  const crossed = rules.crossLine(`${namespace}/${name}`, revision, target.values, facts.line);
  if (crossed) return refuse(conflict(crossed));
  const update = rules.updateOf(target.spec, { name, namespace: facts.requestNamespace, force: facts.force });
  // The revision's toolset meets today's rules, the installation's presets included (as update_agent's would).
  const [problem] = [...updateViolations(update), unknownPresetViolation(update.toolset, facts.presets)]
    .filter((p): p is string => Boolean(p));
  if (problem) return refuse(invalid(`revision ${revision} cannot be applied again: ${problem}`));
  // The revision's pins come back as they ran; its record says what they asked for (and what refreshSkills follows).
  return {
    kind: 'update', update: { ...update, mode: facts.mode }, rolledBackTo: revision,
    skillRefs: target.skillRefs ?? {}, applied: target.spec,
  };
}
