import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../core/errors.js';
import { createLogger } from '../log/logger.js';
import { GitHubSkillCatalog, type GitHubSkillCatalogConfig } from './github-skill-catalog.js';
import { doubleCommit, sampleRepositories, startGitHubDouble, type GitHubDouble } from '../../test/support/github/skills-github-double.js';

const T0 = Date.parse('2025-06-01T12:00:00Z');
const AGENT_SKILLS = 'https://github.com/giantswarm/agent-skills';

let double: GitHubDouble;
beforeAll(async () => {
  double = await startGitHubDouble({ repositories: sampleRepositories(), token: 'secret' });
});
afterAll(() => double.close());

function catalog(config: Partial<GitHubSkillCatalogConfig> = {}): GitHubSkillCatalog {
  return new GitHubSkillCatalog({ repositories: [AGENT_SKILLS], apiUrl: double.url, retryBaseMs: 1, token: 'secret', cacheTtlMs: 60_000, now: () => T0, ...config });
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('GitHubSkillCatalog discovery', () => {
  it('mirrors the portal: canonical URL, skills sorted by path, a directory names a skill without frontmatter', async () => {
    const skills = catalog({ repositories: [`${AGENT_SKILLS}.git`] });
    const res = await skills.list({});
    const repoUrl = AGENT_SKILLS;
    expect(res.repositories).toEqual([{
      repoUrl, ref: 'main', commit: doubleCommit('giantswarm/agent-skills', 'main'), skills: res.skills, truncated: false, fetchedAt: '2025-06-01T12:00:00.000Z',
    }]);
    expect(res.skills).toEqual([
      { name: 'self-awareness', description: 'Knows what it is.', repoUrl, path: 'agent-self-awareness', ref: 'main' },
      { name: 'runbooks', description: 'Operates things.', repoUrl, path: 'nested/runbooks', ref: 'main' },
      { name: 'noname', description: '', repoUrl, path: 'noname', ref: 'main' },
    ]);
    expect(skills.repositories).toEqual([`${AGENT_SKILLS}.git`]);
  });

  it('serves a second list from the cache and reads again on refresh', async () => {
    const skills = catalog();
    const first = await skills.list({});
    const before = double.count();
    expect(await skills.list({})).toEqual(first);
    expect(double.count()).toBe(before);
    await skills.list({ refresh: true });
    expect(double.count()).toBeGreaterThan(before);
  });

  it('reads an explicit ref without asking for the default branch, as one snapshot at the commit it points at', async () => {
    const before = double.count('/repos/giantswarm/agent-skills');
    const res = await catalog().list({ ref: 'feature' });
    const commit = doubleCommit('giantswarm/agent-skills', 'feature');
    expect(res.repositories[0]).toMatchObject({ repoUrl: AGENT_SKILLS, ref: 'feature', commit, skills: [], truncated: false });
    expect(res.repositories[0]!.error).toBeUndefined();
    const made = double.requests.slice(before).map((r) => r.path);
    expect(made).toEqual(['/repos/giantswarm/agent-skills/commits/feature', `/repos/giantswarm/agent-skills/git/trees/${commit}?recursive=1`]);
  });

  it('reads the files at the commit the branch pointed at when the listing started', async () => {
    const commit = doubleCommit('giantswarm/agent-skills', 'main');
    const before = double.count();
    await catalog().list({ refresh: true });
    const files = double.requests.slice(before).filter((r) => r.path.includes('/contents/'));
    expect(files.length).toBe(3);
    for (const r of files) expect(r.path.endsWith(`?ref=${commit}`)).toBe(true);
  });

  it('sends the API version on every request, the token when configured and the raw media type for files', async () => {
    const before = double.count();
    await catalog().list({ refresh: true });
    const made = double.requests.slice(before);
    expect(made.length).toBe(6);
    for (const r of made) {
      expect(r.headers['x-github-api-version']).toBe('2022-11-28');
      expect(r.headers.authorization).toBe('Bearer secret');
    }
    const files = made.filter((r) => r.path.includes('/contents/'));
    expect(files.map((r) => r.path).sort()).toEqual([
      `/repos/giantswarm/agent-skills/contents/agent-self-awareness/SKILL.md?ref=${doubleCommit('giantswarm/agent-skills', 'main')}`,
      `/repos/giantswarm/agent-skills/contents/nested/runbooks/SKILL.md?ref=${doubleCommit('giantswarm/agent-skills', 'main')}`,
      `/repos/giantswarm/agent-skills/contents/noname/SKILL.md?ref=${doubleCommit('giantswarm/agent-skills', 'main')}`,
    ]);
    for (const r of files) expect(r.headers.accept).toBe('application/vnd.github.raw+json');
  });

  it('sends no Authorization header at all without a token', async () => {
    const before = double.count();
    const res = await catalog({ token: undefined }).list({});
    expect(res.skills).toHaveLength(3);
    const made = double.requests.slice(before);
    expect(made.length).toBeGreaterThan(0);
    for (const r of made) {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers['x-github-api-version']).toBe('2022-11-28');
    }
  });

  it('lists the configured repositories in order and flattens their skills in that order', async () => {
    const res = await catalog({ repositories: ['https://github.com/giantswarm/huge-skills', AGENT_SKILLS, 'https://github.com/giantswarm/private-skills'] }).list({});
    expect(res.repositories.map((r) => r.repoUrl)).toEqual([
      'https://github.com/giantswarm/huge-skills',
      AGENT_SKILLS,
      'https://github.com/giantswarm/private-skills',
    ]);
    expect(res.skills.map((s) => s.name)).toEqual(['a', 'self-awareness', 'runbooks', 'noname', 'secret']);
    expect(res.repositories[2]).toMatchObject({ ref: 'trunk', truncated: false });
  });

  it('reports a tree GitHub truncated', async () => {
    const res = await catalog().list({ repository: 'https://github.com/giantswarm/huge-skills' });
    expect(res.repositories[0]).toMatchObject({ truncated: true, skills: [{ name: 'a', path: 'a' }] });
  });

  it('skips an unreadable SKILL.md, logs it and reports the listing as truncated', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({
      destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) },
    });
    const res = await catalog({ log }).list({ repository: 'https://github.com/giantswarm/broken-skills' });
    expect(res.repositories[0]).toMatchObject({ truncated: true, skills: [{ name: 'good', path: 'good' }] });
    expect(res.repositories[0]!.error).toBeUndefined();
    const skipped = lines.find((l) => l.msg === 'skipping unreadable SKILL.md');
    expect(skipped).toMatchObject({ level: 'warn', path: 'bad/SKILL.md', repoUrl: 'https://github.com/giantswarm/broken-skills' });
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('names a root SKILL.md without a name after the repository and falls back to main without a default branch', async () => {
    const res = await catalog().list({ repository: 'https://github.com/giantswarm/root-skill/' });
    expect(res.skills).toEqual([{ name: 'root-skill', description: 'At the root.', repoUrl: 'https://github.com/giantswarm/root-skill', path: '', ref: 'main' }]);
  });

  it('works under a GitHub Enterprise API path', async () => {
    const enterprise = await startGitHubDouble({ repositories: sampleRepositories(), basePath: '/api/v3' });
    try {
      expect(enterprise.url).toMatch(/\/api\/v3$/);
      const res = await catalog({ apiUrl: `${enterprise.url}/`, token: undefined }).list({});
      expect(res.skills).toHaveLength(3);
      expect(enterprise.count('/repos/')).toBe(6);
    } finally {
      await enterprise.close();
    }
  });
});

