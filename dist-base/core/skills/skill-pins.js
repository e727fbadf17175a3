/**
 * Skill pinning, the pure part: which skills need a lookup, and the pinned block (git `ref: <commit>`,
 * OCI `<host>/<repo>@sha256:<digest>`), so an agent runs what its revision recorded, as the agent chart
 * recommends for long-lived installs. What the caller asked for is kept in the release annotation
 * `agent-manager.giantswarm.io/skill-refs` so reads show both and a refresh knows what to follow
 * (docs/skills.md). Lookups are a resolver port's; inputs are never mutated.
 */
import { gitSkillName } from './skill-input.js';
import { parseSkillOci, pinnedOci } from './skill-oci.js';
export const SKILL_REFS_ANNOTATION = 'agent-manager.giantswarm.io/skill-refs';
const FULL_COMMIT = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;
/**
 * The most lookups one write makes. Each is a request to GitHub or a registry made on the
 * caller's behalf with the installation's credentials, so a request naming thousands of
 * floating refs must not turn into thousands of requests (and a spent rate limit).
 */
export const MAX_PIN_LOOKUPS = 50;
/** True for a full commit id (SHA-1 or SHA-256 object name). */
export const isFullCommit = (s) => typeof s === 'string' && FULL_COMMIT.test(s);
/** The key a lookup's answer is stored under (one lookup per distinct key). */
export function lookupKey(lookup) {
    return lookup.kind === 'git'
        ? `git ${lookup.url} ${lookup.ref ?? ''}`
        : `oci ${lookup.reference.registry}/${lookup.reference.repository}:${lookup.reference.tag}`;
}
/**
 * The plan of a (validated) skills block. A git skill with a commit, or a full commit id
 * as ref, keeps it unless refreshing; any other is looked up. An OCI reference with a
 * digest keeps it unless refreshing a known tag; a tag (none means `latest`) is looked up.
 * Throws nothing: an OCI reference that does not parse was refused by validation.
 */
