/**
 * The `skills` block of create, update and validate (OCI `refs`, `gitRefs`, `gitAuthSecretName`),
 * caller input whose every refusal says what to change. kagent clones each git reference into a
 * directory named after the skill, so that name is one directory name of at most 63 characters, unique
 * in the agent; nothing that becomes a name or path may hold a control character (a NUL ends a path in
 * every system call, the others make names and log lines that mean something else). Pure.
 */
import { invalid } from '../errors.js';
import { goQuote } from '../go-quote.js';
import { parseSkillOci } from './skill-oci.js';
import type { GitRef, SkillsSpec } from '../types.js';
import { isJsonObject, stringField, stringOr, type JsonObject } from '../json.js';

/** The longest skill name, in bytes of UTF-8 (Go's `len`). */
export const MAX_SKILL_NAME_BYTES = 63;

const HTTP_URL = /^https?:\/\/\S+$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SKILLS_FIELDS = new Set(['refs', 'gitRefs', 'gitAuthSecretName']);
const GIT_REF_FIELDS = ['url', 'path', 'ref', 'commit', 'name'] as const;
const FULL_COMMIT = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;
const utf8 = new TextEncoder();
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const controlText = (at: string, value: string) =>
  `${at} ${goQuote(value)} contains a control character; use printable characters only`;

/**
 * The directory a git skill mounts as: the explicit `name`; else the last segment of
 * `path` with slashes trimmed; else the repository name (the URL without trailing `/` and
 * `.git`, last segment). `{url: …/o/r, path: "a/b/"}` gives `b`; `https://github.com/o/r.git` gives `r`.
 */
export function gitSkillName(ref: Pick<GitRef, 'url' | 'path' | 'name'>): string {
  const name = ref.name?.trim();
  if (name) return name;
  const path = ref.path?.trim().replace(/^\/+|\/+$/g, '');
  if (path) return path.slice(path.lastIndexOf('/') + 1);
  const url = ref.url.trim().replace(/\/+$/, '').replace(/\.git$/, '').replace(/\/+$/, '');
  return url.slice(url.lastIndexOf('/') + 1);
}

/** Every problem with a skills block, in field order; `[]` when it is fine or absent. */
export function skillsViolations(skills: unknown): string[] {
  if (skills === undefined || skills === null) return [];
  if (!isJsonObject(skills)) return ['skills must be an object {refs?, gitRefs?, gitAuthSecretName?}'];
  const out: string[] = [];
  for (const key of Object.keys(skills)) {
    if (!SKILLS_FIELDS.has(key)) {
      out.push(`skills.${key} is not a skills field (use refs, gitRefs or gitAuthSecretName)`);
    }
  }
  out.push(...refsViolations(skills.refs), ...gitRefsViolations(skills.gitRefs));
  const secret = skills.gitAuthSecretName;
  if (secret !== undefined && secret !== null) {
    if (typeof secret !== 'string') out.push('skills.gitAuthSecretName must be a string');
    else if (secret.trim() && !(secret.length <= 253 && DNS1123_SUBDOMAIN.test(secret))) {
      out.push(`skills.gitAuthSecretName ${goQuote(secret)} must be a Secret name: lowercase letters, digits, "-" ` +
        `and ".", at most 253 characters`);
    }
  }
  return out;
}

/** The skills block typed, or an `invalid_request` listing every violation. */
export function validateSkills(skills: unknown): SkillsSpec | undefined {
  const violations = skillsViolations(skills);
  if (violations.length > 0) throw invalid(violations.join('; '));
  // safe: skillsViolations found nothing wrong, so `skills` is absent or has the SkillsSpec shape.
  return (skills ?? undefined) as SkillsSpec | undefined;
}

function refsViolations(refs: unknown): string[] {
  if (refs === undefined || refs === null) return [];
  if (!Array.isArray(refs)) {
    return ['skills.refs must be a list of OCI references (e.g. ["registry.example.io/skills/runbooks:1.4.0"])'];
  }
  const out: string[] = [];
  refs.forEach((ref: unknown, i) => {
    if (typeof ref !== 'string' ||
      !ref.trim()) out.push(`skills.refs[${i}] must be a non-empty OCI reference (e.g. ` +
        `registry.example.io/skills/runbooks:1.4.0)`);
    else if (CONTROL.test(ref)) out.push(controlText(`skills.refs[${i}]`, ref));
    else if (/\s/.test(ref)) out.push(`skills.refs[${i}] ${goQuote(ref)} contains whitespace`);
    else {
      const parsed = parseSkillOci(ref);
      if ('error' in parsed) out.push(`skills.refs[${i}]: ${parsed.error}`);
    }
  });
  return out;
}

