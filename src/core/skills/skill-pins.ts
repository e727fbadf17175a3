/**
 * Skill pinning, the pure part: which skills need a lookup, and the pinned block (git `ref: <commit>`,
 * OCI `<host>/<repo>@sha256:<digest>`), so an agent runs what its revision recorded, as the agent chart
 * recommends for long-lived installs. What the caller asked for is kept in the release annotation
 * `agent-manager.giantswarm.io/skill-refs` so reads show both and a refresh knows what to follow
 * (docs/skills.md). Lookups are a resolver port's; inputs are never mutated.
 */
import { gitSkillName } from './skill-input.js';
import { parseSkillOci, pinnedOci, type SkillOciReference } from './skill-oci.js';
import type { GitRef, SkillsSpec } from '../types.js';
import { asObject, isJsonObject, stringOr } from '../json.js';

export const SKILL_REFS_ANNOTATION = 'agent-manager.giantswarm.io/skill-refs';

const FULL_COMMIT = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;

/**
 * The most lookups one write makes. Each is a request to GitHub or a registry made on the
 * caller's behalf with the installation's credentials, so a request naming thousands of
 * floating refs must not turn into thousands of requests (and a spent rate limit).
 */
export const MAX_PIN_LOOKUPS = 50;

/** True for a full commit id (SHA-1 or SHA-256 object name). */
export const isFullCommit = (s: string | undefined): s is string => typeof s === 'string' && FULL_COMMIT.test(s);

/** The annotation's content: what was asked for each pinned skill, matched by what it pinned to. */
export interface SkillRefs {
  /** A git skill: its mount name and url, the ref asked for (a branch, tag or commit; absent: the default branch,
   * or a commit given before commits were recorded), the commit. */
  gitRefs?: Array<{ name: string; url: string; ref?: string; commit: string }>;
  /** An OCI skill: the reference asked for and the digest it resolved to. */
  refs?: Array<{ ref: string; digest: string }>;
}

/** One lookup the pins need: the head commit of a ref, or the digest of a tag. */
export type PinLookup =
  | { kind: 'git'; url: string; ref?: string }
  | { kind: 'oci'; reference: SkillOciReference & { tag: string } };

/** The key a lookup's answer is stored under (one lookup per distinct key). */
export function lookupKey(lookup: PinLookup): string {
  return lookup.kind === 'git'
    ? `git ${lookup.url} ${lookup.ref ?? ''}`
    : `oci ${lookup.reference.registry}/${lookup.reference.repository}:${lookup.reference.tag}`;
}

/** A skill of the plan: where it is, what it asked for, and its pin or the lookup giving it. */
export interface PlannedPin {
  /** `skills.gitRefs[i]` or `skills.refs[i]`, for error messages. */
  at: string;
  /** What the caller asked for: the git ref or commit (absent: the default branch), or the OCI reference. */
  asked?: string;
  /** The pin when no lookup is needed. */
  pinned?: string;
  lookup?: PinLookup;
}

export interface PinPlan {
  gitRefs: PlannedPin[];
  refs: PlannedPin[];
}

export interface PinOptions {
  /** Re-resolve every skill: git skills to the head of the branch or tag asked (or the default branch; a commit
   * asked stays), OCI tags to their digest. */
  refresh?: boolean;
  /** What earlier writes asked for (the release's or the revision's annotation): recovers a pinned entry's ref. */
  known?: SkillRefs;
}

/**
 * The plan of a (validated) skills block. A git skill with a commit, or a full commit id
 * as ref, keeps it unless refreshing, and refreshing too when the commit is what it asked
 * for; any other is looked up (refreshing: the branch or tag it asked for, else the
 * default branch). An OCI reference with a
 * digest keeps it unless refreshing a known tag; a tag (none means `latest`) is looked up.
 * Throws nothing: an OCI reference that does not parse was refused by validation.
 */
export function planPins(skills: SkillsSpec | undefined, options: PinOptions = {}): PinPlan {
  const refresh = options.refresh === true;
  const gitRefs = (skills?.gitRefs ?? []).map((ref, i): PlannedPin => {
    const at = `skills.gitRefs[${i}]`;
    const given = ref.commit?.trim() || ref.ref?.trim() || undefined;
    const known = isFullCommit(given) ? knownGitRef(options.known, ref, given) : undefined;
    // What was asked: the record's ref for a pin an earlier write made (absent there: the default branch), else
    // what is given, a commit included (as `ref` or `commit`), so the record tells a commit asked from a branch.
    const asked = known ? known.ref : given;
    if (!refresh && isFullCommit(given)) return { at, asked, pinned: given.toLowerCase() };
    // A commit asked for names exactly the code wanted: a refresh keeps it (a branch or tag moves to its head).
    if (isFullCommit(asked)) return { at, asked, pinned: asked.toLowerCase() };
    return { at, asked, lookup: { kind: 'git', url: ref.url.trim(), ...(asked ? { ref: asked } : {}) } };
  });
  const refs = (skills?.refs ?? []).map((text, i): PlannedPin => {
    const at = `skills.refs[${i}]`;
    const parsed = parseSkillOci(text);
    if ('error' in parsed) return { at, asked: text, pinned: text };
    if (parsed.digest) {
      const asked = knownOciRef(options.known, parsed) ?? text;
      const again = refresh ? parseSkillOci(asked) : undefined;
      if (again && !('error' in again) && !again.digest) {
        return { at, asked, lookup: { kind: 'oci', reference: { ...again, tag: again.tag ?? 'latest' } } };
      }
      return { at, asked, pinned: pinnedOci(parsed, parsed.digest) };
    }
    return { at, asked: text, lookup: { kind: 'oci', reference: { ...parsed, tag: parsed.tag ?? 'latest' } } };
  });
  return { gitRefs, refs };
}