describe('GitHubSkillCatalog refusals and unreadable repositories', () => {
  it('refuses a repository that is not on github.com with the expected form', async () => {
    const err = await refusal(catalog().list({ repository: 'https://gitlab.com/x/y' }));
    expect(err.status).toBe(400);
    expect(err.message).toBe('invalid request: repository "https://gitlab.com/x/y" is not a GitHub repository URL (expected https://github.com/<owner>/<repo>)');
  });

  it('answers 501 when no repositories are configured', async () => {
    const skills = catalog({ repositories: [] });
    const err = await refusal(skills.list({ repository: AGENT_SKILLS }));
    expect(err.status).toBe(501);
    expect(err.message).toBe('unsupported: no skill repositories are configured');
    expect(skills.repositories).toEqual([]);
  });

  it('refuses a ref with whitespace', async () => {
    const err = await refusal(catalog().list({ ref: 'main branch' }));
    expect(err.message).toBe('invalid request: ref "main branch" contains whitespace; give a branch, tag or commit');
  });

  it('refuses to start with a configured repository that is not on github.com', () => {
    expect(() => catalog({ repositories: ['https://gitlab.com/x/y'] })).toThrow(
      'skill repositories: repository "https://gitlab.com/x/y" is not a GitHub repository URL (expected https://github.com/<owner>/<repo>)',
    );
  });

  it('reports a repository that does not exist in its own entry, without failing the call', async () => {
    const res = await catalog().list({ repository: 'https://github.com/giantswarm/does-not-exist' });
    expect(res.skills).toEqual([]);
    expect(res.repositories).toEqual([
      {
        repoUrl: 'https://github.com/giantswarm/does-not-exist',
        skills: [],
        truncated: false,
        error: `GitHub API ${double.url}/repos/giantswarm/does-not-exist returned 404: Not Found`,
        fetchedAt: '2025-06-01T12:00:00.000Z',
      },
    ]);
  });

  it('keeps the readable repositories when one next to them is not', async () => {
    const res = await catalog({ repositories: ['https://github.com/giantswarm/gone', AGENT_SKILLS] }).list({});
    expect(res.repositories[0]!.error).toContain('returned 404');
    expect(res.repositories[1]!.error).toBeUndefined();
    expect(res.skills).toHaveLength(3);
  });

  it('explains that a private repository needs a token when none is configured', async () => {
    const res = await catalog({ token: undefined }).list({ repository: 'https://github.com/giantswarm/private-skills' });
    expect(res.repositories[0]!.error).toBe(
      `GitHub API ${double.url}/repos/giantswarm/private-skills returned 404: Not Found (the repository, ref or path does not exist, or the repository is private; a private repository needs a GitHub token that can read it)`,
    );
  });

  it('names the ref that does not exist', async () => {
    const res = await catalog().list({ ref: 'nope' });
    expect(res.repositories[0]).toMatchObject({ ref: 'nope', skills: [], truncated: false });
    expect(res.repositories[0]!.error).toBe(`GitHub API ${double.url}/repos/giantswarm/agent-skills/commits/nope returned 422: No commit found for SHA: nope`);
  });

  it('reports a token GitHub refuses, never the token itself', async () => {
    const res = await catalog({ token: 'wrong-token' }).list({});
    expect(res.repositories[0]!.error).toBe(`GitHub API ${double.url}/repos/giantswarm/agent-skills returned 401: Bad credentials`);
    expect(JSON.stringify(res)).not.toContain('wrong-token');
  });

  it('reports a GitHub that cannot be reached', async () => {
    const gone = await startGitHubDouble({ repositories: {} });
    const url = gone.url;
    await gone.close();
    const res = await catalog({ apiUrl: url }).list({});
    expect(res.repositories[0]!.error).toMatch(new RegExp(`^GitHub API ${url}/repos/giantswarm/agent-skills could not be reached: `));
  });
});
