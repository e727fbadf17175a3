/**
 * The skills of an agent as reads report them: each git skill as `{url, path, name, ref,
 * commit}` and each OCI skill as `{ref, digest}`, from the values (the pins, which are
 * what runs) and the skill-refs annotation (what was asked for). The annotation only ever
 * explains a pin the values carry: an entry that matches no pin (edited by hand, or left
 * from an older write) is ignored, and a pin it does not explain is reported as written.
 * The inverse, `askedSkills`, is what a refresh follows. Pure.
 */
import { isFullCommit, type SkillRefs } from './skill-pins.js';
import { parseSkillOci } from './skill-oci.js';
import type { AgentSkills, GitRef, SkillsSpec } from '../types.js';
import { asObject, optionalString, type JsonObject } from '../json.js';

/**
 * Chart 2.x's skills list (`[{name, git: {url, commit}, path} | {name, oci}]`) as the 0.x block it carries the same
 * pins as (`{gitRefs: [{url, path, name, ref: <commit>}], refs: [<oci>]}`), so reads and a refresh read both lines
 * the same way. Entries of neither shape are left out, as the block's reader leaves them out.
 */
export function blockOfSkillsList(list: readonly unknown[]): JsonObject {
  const gitRefs: JsonObject[] = [];
  const refs: string[] = [];
  for (const entry of list.map(asObject)) {
    const git = asObject(entry.git);
    if (optionalString(git.url)) {
      const ref: JsonObject = { url: git.url, name: optionalString(entry.name) ?? '' };
      if (optionalString(entry.path)) ref.path = entry.path;
      if (optionalString(git.commit)) ref.ref = git.commit;
      gitRefs.push(ref);
    } else if (optionalString(entry.oci)) {
      refs.push(String(entry.oci));
    }
  }
  return { ...(refs.length > 0 ? { refs } : {}), ...(gitRefs.length > 0 ? { gitRefs } : {}) };
}

/** The read shape of a `skills` values block (chart 0.x: refs, gitRefs, gitAuthSecretRef; chart 2.x: the list). */
export function agentSkills(raw: unknown, known: SkillRefs = {}): AgentSkills | undefined {
  const skills = Array.isArray(raw) ? blockOfSkillsList(raw) : asObject(raw);
  const out: AgentSkills = {};
  if (Array.isArray(skills.refs)) {
    const refs = skills.refs.filter((r): r is string => typeof r === 'string').map((ref) => ociSkill(ref, known));
    if (refs.length > 0) out.refs = refs;
  }
  if (Array.isArray(skills.gitRefs) && skills.gitRefs.length > 0) {
    out.gitRefs = skills.gitRefs.map(asObject).map((g) => {
      const url = String(g.url ?? '');
      const name = optionalString(g.name);
      const ref = optionalString(g.ref);
      const skill: NonNullable<AgentSkills['gitRefs']>[number] = { url };
      if (optionalString(g.path)) skill.path = String(g.path);
      if (name) skill.name = name;
      if (isFullCommit(ref)) {
        const entry = known.gitRefs?.find(
          (k) => k.name === name && k.url === url && k.commit.toLowerCase() === ref.toLowerCase(),
        );
        const asked = entry ? entry.ref : ref;
        if (asked) skill.ref = asked;
        skill.commit = ref;
      } else if (ref) {
        skill.ref = ref;
      }
      return skill;
    });
  }
  const secret = optionalString(asObject(skills.gitAuthSecretRef).name);
  if (secret) out.gitAuthSecretName = secret;
  return Object.keys(out).length > 0 ? out : undefined;
}

function ociSkill(ref: string, known: SkillRefs): { ref: string; digest?: string } {
  const parsed = parseSkillOci(ref);
  if ('error' in parsed || !parsed.digest) return { ref };
  for (const entry of known.refs ?? []) {
    if (entry.digest !== parsed.digest) continue;
    const asked = parseSkillOci(entry.ref);
    if (!('error' in asked) && asked.registry === parsed.registry && asked.repository === parsed.repository) {
      return { ref: entry.ref, digest: parsed.digest };
    }
  }
  return { ref, digest: parsed.digest };
}

/**
 * The skills block the values and annotation say was asked for: each git skill with the
 * ref it asked for (a pinned one without an explaining entry keeps its commit as ref), each
 * OCI skill as the reference asked for. What a refresh re-resolves.
 */
export function askedSkills(raw: unknown, known: SkillRefs = {}): SkillsSpec | undefined {
  const read = agentSkills(raw, known);
  if (!read) return undefined;
  const out: SkillsSpec = {};
  if (read.refs) out.refs = read.refs.map((r) => r.ref);
  if (read.gitRefs) {
    out.gitRefs = read.gitRefs.map((g) => {
      const ref: GitRef = { url: g.url };
      if (g.path) ref.path = g.path;
      if (g.name) ref.name = g.name;
      const asked = g.ref ?? g.commit;
      if (asked) ref.ref = asked;
      return ref;
    });
  }
  if (read.gitAuthSecretName) out.gitAuthSecretName = read.gitAuthSecretName;
  return out;
}
