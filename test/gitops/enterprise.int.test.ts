/**
 * Commit mode against a GitHub Enterprise server, whose REST API lives under `/api/v3`
 * (`--github-api-url https://<host>/api/v3`): the GitHub App's installation token, the git
 * data and the pull request all go through the prefix; the double answers 404 to a request
 * that leaves it out, as such a server does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubGitOpsHost } from '../../src/github/commit-host.js';
import { seedGitOpsCluster, startGitOpsWorld, type GitOpsWorld } from '../support/github/commit-world.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { hostConfig } from './support.js';

let world: GitOpsWorld;
let f: ServiceFixture;

beforeAll(async () => {
  world = await startGitOpsWorld({ basePath: '/api/v3' });
  f = await startServiceFixture({ gitops: new GitHubGitOpsHost(hostConfig(world, 'app')) });
  seedGitOpsCluster(f.sandbox);
});
afterAll(async () => {
  await f?.close();
  await world?.close();
});

describe('commit mode on GitHub Enterprise', () => {
  it('opens the pull request as the App through the /api/v3 prefix', async () => {
    expect(world.github.url).toMatch(/\/api\/v3$/);
    const result = await f.service.updateAgent(f.ctx(), { name: 'sre', toolset: ['preset:none'], mode: 'commit' });
    expect(result.commit!.pullRequest).toMatch(/\/acme\/fleet\/pull\/\d+$/);
    expect(await world.repo.show(result.commit!.branch, 'clusters/prod/agents.yaml')).toContain('      - preset:none # read-only to start with\n');
    expect(world.github.issuedInstallationTokens).toBe(1);
    expect(world.github.pulls('acme/fleet')[0]).toMatchObject({ head: result.commit!.branch, user: 'agent-manager[bot]' });
  });

  it('fails without writing when --github-api-url leaves the prefix out', async () => {
    const wrong = await startServiceFixture({
      gitops: new GitHubGitOpsHost({ ...hostConfig(world, 'app'), apiUrl: world.github.url.replace(/\/api\/v3$/, '') }),
    });
    try {
      seedGitOpsCluster(wrong.sandbox);
      const branches = await world.repo.branches();
      const err = await wrong.service.updateAgent(wrong.ctx(), { name: 'sre', toolset: ['preset:none'], mode: 'commit' }).then(() => undefined, (e: Error) => e);
      // The installation lookup answers 404, and so does the API's root: the URL is wrong, not the App missing.
      expect(err?.message).toBe(`GitHub API: ${world.github.url.replace(/\/api\/v3$/, '')} answers 404 at its root, so it is not the base of GitHub's REST API; set --github-api-url to it (https://<host>/api/v3 on GitHub Enterprise Server)`);
      expect(await world.repo.branches()).toEqual(branches);
    } finally {
      await wrong.close();
    }
  });
});
