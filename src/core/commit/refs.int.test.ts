import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { branchViolation, parseRepositoryName, pathViolation } from './refs.js';

/** What the real git says of a branch name (`git check-ref-format --branch`), outside any repository. */
function gitAccepts(branch: string): boolean {
  return spawnSync('git', ['check-ref-format', '--branch', branch], { cwd: '/', stdio: 'ignore' }).status === 0;
}

const gitPresent = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;

describe('branch names', () => {
  const names = [
    'main', 'feature/x', 'release-1.2', 'fé', 'a@b', 'agent-manager/update-kagent-sre-0a1b2c3d',
    '', 'HEAD', '-x', 'a b', 'a\tb', 'a\nb', 'a\u0007', 'a~1', 'a^', 'a:b', 'a?', 'a*', 'a[b', 'a\\b',
    '/a', 'a/', 'a//b', 'a..b', 'a.', '.a', 'a/.b', 'a.lock', 'a/b.lock/c', 'a@{1}', 'a\u007f',
  ];
  it.skipIf(!gitPresent).each(names)('agrees with git check-ref-format --branch on %j', (name) => {
    expect(branchViolation(name) === undefined).toBe(gitAccepts(name));
  });

  it('refuses "@" alone, which git reserves for HEAD', () => {
    expect(branchViolation('@')).toBe('a branch name does not contain "@{" and is not "@" (git check-ref-format --branch)');
  });
});

describe('repositories', () => {
  it('takes owner/name as GitHub allows them, dropping a clone URL\'s .git', () => {
    expect(parseRepositoryName('acme/fleet')).toEqual({ owner: 'acme', name: 'fleet' });
    expect(parseRepositoryName('Acme-Corp/fleet.v2_x')).toEqual({ owner: 'Acme-Corp', name: 'fleet.v2_x' });
    expect(parseRepositoryName('acme/fleet.git')).toEqual({ owner: 'acme', name: 'fleet' });
  });

  it.each(['acme/.git', 'acme/', '/fleet', 'acme/fleet/x', '-acme/fleet', 'acme-/fleet', 'ac--me/fleet', 'ac_me/fleet', 'acme/..', 'acme/.', 'acme/fl eet', `${'a'.repeat(40)}/x`, `acme/${'x'.repeat(101)}`])(
    'refuses %j naming the rule', (value) => {
      expect(parseRepositoryName(value)).toMatch(/^a repository is owner\/name: /);
    },
  );
});

describe('paths', () => {
  it.each(['', 'clusters/prod', './clusters/prod', 'clusters/prod/', 'a/.github/x', 'a/.gitignore-dir', 'équipe/agents'])('accepts %j', (path) => {
    expect(pathViolation(path)).toBeUndefined();
  });

  it.each([
    ['clusters/new\n', 'visible'], ['a b', 'visible'], ['a\\b', 'visible'], ['a\u202eb', 'visible'],
    ['../x', '".."'], ['a/../../b', '".."'], ['.git', '".git"'], ['a/.git/hooks', '".git"'], ['a/.GIT', '".git"'],
  ])('refuses %j (%s)', (path, rule) => {
    expect(pathViolation(path)).toContain(rule);
  });
});
