import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GitHubSkillCatalog, type GitHubSkillCatalogConfig } from './github-skill-catalog.js';
import { sampleRepositories, startGitHubDouble, type DoubleRepository, type GitHubDouble } from '../../test/support/github/skills-github-double.js';

const T0 = Date.parse('2025-06-01T12:00:00Z');
const TTL = 60_000;
const AGENT_SKILLS = 'https://github.com/giantswarm/agent-skills';
const MANY = 'https://github.com/giantswarm/many-skills';

function manySkills(n: number): DoubleRepository {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`s${String(i).padStart(2, '0')}/SKILL.md`] = `---\nname: s${i}\n---\n`;
  return { defaultBranch: 'main', refs: { main: { files } } };
}

let double: GitHubDouble;
let now: number;
beforeAll(async () => {
  double = await startGitHubDouble({ repositories: { ...sampleRepositories(), 'giantswarm/many-skills': manySkills(20) } });
});
afterEach(() => double.rateLimit(undefined));
afterAll(() => double.close());

function catalog(config: Partial<GitHubSkillCatalogConfig> = {}): GitHubSkillCatalog {
  now = T0;
  return new GitHubSkillCatalog({
    repositories: [AGENT_SKILLS], apiUrl: double.url, retryBaseMs: 1, cacheTtlMs: TTL, now: () => now, ...config,
  });
}

const trees = (repo = 'agent-skills') => double.count(`/repos/giantswarm/${repo}/git/trees/`);

describe('GitHubSkillCatalog cache', () => {
  it('reads again once the TTL has passed, and not before', async () => {
    const skills = catalog();
    const before = trees();
    await skills.list({});
    now = T0 + TTL - 1;
    await skills.list({});
    expect(trees()).toBe(before + 1);
    now = T0 + TTL;
    const res = await skills.list({});
    expect(trees()).toBe(before + 2);
    expect(res.repositories[0]!.fetchedAt).toBe(new Date(T0 + TTL).toISOString());
  });

  it('caches error results too', async () => {
    const skills = catalog();
    const missing = 'https://github.com/giantswarm/does-not-exist';
    await skills.list({ repository: missing });
    const before = double.count('/repos/giantswarm/does-not-exist');
    const again = await skills.list({ repository: missing });
    expect(again.repositories[0]!.error).toContain('returned 404');
    expect(double.count('/repos/giantswarm/does-not-exist')).toBe(before);
  });

  it('keys the cache by repository and ref', async () => {
    const skills = catalog();
    const before = trees();
    await skills.list({});
    await skills.list({ ref: 'feature' });
    await skills.list({ repository: `${AGENT_SKILLS}.git` });
    await skills.list({ ref: 'feature' });
    expect(trees()).toBe(before + 2);
  });

  it('shares one read between concurrent requests for the same repository and ref', async () => {
    const skills = catalog({ repositories: [MANY] });
    const before = double.count('/repos/giantswarm/many-skills');
    const release = double.hold();
    const first = skills.list({});
    await vi.waitFor(() => expect(double.contentsInFlight).toBeGreaterThan(0));
    const second = skills.list({});
    const forced = skills.list({ refresh: true });
    release();
    const [a, b, c] = await Promise.all([first, second, forced]);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a.skills).toHaveLength(20);
    // One repository lookup, one commit, one tree, twenty files.
    expect(double.count('/repos/giantswarm/many-skills') - before).toBe(23);
  });

  it('keeps at most the configured number of SKILL.md reads in flight', async () => {
    const skills = catalog({ repositories: [MANY], readConcurrency: 3 });
    double.resetMaxContentsInFlight();
    const release = double.hold();
    const pending = skills.list({});
    await vi.waitFor(() => expect(double.contentsInFlight).toBe(3));
    release();
    const res = await pending;
    expect(res.skills.map((s) => s.name)).toEqual(Array.from({ length: 20 }, (_, i) => `s${i}`));
    expect(double.maxContentsInFlight).toBe(3);
  });

  it('lets a caller give up while the read goes on and fills the cache', async () => {
    const skills = catalog();
    const release = double.hold();
    const controller = new AbortController();
    const abandoned = skills.list({}, controller.signal);
    await vi.waitFor(() => expect(double.contentsInFlight).toBeGreaterThan(0));
    controller.abort(new Error('client went away'));
    await expect(abandoned).rejects.toThrow('client went away');
    const before = trees();
    const joined = skills.list({});
    release();
    expect((await joined).skills).toHaveLength(3);
    expect(trees()).toBe(before);
  });

  it('refuses a file above the body cap and reads the rest', async () => {
    const big = await startGitHubDouble({
      repositories: { 'o/r': { defaultBranch: 'main', refs: { main: { files: { 'small/SKILL.md': 'x', 'big/SKILL.md': 'x'.repeat(4096) } } } } },
    });
    try {
      const res = await catalog({ repositories: ['https://github.com/o/r'], apiUrl: big.url, maxBodyBytes: 1024 }).list({});
      expect(res.repositories[0]).toMatchObject({ truncated: true, skills: [{ name: 'small' }] });
    } finally {
      await big.close();
    }
  });
});

