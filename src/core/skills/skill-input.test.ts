import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { gitSkillName, skillsViolations, validateSkills } from './skill-input.js';

const REPO = 'https://github.com/giantswarm/agent-skills';

describe('gitSkillName', () => {
  it.each([
    ['the explicit name', { url: REPO, path: 'a/b', name: 'mine' }, 'mine'],
    ['the last path segment', { url: REPO, path: 'a/b' }, 'b'],
    ['the last path segment with slashes trimmed', { url: `${REPO}/o/r`, path: 'a/b/' }, 'b'],
    ['a path with a leading slash', { url: REPO, path: '/runbooks' }, 'runbooks'],
    ['the repository name', { url: REPO }, 'agent-skills'],
    ['the repository name without .git', { url: 'https://github.com/o/r.git' }, 'r'],
    ['the repository name without a trailing slash', { url: 'https://github.com/o/r/' }, 'r'],
    ['the repository name without .git and a trailing slash', { url: 'https://github.com/o/r.git/' }, 'r'],
    ['a blank name as no name', { url: REPO, path: 'p', name: '  ' }, 'p'],
    ['a blank path as no path', { url: REPO, path: ' ' }, 'agent-skills'],
  ])('takes %s', (_case, ref, want) => {
    expect(gitSkillName(ref)).toBe(want);
  });
});