function gitRefsViolations(gitRefs: unknown): string[] {
  if (gitRefs === undefined || gitRefs === null) return [];
  if (!Array.isArray(gitRefs)) return ['skills.gitRefs must be a list of {url, path?, ref? | commit?, name?}'];
  const out: string[] = [];
  const mounted = new Map<string, number>();
  gitRefs.forEach((ref: unknown, i) => {
    const at = `skills.gitRefs[${i}]`;
    if (!isJsonObject(ref)) {
      out.push(`${at} must be an object {url, path?, ref? | commit?, name?}`);
      return;
    }
    const problems = gitRefViolations(ref, at);
    out.push(...problems);
    if (problems.length > 0) return;
    const name = gitSkillName(gitRefOf(ref));
    const first = mounted.get(name);
    if (first !== undefined) out.push(`skills.gitRefs[${first}] and ${at} both mount as ${goQuote(name)}; give one ` +
      `of them another name`);
    else mounted.set(name, i);
  });
  return out;
}

/** A git reference's fields, each a string or absent (a field of another type reads as absent). */
function gitRefOf(ref: JsonObject): Partial<GitRef> & { url: string } {
  return {
    url: stringOr(ref.url, ''), path: stringField(ref.path), ref: stringField(ref.ref),
    commit: stringField(ref.commit), name: stringField(ref.name),
  };
}

/** The problems of one git reference whose fields are all checked for type first. */
function gitRefViolations(ref: Record<string, unknown>, at: string): string[] {
  const out: string[] = [];
  for (const key of Object.keys(ref)) {
    if (!GIT_REF_FIELDS.some((field) => field === key)) {
      out.push(`${at}.${key} is not a git reference field (use url, path, ref, commit or name)`);
    }
  }
  for (const key of GIT_REF_FIELDS) {
    if (ref[key] !== undefined && ref[key] !== null && typeof ref[key] !== 'string') {
      out.push(`${at}.${key} must be a string`);
    }
  }
  if (out.length > 0) return out;
  for (const key of GIT_REF_FIELDS) {
    const value = ref[key];
    if (typeof value === 'string' && CONTROL.test(value)) out.push(controlText(`${at}.${key}`, value));
  }
  if (out.length > 0) return out;
  const { url, path, ref: gitRef, commit, name } = gitRefOf(ref);
  if (!url?.trim()) out.push(`${at}.url is required: the repository's http(s) URL, e.g. ` +
    `https://github.com/giantswarm/agent-skills`);
  else if (!HTTP_URL.test(url)) out.push(`${at}.url ${goQuote(url)} must be an http(s) URL`);
  if (path?.trim()) {
    if (/^[/\\]/.test(path) ||
      /^[A-Za-z]:/.test(path)) out.push(`${at}.path ${goQuote(path)} must be relative to the repository root`);
    else if (path.split(/[/\\]/).some((segment) => segment.trim() === '..')) {
      out.push(`${at}.path ${goQuote(path)} must not climb out of the repository ("..")`);
    }
  }
  if (gitRef && /\s/.test(gitRef)) out.push(`${at}.ref ${goQuote(gitRef)} contains whitespace`);
  if (commit?.trim() && !FULL_COMMIT.test(commit)) {
    out.push(`${at}.commit ${goQuote(commit)} is not a full commit id (40 or 64 hex characters); give a branch or ` +
      `tag as ref to have it resolved`);
  } else if (commit?.trim() && gitRef?.trim() && url) {
    out.push(`${at} (${gitSkillName({ url, path, name })}) gives both ref ${goQuote(gitRef)} and commit ` +
      `${goQuote(commit)}; give the commit to pin, or the ref to have it resolved`);
  }
  if (out.length > 0 || !url) return out;
  const mount = gitSkillName({ url, path, name });
  const explicit = Boolean(name?.trim());
  if (mount.includes('/') || mount.includes('\\') || mount === '.' || mount === '..' || mount === '') {
    out.push(
      explicit
        ? `${at}.name ${goQuote(name ?? '')} must be one directory name (no "/", not "." or "..")`
        : `${at} mounts as ${goQuote(mount)}, which is not a directory name; give it a name`,
    );
  } else if (utf8.encode(mount).length > MAX_SKILL_NAME_BYTES) {
    out.push(`${at} needs a name of at most ${MAX_SKILL_NAME_BYTES} characters; ${goQuote(mount)} is longer`);
  }
  return out;
}
