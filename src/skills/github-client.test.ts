import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubApiError, GitHubClient } from './github-client.js';
import { startGitHubDouble, type GitHubDouble } from './testing/github-double.js';

let double: GitHubDouble;
beforeAll(async () => {
  double = await startGitHubDouble({
    repositories: { 'o/r': { defaultBranch: 'main', refs: { main: { files: { 'a b/SKILL.md': 'spaced', 'big.md': 'x'.repeat(2048) } } } } },
  });
});
afterAll(() => double.close());

async function failure(promise: Promise<unknown>): Promise<GitHubApiError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(GitHubApiError);
  return err as GitHubApiError;
}

describe('GitHubClient', () => {
  it('reads raw contents with the raw media type', async () => {
    const client = new GitHubClient({ apiUrl: double.url });
    expect(await client.getRaw('/repos/o/r/contents/a%20b/SKILL.md?ref=main')).toBe('spaced');
    expect(double.requests.at(-1)!.headers.accept).toBe('application/vnd.github.raw+json');
  });

  it('refuses a body above the cap', async () => {
    const client = new GitHubClient({ apiUrl: double.url, maxBodyBytes: 1024 });
    const err = await failure(client.getRaw('/repos/o/r/contents/big.md?ref=main'));
    expect(err.message).toBe(`GitHub API ${double.url}/repos/o/r/contents/big.md?ref=main answered with more than 1024 bytes`);
  });

  it('gives up on a request that does not answer in time', async () => {
    const client = new GitHubClient({ apiUrl: double.url, timeoutMs: 100 });
    const release = double.hold();
    try {
      const err = await failure(client.getRaw('/repos/o/r/contents/big.md?ref=main'));
      expect(err.message).toBe(`GitHub API ${double.url}/repos/o/r/contents/big.md?ref=main did not answer within 0.1s`);
      expect(err.status).toBeUndefined();
    } finally {
      release();
    }
  });

  it('carries the status and no rate limit for an ordinary error', async () => {
    const err = await failure(new GitHubClient({ apiUrl: double.url }).getJson('/repos/o/missing'));
    expect(err.status).toBe(404);
    expect(err.rateLimit).toBeUndefined();
    expect(err.message).toBe(`GitHub API ${double.url}/repos/o/missing returned 404: Not Found`);
  });

  it('reads the reset of a primary rate limit from x-ratelimit-reset', async () => {
    double.rateLimit({ resetEpochSeconds: 1_750_000_000 });
    try {
      const err = await failure(new GitHubClient({ apiUrl: double.url }).getJson('/repos/o/r'));
      expect(err.status).toBe(403);
      expect(err.rateLimit).toEqual({ resetAt: 1_750_000_000_000 });
    } finally {
      double.rateLimit(undefined);
    }
  });

  it('knows a rate limit without a reset time', async () => {
    double.rateLimit({ status: 429 });
    try {
      const err = await failure(new GitHubClient({ apiUrl: double.url }).getJson('/repos/o/r'));
      expect(err.rateLimit).toEqual({});
    } finally {
      double.rateLimit(undefined);
    }
  });
});