describe('skillsViolations', () => {
  it.each([
    ['absent', undefined],
    ['null', null],
    ['empty', {}],
    ['empty lists', { refs: [], gitRefs: [] }],
    ['a full block', { refs: ['registry.example.io/skills/runbooks:1.4.0'], gitRefs: [{ url: REPO, path: 'runbooks', ref: 'main', name: 'runbooks' }, { url: 'http://git.internal/skills.git' }], gitAuthSecretName: 'skills-git' }],
    ['an empty secret name (unset)', { gitAuthSecretName: '' }],
    ['the same repository at two paths', { gitRefs: [{ url: REPO, path: 'a' }, { url: REPO, path: 'b' }] }],
    ['the same path renamed', { gitRefs: [{ url: REPO, path: 'a' }, { url: REPO, path: 'a', name: 'a2' }] }],
    ['a dotted path inside the repository', { gitRefs: [{ url: REPO, path: 'a/..b/c' }] }],
  ])('accepts %s', (_case, skills) => {
    expect(skillsViolations(skills)).toEqual([]);
  });

  it.each([
    ['not an object', ['x'], 'skills must be an object {refs?, gitRefs?, gitAuthSecretName?}'],
    ['an unknown field', { gitRef: [] }, 'skills.gitRef is not a skills field (use refs, gitRefs or gitAuthSecretName)'],
    ['refs that are not a list', { refs: 'a:1' }, 'skills.refs must be a list of OCI references (e.g. ["registry.example.io/skills/runbooks:1.4.0"])'],
    ['an empty OCI ref', { refs: [' '] }, 'skills.refs[0] must be a non-empty OCI reference (e.g. registry.example.io/skills/runbooks:1.4.0)'],
    ['an OCI ref that is not a string', { refs: [7] }, 'skills.refs[0] must be a non-empty OCI reference (e.g. registry.example.io/skills/runbooks:1.4.0)'],
    ['an OCI ref with whitespace', { refs: ['ok.io/a:1', 'reg.io/a :1'] }, 'skills.refs[1] "reg.io/a :1" contains whitespace'],
    ['gitRefs that are not a list', { gitRefs: { url: REPO } }, 'skills.gitRefs must be a list of {url, path?, ref? | commit?, name?}'],
    ['a git ref that is not an object', { gitRefs: [REPO] }, 'skills.gitRefs[0] must be an object {url, path?, ref? | commit?, name?}'],
    ['an unknown git ref field', { gitRefs: [{ url: REPO, sha: 'abc' }] }, 'skills.gitRefs[0].sha is not a git reference field (use url, path, ref, commit or name)'],
    ['a short commit', { gitRefs: [{ url: REPO, commit: 'abc' }] }, 'skills.gitRefs[0].commit "abc" is not a full commit id (40 or 64 hex characters); give a branch or tag as ref to have it resolved'],
    ['both ref and commit', { gitRefs: [{ url: REPO, path: 'runbooks', ref: 'main', commit: 'a'.repeat(40) }] }, `skills.gitRefs[0] (runbooks) gives both ref "main" and commit "${'a'.repeat(40)}"; give the commit to pin, or the ref to have it resolved`],
    ['an OCI reference without a host', { refs: ['skills/runbooks:1.4.0'] }, 'skills.refs[0]: OCI reference "skills/runbooks:1.4.0" must start with the registry host (e.g. registry.example.io/skills/runbooks:1.4.0)'],
    ['an OCI reference with a malformed digest', { refs: ['registry.example.io/skills/runbooks@sha256:abc'] }, 'skills.refs[0]: OCI reference "registry.example.io/skills/runbooks@sha256:abc": digest must be sha256:<64 hex digits>'],
    ['an OCI reference without a repository', { refs: ['registry.example.io:1.4'] }, 'skills.refs[0]: OCI reference "registry.example.io:1.4" has no repository'],
    ['a git ref field that is not a string', { gitRefs: [{ url: REPO, path: 3 }] }, 'skills.gitRefs[0].path must be a string'],
    ['a missing URL', { gitRefs: [{ path: 'a' }] }, "skills.gitRefs[0].url is required: the repository's http(s) URL, e.g. https://github.com/giantswarm/agent-skills"],
    ['a URL that is not http(s)', { gitRefs: [{ url: 'git@github.com:o/r.git' }] }, 'skills.gitRefs[0].url "git@github.com:o/r.git" must be an http(s) URL'],
    ['a URL with whitespace', { gitRefs: [{ url: 'https://github.com/o/r x' }] }, 'skills.gitRefs[0].url "https://github.com/o/r x" must be an http(s) URL'],
    ['an absolute path', { gitRefs: [{ url: REPO, path: '/etc/skills' }] }, 'skills.gitRefs[0].path "/etc/skills" must be relative to the repository root'],
    ['a drive path', { gitRefs: [{ url: REPO, path: 'C:\\skills' }] }, 'skills.gitRefs[0].path "C:\\\\skills" must be relative to the repository root'],
    ['a climbing path', { gitRefs: [{ url: REPO, path: 'a/../../b' }] }, 'skills.gitRefs[0].path "a/../../b" must not climb out of the repository ("..")'],
    ['a climbing path with backslashes', { gitRefs: [{ url: REPO, path: 'a\\..\\b' }] }, 'skills.gitRefs[0].path "a\\\\..\\\\b" must not climb out of the repository ("..")'],
    ['a ref with whitespace', { gitRefs: [{ url: REPO, ref: 'main branch' }] }, 'skills.gitRefs[0].ref "main branch" contains whitespace'],
    ['a name with a slash', { gitRefs: [{ url: REPO, name: 'a/b' }] }, 'skills.gitRefs[0].name "a/b" must be one directory name (no "/", not "." or "..")'],
    ['a name of dots', { gitRefs: [{ url: REPO, name: '..' }] }, 'skills.gitRefs[0].name ".." must be one directory name (no "/", not "." or "..")'],
    ['a path that mounts as a dot', { gitRefs: [{ url: REPO, path: './' }] }, 'skills.gitRefs[0] mounts as ".", which is not a directory name; give it a name'],
    ['a name that is too long', { gitRefs: [{ url: REPO, name: 'n'.repeat(64) }] }, `skills.gitRefs[0] needs a name of at most 63 characters; "${'n'.repeat(64)}" is longer`],
    ['a derived name that is too long', { gitRefs: [{ url: REPO, path: `x/${'p'.repeat(64)}` }] }, `skills.gitRefs[0] needs a name of at most 63 characters; "${'p'.repeat(64)}" is longer`],
    ['a duplicate derived name', { gitRefs: [{ url: REPO, path: 'a/runbooks' }, { url: REPO, path: 'b' }, { url: 'https://github.com/o/runbooks.git' }] }, 'skills.gitRefs[0] and skills.gitRefs[2] both mount as "runbooks"; give one of them another name'],
    ['a duplicate explicit name', { gitRefs: [{ url: REPO, name: 'x' }, { url: REPO, path: 'x' }] }, 'skills.gitRefs[0] and skills.gitRefs[1] both mount as "x"; give one of them another name'],
    ['a secret name that is not a string', { gitAuthSecretName: 5 }, 'skills.gitAuthSecretName must be a string'],
    ['a secret name that is not DNS-1123', { gitAuthSecretName: 'Skills_Git' }, 'skills.gitAuthSecretName "Skills_Git" must be a Secret name: lowercase letters, digits, "-" and ".", at most 253 characters'],
    ['a secret name that is too long', { gitAuthSecretName: 'a'.repeat(254) }, `skills.gitAuthSecretName "${'a'.repeat(254)}" must be a Secret name: lowercase letters, digits, "-" and ".", at most 253 characters`],
  ])('refuses %s', (_case, skills, want) => {
    expect(skillsViolations(skills)).toEqual([want]);
  });

  it('counts a name of 63 characters as fine and a 63-byte limit in bytes', () => {
    expect(skillsViolations({ gitRefs: [{ url: REPO, name: 'n'.repeat(63) }] })).toEqual([]);
    expect(skillsViolations({ gitRefs: [{ url: REPO, name: 'é'.repeat(32) }] })).toHaveLength(1);
  });

  it('reports every problem, in field order', () => {
    expect(skillsViolations({ refs: [''], gitRefs: [{ url: 'ftp://x', path: '/a', ref: 'a b' }, { url: REPO }, { url: REPO }], gitAuthSecretName: 'BAD' })).toEqual([
      'skills.refs[0] must be a non-empty OCI reference (e.g. registry.example.io/skills/runbooks:1.4.0)',
      'skills.gitRefs[0].url "ftp://x" must be an http(s) URL',
      'skills.gitRefs[0].path "/a" must be relative to the repository root',
      'skills.gitRefs[0].ref "a b" contains whitespace',
      'skills.gitRefs[1] and skills.gitRefs[2] both mount as "agent-skills"; give one of them another name',
      'skills.gitAuthSecretName "BAD" must be a Secret name: lowercase letters, digits, "-" and ".", at most 253 characters',
    ]);
  });
});