/** The refusal of a plan that needs more lookups than one write makes, if it does. */
export function tooManyLookups(plan: PinPlan): string | undefined {
  const n = lookupsOf(plan).length;
  if (n <= MAX_PIN_LOOKUPS) return undefined;
  return `skills need ${n} lookups to be pinned, more than the ${MAX_PIN_LOOKUPS} one write makes; give some of them ` +
    `pinned (a commit, or an OCI reference with @sha256:<digest>)`;
}

/** Every distinct lookup of a plan. */
export function lookupsOf(plan: PinPlan): PinLookup[] {
  const out = new Map<string, PinLookup>();
  for (const p of [...plan.gitRefs, ...plan.refs]) if (p.lookup) out.set(lookupKey(p.lookup), p.lookup);
  return [...out.values()];
}

/**
 * The skills block with every pin in place, and the annotation recording what was asked.
 * `answers` holds each lookup's answer by `lookupKey` (a commit, or a `sha256:` digest).
 */
export function applyPins(
  skills: SkillsSpec | undefined, plan: PinPlan, answers: ReadonlyMap<string, string>,
): { skills: SkillsSpec | undefined; refs: SkillRefs } {
  if (!skills) return { skills, refs: {} };
  const pinOf = (p: PlannedPin) => p.pinned ?? answers.get(lookupKey(p.lookup!)) ?? '';
  const out: SkillsSpec = { ...skills };
  const refs: SkillRefs = {};
  if (skills.gitRefs) {
    out.gitRefs = skills.gitRefs.map((ref, i) => {
      const { commit: _commit, ...rest } = ref;
      return { ...rest, ref: pinOf(plan.gitRefs[i]!) };
    });
    refs.gitRefs = out.gitRefs.map((ref, i) => {
      const asked = plan.gitRefs[i]!.asked;
      return {
        name: gitSkillName(ref), url: ref.url, ...(asked !== undefined ? { ref: asked } : {}), commit: ref.ref!,
      };
    });
  }
  if (skills.refs) {
    const pins = plan.refs.map((p) => p.pinned ?? pinnedFromLookup(p, answers));
    out.refs = pins;
    refs.refs = plan.refs.flatMap((p, i) => {
      const digest = /@(sha256:[0-9a-f]{64})$/.exec(pins[i]!)?.[1];
      return digest ? [{ ref: p.asked ?? pins[i]!, digest }] : [];
    });
  }
  if (refs.gitRefs?.length === 0) delete refs.gitRefs;
  if (refs.refs?.length === 0) delete refs.refs;
  return { skills: out, refs };
}

function pinnedFromLookup(p: PlannedPin, answers: ReadonlyMap<string, string>): string {
  // safe: planPins gives every OCI skill without a digest an `oci` lookup, and only those reach here.
  const lookup = p.lookup as Extract<PinLookup, { kind: 'oci' }>;
  return pinnedOci(lookup.reference, answers.get(lookupKey(lookup)) ?? '');
}

/** The record of an earlier write for a git skill written pinned to `commit` (its `ref` absent: the default branch). */
function knownGitRef(known: SkillRefs | undefined, ref: GitRef, commit: string): { ref?: string } | undefined {
  const name = gitSkillName(ref);
  return known?.gitRefs?.find(
    (g) => g.name === name && g.url === ref.url.trim() && g.commit.toLowerCase() === commit.toLowerCase(),
  );
}

/** The reference an earlier write asked for, for an OCI skill written with `reference.digest`. */
function knownOciRef(known: SkillRefs | undefined, reference: SkillOciReference): string | undefined {
  for (const entry of known?.refs ?? []) {
    if (entry.digest !== reference.digest) continue;
    const asked = parseSkillOci(entry.ref);
    if (!('error' in asked) && asked.registry === reference.registry && asked.repository === reference.repository) {
      return entry.ref;
    }
  }
  return undefined;
}

/** The annotation's text (stable key order), or undefined when nothing was pinned. */
export function skillRefsText(refs: SkillRefs): string | undefined {
  if (!refs.gitRefs?.length && !refs.refs?.length) return undefined;
  return JSON.stringify(refs);
}

/**
 * The annotation read back. It is written by us but lives on an object anyone with write
 * access can edit, so it is untrusted: anything malformed is dropped entry by entry, and
 * an entry only ever explains a pin the values carry (see `planPins` and skill-reads.ts).
 */
export function parseSkillRefs(text: string | undefined): SkillRefs {
  if (!text) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isJsonObject(raw)) return {};
  const { gitRefs, refs } = raw;
  const str = (v: unknown): v is string => typeof v === 'string' && v !== '';
  const out: SkillRefs = {};
  if (Array.isArray(gitRefs)) {
    const entries = gitRefs.flatMap((g: unknown) => {
      const e = asObject(g);
      const commit = stringOr(e.commit, '');
      if (!str(e.name) || !str(e.url) || !isFullCommit(commit)) return [];
      return [{ name: e.name, url: e.url, ...(str(e.ref) ? { ref: e.ref } : {}), commit }];
    });
    if (entries.length > 0) out.gitRefs = entries;
  }
  if (Array.isArray(refs)) {
    const entries = refs.flatMap((r: unknown) => {
      const e = asObject(r);
      return str(e.ref) && typeof e.digest === 'string' && /^sha256:[0-9a-f]{64}$/.test(e.digest)
        ? [{ ref: e.ref, digest: e.digest }] : [];
    });
    if (entries.length > 0) out.refs = entries;
  }
  return out;
}
