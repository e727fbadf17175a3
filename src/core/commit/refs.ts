/**
 * The names a commit-mode request gives, checked before anything is read: a repository
 * `owner/name` as GitHub allows them, a branch as `git check-ref-format --branch` allows
 * it, and a path of visible characters that stays inside the repository's work tree.
 * Each check answers the rule that was broken (for a 400), or undefined when the value
 * is fine. Written by hand: these are a few lines of git's and GitHub's documented rules.
 */

/** GitHub: alphanumerics and single hyphens, no hyphen first or last, at most 39 (account names). */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
/** GitHub: ASCII letters, digits, `.`, `-` and `_`, at most 100 (repository names). */
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

export interface RepositoryName {
  owner: string;
  name: string;
}

/**
 * `owner/name` (a `.git` suffix, as in a clone URL, is dropped), or the rule it breaks.
 * `.` and `..` are not repository names, and neither is what is left of `.git`.
 */
export function parseRepositoryName(value: string): RepositoryName | string {
  const parts = value.split('/');
  const rule = 'a repository is owner/name: the owner of letters, digits and single inner hyphens (at most 39), the ' +
    'name of letters, digits, ".", "-" and "_" (at most 100), not "." or ".."';
  const [owner = '', raw = ''] = parts;
  if (parts.length !== 2) return rule;
  const name = raw.endsWith('.git') ? raw.slice(0, -4) : raw;
  if (!OWNER.test(owner) || !NAME.test(name) || name === '.' || name === '..') return rule;
  return { owner, name };
}

/** The rule a branch name breaks, by `git check-ref-format --branch`; undefined when valid. */
export function branchViolation(branch: string): string | undefined {
  const rule = (what: string) => `a branch name ${what} (git check-ref-format --branch)`;
  if (branch === '') return rule('is not empty');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(branch)) {
    return rule('has no control characters, spaces or any of ~ ^ : ? * [ \\');
  }
  if (branch.startsWith('-')) return rule('does not start with "-"');
  if (branch.startsWith('/') || branch.endsWith('/') || branch.includes('//')) {
    return rule('does not start or end with "/" or contain "//"');
  }
  if (branch.includes('..')) return rule('does not contain ".."');
  if (branch.includes('@{') || branch === '@') return rule('does not contain "@{" and is not "@"');
  if (branch.endsWith('.')) return rule('does not end with "."');
  if (branch === 'HEAD') return rule('is not HEAD');
  for (const segment of branch.split('/')) {
    if (segment.startsWith('.')) return rule('has no part starting with "."');
    if (segment.endsWith('.lock')) return rule('has no part ending with ".lock"');
  }
  return undefined;
}

/**
 * The rule a directory path breaks; undefined when valid. Visible characters only (no
 * control characters, spaces or backslashes, which kustomize and git treat differently
 * from a person's reading), no `..` segment (outside the directory), and no `.git`
 * segment (git's own files: hooks, config), in any letter case.
 */
export function pathViolation(path: string): string | undefined {
  if (path.length > 1024) return 'a path has at most 1024 characters';
  if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S}]*$/u.test(path) || path.includes('\\')) {
    return 'a path has only visible characters: no control characters, spaces or backslashes';
  }
  const segments = path.split('/');
  if (segments.includes('..')) return 'a path has no ".." segment: it stays below the repository root';
  if (segments.some((s) => s.toLowerCase() === '.git')) {
    return 'a path has no ".git" segment: git\'s own files are not manifests';
  }
  return undefined;
}