describe('GitHubSkillCatalog rate limits', () => {
  const reset = Math.floor((T0 + 30 * 60_000) / 1000);
  const resetText = new Date(reset * 1000).toISOString();

  it('reports a rate limit with its reset time and a token hint', async () => {
    double.rateLimit({ resetEpochSeconds: reset });
    const res = await catalog().list({});
    expect(res.repositories[0]).toEqual({
      repoUrl: AGENT_SKILLS,
      skills: [],
      truncated: false,
      error: `GitHub API rate limit exceeded for ${AGENT_SKILLS}; resets at ${resetText}; configure a GitHub token (GITHUB_TOKEN) for a higher limit`,
      fetchedAt: new Date(T0).toISOString(),
    });
  });

  it('serves the last good skills with the rate limit as the error, until the limit resets', async () => {
    const skills = catalog({ token: 'any' });
    const good = await skills.list({});
    now = T0 + TTL;
    double.rateLimit({ resetEpochSeconds: reset });
    const limited = await skills.list({});
    expect(limited.skills).toEqual(good.skills);
    expect(limited.repositories[0]).toEqual({ ...good.repositories[0], error: `GitHub API rate limit exceeded for ${AGENT_SKILLS}; resets at ${resetText}` });

    // Past the TTL but before the reset, the stale answer stands without asking GitHub.
    const before = double.count();
    now = T0 + 20 * 60_000;
    expect(await skills.list({})).toEqual(limited);
    expect(double.count()).toBe(before);

    double.rateLimit(undefined);
    now = reset * 1000;
    const fresh = await skills.list({});
    expect(fresh.repositories[0]!.error).toBeUndefined();
    expect(fresh.repositories[0]!.fetchedAt).toBe(resetText);
  });

  it('takes the reset from Retry-After on a 429', async () => {
    double.rateLimit({ status: 429, retryAfterSeconds: 90 });
    const res = await catalog({ token: 'any' }).list({});
    expect(res.repositories[0]!.error).toBe(`GitHub API rate limit exceeded for ${AGENT_SKILLS}; resets at ${new Date(T0 + 90_000).toISOString()}`);
  });

  it('fails the repository rather than listing part of it when the limit bites between file reads', async () => {
    const skills = catalog({ token: 'any', readConcurrency: 1 });
    double.rateLimit({ resetEpochSeconds: reset, afterRequests: 3 });
    const res = await skills.list({});
    expect(res.repositories[0]).toMatchObject({ skills: [], truncated: false });
    expect(res.repositories[0]!.error).toBe(`GitHub API rate limit exceeded for ${AGENT_SKILLS}; resets at ${resetText}`);
  });

  it('does not take a plain 403 for a rate limit', async () => {
    const forbidden = await startGitHubDouble({ repositories: { 'o/r': { defaultBranch: 'main', refs: { main: { files: { 'SKILL.md': { status: 403, body: '{"message":"Resource not accessible by integration"}' } } } } } } });
    try {
      const res = await catalog({ repositories: ['https://github.com/o/r'], apiUrl: forbidden.url }).list({});
      expect(res.repositories[0]).toMatchObject({ truncated: true, skills: [] });
      expect(res.repositories[0]!.error).toBeUndefined();
    } finally {
      await forbidden.close();
    }
  });
});
