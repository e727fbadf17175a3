import { describe, expect, it } from 'vitest';
import { notAGitHubRepository, parseGitHubRepository } from './github-repository.js';

describe('parseGitHubRepository', () => {
  it.each([
    ['plain', 'https://github.com/giantswarm/agent-skills'],
    ['with .git', 'https://github.com/giantswarm/agent-skills.git'],
    ['with a trailing slash', 'https://github.com/giantswarm/agent-skills/'],
    ['with .git and a trailing slash', 'https://github.com/giantswarm/agent-skills.git/'],
  ])('canonicalises a URL %s', (_case, url) => {
    expect(parseGitHubRepository(url)).toEqual({ owner: 'giantswarm', repo: 'agent-skills', url: 'https://github.com/giantswarm/agent-skills' });
  });

  it('keeps dots inside repository names', () => {
    expect(parseGitHubRepository('https://github.com/o/skills.v2')?.repo).toBe('skills.v2');
  });

  it.each([
    ['another host', 'https://gitlab.com/x/y'],
    ['plain http', 'http://github.com/x/y'],
    ['an owner only', 'https://github.com/x'],
    ['a path inside the repository', 'https://github.com/x/y/tree/main'],
    ['a query', 'https://github.com/x/y?tab=readme'],
    ['a climbing owner', 'https://github.com/../y'],
    ['an encoded slash', 'https://github.com/x/y%2F..'],
    ['an ssh URL', 'git@github.com:x/y.git'],
    ['nothing', ''],
  ])('refuses %s', (_case, url) => {
    expect(parseGitHubRepository(url)).toBeUndefined();
  });

  it('explains the expected form in the refusal', () => {
    expect(notAGitHubRepository('https://gitlab.com/x/y')).toBe(
      'repository "https://gitlab.com/x/y" is not a GitHub repository URL (expected https://github.com/<owner>/<repo>)',
    );
  });
});
