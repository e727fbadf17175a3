import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubApiError, GitHubClient } from './github-client.js';
import { startGitHubDouble, type GitHubDouble } from '../../test/support/github/skills-github-double.js';

let double: GitHubDouble;
beforeAll(async () => {
  double = await startGitHubDouble({
    repositories: { 'o/r': { defaultBranch: 'main', refs: { main: { files: { 'a b/SKILL.md': 'spaced', 'big.md': 'x'.repeat(2048), 'flaky.md': { status: 502 } } } } } },
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

  it('retries a transient 5xx twice with backoff, then reports it', async () => {
    const before = double.count('/repos/o/r/contents/flaky.md');
    const err = await failure(new GitHubClient({ apiUrl: double.url, retryBaseMs: 1 }).getRaw('/repos/o/r/contents/flaky.md?ref=main'));
    expect(err.status).toBe(502);
    expect(double.count('/repos/o/r/contents/flaky.md') - before).toBe(3);
  });

  it('never retries a refusal (4xx)', async () => {
    const before = double.count('/repos/o/missing');
    await failure(new GitHubClient({ apiUrl: double.url, retryBaseMs: 1 }).getJson('/repos/o/missing'));
    expect(double.count('/repos/o/missing') - before).toBe(1);
  });

  it('does not retry a rate-limited read: the refusal comes back at once with its reset', async () => {
    double.rateLimit({ status: 429, retryAfterSeconds: 1 });
    try {
      const before = double.count('/repos/o/r');
      const err = await failure(new GitHubClient({ apiUrl: double.url, retryBaseMs: 1, now: () => 1_000 }).getJson('/repos/o/r'));
      expect(err.rateLimit).toEqual({ resetAt: 2_000 });
      expect(double.count('/repos/o/r') - before).toBe(1);
    } finally {
      double.rateLimit(undefined);
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