export function planPins(skills, options = {}) {
    const refresh = options.refresh === true;
    const gitRefs = (skills?.gitRefs ?? []).map((ref, i) => {
        const at = `skills.gitRefs[${i}]`;
        const given = ref.commit?.trim() || ref.ref?.trim() || undefined;
        const known = isFullCommit(given) ? knownGitRef(options.known, ref, given) : undefined;
        const asked = ref.commit?.trim() ? undefined : known ? known.ref : given;
        if (!refresh && isFullCommit(given))
            return { at, asked, pinned: given.toLowerCase() };
        const follow = asked !== undefined && !isFullCommit(asked) ? asked : undefined;
        return { at, asked: refresh ? follow : asked,
            lookup: { kind: 'git', url: ref.url.trim(), ...(follow ? { ref: follow } : {}) } };
    });
    const refs = (skills?.refs ?? []).map((text, i) => {
        const at = `skills.refs[${i}]`;
        const parsed = parseSkillOci(text);
        if ('error' in parsed)
            return { at, asked: text, pinned: text };
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
export function tooManyLookups(plan) {
    const n = lookupsOf(plan).length;
    if (n <= MAX_PIN_LOOKUPS)
        return undefined;
    return `skills need ${n} lookups to be pinned, more than the ${MAX_PIN_LOOKUPS} one write makes; give some of them ` +
        `pinned (a commit, or an OCI reference with @sha256:<digest>)`;
}
/** Every distinct lookup of a plan. */
export function lookupsOf(plan) {
    const out = new Map();
    for (const p of [...plan.gitRefs, ...plan.refs])
        if (p.lookup)
            out.set(lookupKey(p.lookup), p.lookup);
    return [...out.values()];
}
/**
 * The skills block with every pin in place, and the annotation recording what was asked.
 * `answers` holds each lookup's answer by `lookupKey` (a commit, or a `sha256:` digest).
 */
export function applyPins(skills, plan, answers) {
    if (!skills)
        return { skills, refs: {} };
    const pinOf = (p) => p.pinned ?? answers.get(lookupKey(p.lookup)) ?? '';
    const out = { ...skills };
    const refs = {};
    if (skills.gitRefs) {
        out.gitRefs = skills.gitRefs.map((ref, i) => {
            const { commit: _commit, ...rest } = ref;
            return { ...rest, ref: pinOf(plan.gitRefs[i]) };
        });
        refs.gitRefs = out.gitRefs.map((ref, i) => {
            const asked = plan.gitRefs[i].asked;
            return {
                name: gitSkillName(ref), url: ref.url, ...(asked !== undefined ? { ref: asked } : {}), commit: ref.ref,
            };
        });
    }
    if (skills.refs) {
        const pins = plan.refs.map((p) => p.pinned ?? pinnedFromLookup(p, answers));
        out.refs = pins;
        refs.refs = plan.refs.flatMap((p, i) => {
            const digest = /@(sha256:[0-9a-f]{64})$/.exec(pins[i])?.[1];
            return digest ? [{ ref: p.asked ?? pins[i], digest }] : [];
        });
    }
    if (refs.gitRefs?.length === 0)
        delete refs.gitRefs;
    if (refs.refs?.length === 0)
        delete refs.refs;
    return { skills: out, refs };
}
function pinnedFromLookup(p, answers) {
    const lookup = p.lookup;
    return pinnedOci(lookup.reference, answers.get(lookupKey(lookup)) ?? '');
}
/** The record of an earlier write for a git skill written pinned to `commit` (its `ref` absent: the default branch). */
function knownGitRef(known, ref, commit) {
    const name = gitSkillName(ref);
    return known?.gitRefs?.find((g) => g.name === name && g.url === ref.url.trim() && g.commit.toLowerCase() === commit.toLowerCase());
}
/** The reference an earlier write asked for, for an OCI skill written with `reference.digest`. */
function knownOciRef(known, reference) {
    for (const entry of known?.refs ?? []) {
        if (entry.digest !== reference.digest)
            continue;
        const asked = parseSkillOci(entry.ref);
        if (!('error' in asked) && asked.registry === reference.registry && asked.repository === reference.repository) {
            return entry.ref;
        }
    }
    return undefined;
}
/** The annotation's text (stable key order), or undefined when nothing was pinned. */
export function skillRefsText(refs) {
    if (!refs.gitRefs?.length && !refs.refs?.length)
        return undefined;
    return JSON.stringify(refs);
}
/**
 * The annotation read back. It is written by us but lives on an object anyone with write
 * access can edit, so it is untrusted: anything malformed is dropped entry by entry, and
 * an entry only ever explains a pin the values carry (see `planPins` and skill-reads.ts).
 */
export function parseSkillRefs(text) {
    if (!text)
        return {};
    let raw;
    try {
        raw = JSON.parse(text);
    }
    catch {
        return {};
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        return {};
    const { gitRefs, refs } = raw;
    const str = (v) => typeof v === 'string' && v !== '';
    const out = {};
    if (Array.isArray(gitRefs)) {
        const entries = gitRefs.flatMap((g) => {
            const e = (typeof g === 'object' && g !== null ? g : {});
            if (!str(e.name) || !str(e.url) || !isFullCommit(e.commit))
                return [];
            return [{ name: e.name, url: e.url, ...(str(e.ref) ? { ref: e.ref } : {}), commit: e.commit }];
        });
        if (entries.length > 0)
            out.gitRefs = entries;
    }
    if (Array.isArray(refs)) {
        const entries = refs.flatMap((r) => {
            const e = (typeof r === 'object' && r !== null ? r : {});
            return str(e.ref) && typeof e.digest === 'string' && /^sha256:[0-9a-f]{64}$/.test(e.digest)
                ? [{ ref: e.ref, digest: e.digest }] : [];
        });
        if (entries.length > 0)
            out.refs = entries;
    }
    return out;
}
//# sourceMappingURL=skill-pins.js.map