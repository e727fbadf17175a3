/**
 * Skill pinning in the write pipeline: the step create, update, rollback and validate run before the
 * chart schema sees the values and before anything is written. It plans (core/skills/skill-pins.ts), asks the
 * SkillResolver for what is not pinned (each lookup once, a few at a time) and folds the answers in; a
 * failed lookup fails the write naming the skill (400 for a no, 502 when it could not ask). A pinner
 * serves one operation: retries of an update reuse its answers, and none outlives the request.
 */
import { AppError, backendError, invalid } from '../../core/errors.js';
import {
  applyPins, lookupKey, lookupsOf, parseSkillRefs, planPins, SKILL_REFS_ANNOTATION, skillRefsText, tooManyLookups,
  type PinLookup, type PinOptions, type SkillRefs,
} from '../../core/skills/skill-pins.js';
import { askedSkills } from '../../core/skills/skill-reads.js';
import { asObject } from '../../core/json.js';
import type { AgentUpdate, SkillsSpec } from '../../core/types.js';
import type { RequestContext } from '../../identity/caller.js';
import type { KubeObject, SkillResolver } from '../ports.js';

/** Lookups in flight at once for one write (an agent has a handful of skills). */
const CONCURRENCY = 4;

export interface Pinned {
  skills: SkillsSpec | undefined;
  /** What the skill-refs annotation says now. */
  refs: SkillRefs;
}

export class SkillPinner {
  private readonly answers = new Map<string, Promise<string>>();

  constructor(private readonly resolver: SkillResolver | undefined, private readonly ctx: RequestContext) {}

  /** True when skills are pinned at all (a resolver is configured). */
  get enabled(): boolean {
    return this.resolver !== undefined;
  }

  /** `skills` with every pin in place, and the record of what was asked. */
  async pin(skills: SkillsSpec | undefined, options: PinOptions = {}): Promise<Pinned> {
    const resolver = this.resolver;
    if (!resolver || !skills) return { skills, refs: {} };
    const plan = planPins(skills, options);
    const tooMany = tooManyLookups(plan);
    if (tooMany) throw invalid(tooMany);
    const lookups = lookupsOf(plan);
    const answers = new Map<string, string>();
    const failures = new Map<string, unknown>();
    for (let i = 0; i < lookups.length; i += CONCURRENCY) {
      const batch = lookups.slice(i, i + CONCURRENCY);
      await Promise.all(batch.map((lookup) => this.answer(resolver, lookup).then(
        (answer) => { answers.set(lookupKey(lookup), answer); },
        (reason: unknown) => { failures.set(lookupKey(lookup), reason); },
      )));
    }
    // The first failure in field order, so the same request always names the same skill.
    for (const planned of [...plan.gitRefs, ...plan.refs]) {
      const key = planned.lookup ? lookupKey(planned.lookup) : undefined;
      if (key !== undefined && failures.has(key)) throw naming(planned.at, failures.get(key));
    }
    return applyPins(skills, plan, answers);
  }

  /**
   * The pinning of an update of `release`: skills given are pinned (an entry still pinned
   * as the release has it keeps the ref it asked for); with `refresh` and no skills, the
   * release's skills are re-pinned to the head of what they asked for. `known` replaces the
   * release's record (a rollback passes the revision's). `annotation` is the new annotation
   * text, null to remove it, or undefined when the skills are left alone.
   */
  async pinUpdate(
    update: AgentUpdate, release: KubeObject, options: { refresh?: boolean; known?: SkillRefs } = {},
  ): Promise<{ update: AgentUpdate; annotation?: string | null }> {
    if (!this.resolver) return { update };
    const known = options.known ?? parseSkillRefs(release.metadata.annotations?.[SKILL_REFS_ANNOTATION]);
    let skills = update.skills;
    if (skills === undefined) {
      if (!options.refresh) return { update };
      skills = askedSkills(asObject(asObject(release.spec).values).skills, known);
      if (!skills) return { update };
    }
    const pinned = await this.pin(skills, { refresh: options.refresh, known });
    return { update: { ...update, skills: pinned.skills }, annotation: skillRefsText(pinned.refs) ?? null };
  }

  private answer(resolver: SkillResolver, lookup: PinLookup): Promise<string> {
    const key = lookupKey(lookup);
    let answer = this.answers.get(key);
    if (!answer) {
      answer = lookup.kind === 'git'
        ? resolver.gitCommit(lookup.url, lookup.ref, this.ctx.signal)
        : resolver.ociDigest(lookup.reference, this.ctx.signal);
      this.answers.set(key, answer);
      // A failed answer is not kept: a retry of the operation may ask again.
      answer.catch(() => this.answers.delete(key));
    }
    return answer;
  }
}

/** The lookup's failure, with the skill it was for in front. */
function naming(at: string, err: unknown): AppError {
  if (err instanceof AppError) return new AppError(err.code, `${at}: ${err.detail}`, { cause: err });
  return backendError(`${at}: ${err instanceof Error ? err.message : String(err)}`, err);
}

/** The annotations of `object` with the skill-refs annotation set to `text` (null or undefined: removed). */
export function withSkillRefs(object: KubeObject, text: string | null | undefined): void {
  const annotations = { ...(object.metadata.annotations ?? {}) };
  if (text) annotations[SKILL_REFS_ANNOTATION] = text;
  else delete annotations[SKILL_REFS_ANNOTATION];
  object.metadata.annotations = annotations;
}
