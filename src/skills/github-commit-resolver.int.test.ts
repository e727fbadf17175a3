/**
 * The git half of skill pinning against the GitHub double: which answers are the caller's
 * to fix (400) and which are GitHub's or ours (502), in words that say which.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubClient } from './github-client.js';
import { GitHubCommitResolver } from './github-commit-resolver.js';
import { doubleCommit, startGitHubDouble, type GitHubDouble } from '../../test/support/github/skills-github-double.js';

let double: GitHubDouble;
const resolver = (token?: string) =>
  new GitHubCommitResolver(new GitHubClient({ apiUrl: double.url, token, retryBaseMs: 1 }));

beforeAll(async () => {
  double = await startGitHubDouble({
    token: 'secret',
    repositories: {
      'o/r': { defaultBranch: 'trunk', refs: { trunk: { files: {} }, 'feature/x': { files: {} } } },
      'o/private': { private: true, refs: { main: { files: {} } } },
    },
  });
});
afterAll(() => double?.close());

describe('GitHubCommitResolver', () => {
  it('resolves the default branch from the repository, then its head commit', async () => {
    const before = double.requests.length;
    expect(await resolver().gitCommit('https://github.com/o/r', undefined)).toBe(doubleCommit('o/r', 'trunk'));
    expect(double.requests.slice(before).map((r) => r.path)).toEqual(['/repos/o/r', '/repos/o/r/commits/trunk']);
  });

  it('resolves a ref with a slash, and a private repository with the token', async () => {
    expect(await resolver().gitCommit('https://github.com/o/r.git/', 'feature/x')).toBe(doubleCommit('o/r', 'feature/x'));
    expect(await resolver('secret').gitCommit('https://github.com/o/private', 'main')).toBe(doubleCommit('o/private', 'main'));
  });

  it('says a token that can read it is needed when a private repository answers 404 without one', async () => {
    await expect(resolver().gitCommit('https://github.com/o/private', 'main')).rejects.toMatchObject({
      code: 'invalid_request',
      detail: 'unresolvable skill reference: ref main of https://github.com/o/private could not be resolved: GitHub answered 404 without a token — the repository is private or does not exist; a private skill repository needs the skills GitHub App installed on it (or a GITHUB_TOKEN that can read it)',
    });
  });

  it('names the default branch when the repository cannot be read', async () => {
    await expect(resolver('secret').gitCommit('https://github.com/o/missing', undefined)).rejects.toMatchObject({
      code: 'invalid_request',
      detail: 'unresolvable skill reference: the default branch of https://github.com/o/missing could not be resolved: GitHub answered 404 — the repository does not exist or the configured token cannot read it (a private skill repository needs the skills GitHub App installed on it, or a GITHUB_TOKEN that can read it)',
    });
  });

  it('treats a refused token of ours and a rate limit as backend errors (502), not the caller\'s', async () => {
    await expect(resolver('wrong').gitCommit('https://github.com/o/r', 'trunk')).rejects.toMatchObject({ code: 'backend_error' });
    double.rateLimit({ resetEpochSeconds: 2_000_000_000 });
    try {
      await expect(resolver().gitCommit('https://github.com/o/r', 'trunk')).rejects.toMatchObject({
        code: 'backend_error', detail: 'GitHub rate-limited resolving ref trunk of https://github.com/o/r; it resets at 2033-05-18T03:33:20.000Z',
      });
    } finally {
      double.rateLimit(undefined);
    }
  });

  it('refuses a URL that is not a github.com repository before asking anything', async () => {
    const before = double.requests.length;
    await expect(resolver().gitCommit('https://gitlab.com/o/r', 'main')).rejects.toMatchObject({
      code: 'invalid_request', detail: 'not a github.com repository URL: https://gitlab.com/o/r (expected https://github.com/<owner>/<repo>)',
    });
    expect(double.requests.length).toBe(before);
  });
});
