/**
 * As whom commit mode writes, and the refusals when it cannot: 501 naming the flags when
 * nothing is configured, 401 for a credential GitHub refuses, 403 for one that may not
 * write or an app not installed on the repository; the caller's X-GitHub-Token wins over
 * the installation's credential and never shows up in a result.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { READER_TOKEN, WRITER_TOKEN } from '../support/github/commit-world.js';
import { startCommitWorld, type CommitWorld, type HostChoice } from './support.js';

let w: CommitWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function world(choice: HostChoice, token?: string) {
  w = await startCommitWorld(choice, { token });
  return w;
}

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; status?: number }> {
  return promise.then(() => { throw new Error('expected a refusal'); }, (e: Error) => e);
}

const UPDATE = { name: 'sre', toolset: ['preset:none'], mode: 'commit' as const };
const NOT_CONFIGURED = 'unsupported: commit mode is not configured: set --github-app-id with --github-app-private-key-file, or --gitops-github-token (GITOPS_GITHUB_TOKEN), or send the caller\'s GitHub token in X-GitHub-Token';

describe('commit mode credentials', () => {
  it('answers 501 naming the flags when no GitOps host is configured, and get_info says commit is off', async () => {
    const { f } = await world('absent');
    const err = await failure(f.service.updateAgent(f.ctx(), UPDATE));
    expect({ code: err.code, status: err.status, message: err.message }).toEqual({ code: 'unsupported', status: 501, message: NOT_CONFIGURED });
    expect((await f.service.getInfo(f.ctx())).capabilities.commit).toBe(false);
  });

  it('answers 501 with neither an app nor a token and no X-GitHub-Token, and works with the caller\'s token alone', async () => {
    const { f, world: g } = await world('none');
    expect((await failure(f.service.updateAgent(f.ctx(), UPDATE))).message).toBe(NOT_CONFIGURED);
    const result = await f.service.updateAgent(f.ctx({ githubToken: WRITER_TOKEN }), UPDATE);
    expect(g.github.pulls('acme/fleet')[0]).toMatchObject({ number: result.commit!.number, user: 'alice' });
    expect(JSON.stringify(result)).not.toContain(WRITER_TOKEN);
  });

  it('opens the pull request as the caller when the request carries X-GitHub-Token, even with an app configured', async () => {
    const { f, world: g } = await world('app');
    await f.service.updateAgent(f.ctx({ githubToken: WRITER_TOKEN }), UPDATE);
    expect(g.github.pulls('acme/fleet')[0]!.user).toBe('alice');
    expect(g.github.issuedInstallationTokens).toBe(0);
    expect(g.github.calls.filter((c) => c.method !== 'GET').every((c) => c.login === 'alice')).toBe(true);
  });

  it('answers 401 for a caller token GitHub refuses, saying which credential', async () => {
    const { f } = await world('app');
    const err = await failure(f.service.updateAgent(f.ctx({ githubToken: 'ghp_wrong' }), UPDATE));
    expect({ status: err.status, message: err.message }).toEqual({
      status: 401, message: 'unauthenticated: GitHub refused the caller\'s GitHub token (X-GitHub-Token): Bad credentials',
    });
  });

  it('answers 401 for an installation token GitHub refuses', async () => {
    const { f } = await world('token', 'ghp_revoked');
    const err = await failure(f.service.updateAgent(f.ctx(), UPDATE));
    expect(err.message).toBe('unauthenticated: GitHub refused the installation token (--gitops-github-token): Bad credentials');
  });

  it('answers 403 for a token that may read but not write, and leaves no branch behind', async () => {
    const { f, world: g } = await world('app');
    const branches = await g.repo.branches();
    const err = await failure(f.service.updateAgent(f.ctx({ githubToken: READER_TOKEN }), UPDATE));
    expect(err.status).toBe(403);
    expect(err.message).toBe('forbidden: the caller\'s GitHub token (X-GitHub-Token) may not write the tree in acme/fleet: Resource not accessible by personal access token');
    expect(await g.repo.branches()).toEqual(branches);
  });

  it('answers 403 when the GitHub App is not installed on the repository', async () => {
    const { f } = await world('app');
    // A repository the platform chose (a GitRepository names it), so the App is asked and refuses.
    f.sandbox.store.create('gitrepositories', {
      apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'GitRepository', metadata: { name: 'other', namespace: 'flux-system' },
      spec: { interval: '1m', url: 'https://github.com/acme/other' },
    } as never, {});
    const err = await failure(f.service.createAgent(f.ctx(), {
      name: 'elsewhere', modelConfig: 'default-model-config', toolset: ['preset:none'], mode: 'commit', repository: 'acme/other',
    }));
    expect({ status: err.status, message: err.message }).toEqual({
      status: 403,
      message: 'forbidden: the GitHub App (--github-app-id 4242) is not installed on acme/other; install it there with contents and pull-request write access, or send X-GitHub-Token',
    });
  });

  it('answers 400 for a new agent when nothing names a repository', async () => {
    const { f } = await world('app');
    const err = await failure(f.service.createAgent(f.ctx(), { name: 'nowhere', modelConfig: 'default-model-config', toolset: ['preset:none'], mode: 'commit' }));
    expect(err.message).toBe('invalid request: commit mode needs a GitOps repository: pass repository (owner/name), branch and path, or configure --gitops-repository');
  });
});