describe('control characters in what becomes a name or a path', () => {
  it.each<[string, unknown, string]>([
    ['a NUL in a git skill name', { gitRefs: [{ url: REPO, name: 'run\u0000books' }] }, 'skills.gitRefs[0].name "run\\x00books" contains a control character; use printable characters only'],
    ['an ESC in a git skill name', { gitRefs: [{ url: REPO, name: 'run\u001bbooks' }] }, 'skills.gitRefs[0].name "run\\x1bbooks" contains a control character; use printable characters only'],
    ['a DEL in a path', { gitRefs: [{ url: REPO, path: 'a/\u007fb' }] }, 'skills.gitRefs[0].path "a/\\x7fb" contains a control character; use printable characters only'],
    ['a C1 control in the last path segment', { gitRefs: [{ url: REPO, path: 'a/b\u0085' }] }, 'skills.gitRefs[0].path "a/b\\u0085" contains a control character; use printable characters only'],
    ['a NUL in a git ref', { gitRefs: [{ url: REPO, ref: 'main\u0000' }] }, 'skills.gitRefs[0].ref "main\\x00" contains a control character; use printable characters only'],
    ['a NUL in a repository URL', { gitRefs: [{ url: `${REPO}\u0000x` }] }, `skills.gitRefs[0].url "${REPO}\\x00x" contains a control character; use printable characters only`],
    ['a NUL in an OCI reference', { refs: ['ghcr.io/a/b\u0000:1'] }, 'skills.refs[0] "ghcr.io/a/b\\x00:1" contains a control character; use printable characters only'],
  ])('refuses %s', (_name, skills, want) => {
    expect(skillsViolations(skills)).toEqual([want]);
  });
});

describe('validateSkills', () => {
  it('returns the block typed when it is fine', () => {
    const skills = { gitRefs: [{ url: REPO, path: 'runbooks' }] };
    expect(validateSkills(skills)).toBe(skills);
    expect(validateSkills(undefined)).toBeUndefined();
    expect(validateSkills(null)).toBeUndefined();
  });

  it('throws one invalid_request naming every violation', () => {
    let err: unknown;
    try {
      validateSkills({ gitRefs: [{ url: 'x' }, { url: REPO, path: '../up' }] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).message).toBe(
      'invalid request: skills.gitRefs[0].url "x" must be an http(s) URL; skills.gitRefs[1].path "../up" must not climb out of the repository ("..")',
    );
  });
});
