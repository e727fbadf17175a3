/**
 * Who may have commit mode propose what, against the GitHub double over a real bare
 * repository: names git or GitHub would read differently are refused before anything is
 * read; the installation's credential writes only to repositories the platform chose; and
 * a caller whose RBAC would refuse the live change is refused (the API server asked as
 * them under downstream OAuth, or about them with OAuth and the ServiceAccount) with
 * nothing pushed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '@agent-manager/kube-sandbox';
import { GitHubGitOpsHost } from '../../src/github/commit-host.js';
import { seedGitOpsCluster, startGitOpsWorld, WRITER_TOKEN, type GitOpsWorld } from '../support/github/commit-world.js';
import { loadBaseKubeConfig } from '../../src/kube/kubeconfig.js';
import { CallerProvider, ServiceAccountProvider } from '../../src/kube/providers.js';
import { silentLogger } from '../../src/log/logger.js';
import { startServiceFixture, type ServiceFixture } from '../support/service/fixture.js';
import { hostConfig } from './support.js';

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(() => { throw new Error('expected a refusal'); }, (e: Error) => e);
}

const scout = { name: 'scout', modelConfig: 'default-model-config', toolset: ['preset:kubernetes-read'] };

describe('commit-mode names, checked before anything is read', () => {
  let world: GitOpsWorld;
  let f: ServiceFixture;
  beforeAll(async () => {
    world = await startGitOpsWorld();
    f = await startServiceFixture({ gitops: new GitHubGitOpsHost(hostConfig(world, 'app')) });
    seedGitOpsCluster(f.sandbox);
  });
  afterAll(async () => {
    await f?.close();
    await world?.close();
  });

  it.each([
    ['a path with a newline', { path: 'clusters/new\n' }, 'path "clusters/new\\n": a path has only visible characters: no control characters, spaces or backslashes'],
    ['a path into git\'s own files', { path: '.git/hooks' }, 'path ".git/hooks": a path has no ".git" segment: git\'s own files are not manifests'],
    ['a path that climbs out', { path: 'clusters/../..' }, 'path "clusters/../..": a path has no ".." segment: it stays below the repository root'],
    ['a repository named .git', { repository: 'acme/.git' }, 'repository "acme/.git": a repository is owner/name'],
    ['an owner GitHub does not allow', { repository: '-acme/fleet' }, 'repository "-acme/fleet": a repository is owner/name'],
    ['a branch with a control character', { branch: 'main\u0007' }, 'branch "main\\u0007": a branch name has no control characters'],
    ['a branch git refuses', { branch: 'feature..x' }, 'branch "feature..x": a branch name does not contain ".." (git check-ref-format --branch)'],
  ])('refuses %s with a 400 naming the rule, and sends nothing to GitHub', async (_what, fields, message) => {
    const calls = world.github.calls.length;
    const err = await failure(f.service.createAgent(f.ctx(), { ...scout, mode: 'commit', repository: 'acme/fleet', branch: 'main', path: 'clusters/new', ...fields }));
    expect(err.message).toContain(`invalid request: ${message}`);
    expect(world.github.calls.length).toBe(calls);
  });

  it('checks the same names on update, rollback and delete', async () => {
    const calls = world.github.calls.length;
    for (const call of [
      f.service.updateAgent(f.ctx(), { name: 'sre', displayName: 'x', mode: 'commit', branch: 'a b' }),
      f.service.rollbackAgent(f.ctx(), { name: 'sre', revision: 1, mode: 'commit', path: '.GIT' }),
      f.service.deleteAgent(f.ctx(), { name: 'sre', mode: 'commit', repository: 'acme/fleet/x' }),
    ]) {
      expect((await failure(call)).message).toMatch(/^invalid request: (branch|path|repository) /);
    }
    expect(world.github.calls.length).toBe(calls);
  });
});

describe('the repositories the installation\'s credential may write to', () => {
  let world: GitOpsWorld;
  let f: ServiceFixture;
  beforeAll(async () => {
    world = await startGitOpsWorld({ appInstalledOn: ['acme/fleet', 'acme/other'] });
    f = await startServiceFixture({ gitops: new GitHubGitOpsHost(hostConfig(world, 'app')), settings: { gitops: { branch: 'main', path: '', repositories: ['acme/listed'] } } });
    seedGitOpsCluster(f.sandbox);
  });
  afterAll(async () => {
    await f?.close();
    await world?.close();
  });

  it('refuses a repository no GitRepository names and no flag lists, naming the allowed ones, and reads nothing', async () => {
    const calls = world.github.calls.length;
    const err = await failure(f.service.createAgent(f.ctx(), { ...scout, mode: 'commit', repository: 'acme/other', branch: 'main', path: 'agents' }));
    expect(err.message).toBe('forbidden: the installation\'s GitHub credential opens pull requests only in the repositories the platform chose (acme/fleet, acme/listed), and acme/other is not one of them; send your own GitHub token in X-GitHub-Token to propose there, or have it listed in --gitops-repositories');
    expect(world.github.calls.length).toBe(calls);
    expect(world.github.pulls('acme/other')).toEqual([]);
  });

  it('accepts the same repository with the caller\'s own GitHub token', async () => {
    const result = await f.service.createAgent(f.ctx({ githubToken: WRITER_TOKEN }), { ...scout, mode: 'commit', repository: 'acme/other', branch: 'main', path: 'agents' });
    expect(result.commit).toMatchObject({ repository: 'acme/other', number: 1 });
    expect(world.github.pulls('acme/other')).toHaveLength(1);
  });

  it('accepts a repository a GitRepository in the cluster names, in any letter case', async () => {
    const result = await f.service.createAgent(f.ctx(), { ...scout, name: 'scout-2', mode: 'commit', repository: 'Acme/Fleet', branch: 'main', path: 'clusters/new', dryRun: true });
    expect(result.commit?.repository).toBe('Acme/Fleet');
  });
});

/** A user of the sandbox with a bearer, their groups, and a ClusterRole bound to them. */
function addUser(sandbox: Sandbox, user: string, token: string, rules: unknown[]): void {
  sandbox.tokens.set(token, { username: user, groups: [] });
  sandbox.store.create('clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: user }, rules } as never, {});
  sandbox.store.create('clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: user },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: user },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }],
  } as never, {});
}

const READ_ALL = { apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] };
const WRITE_RELEASES = { apiGroups: ['helm.toolkit.fluxcd.io'], resources: ['helmreleases'], verbs: ['create', 'update', 'delete'] };
const person = (email: string) => ({ subject: email, email, groups: [], source: 'sso' as const });

describe.each(['downstream OAuth (SelfSubjectAccessReview)', 'OAuth with the ServiceAccount (SubjectAccessReview)'] as const)('the caller\'s RBAC under %s', (mode) => {
  let world: GitOpsWorld;
  let f: ServiceFixture;
  const downstream = mode.startsWith('downstream');
  beforeAll(async () => {
    world = await startGitOpsWorld();
    f = await startServiceFixture({
      sandbox: { authorization: 'rbac' },
      gitops: new GitHubGitOpsHost(hostConfig(world, 'app')),
      settings: { gitops: { branch: 'main', path: '', reviewCallers: !downstream } },
      provider: (sandbox) => {
        const base = loadBaseKubeConfig({ kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' }) });
        return downstream ? new CallerProvider(base, { log: silentLogger() }) : new ServiceAccountProvider(base);
      },
    });
    seedGitOpsCluster(f.sandbox);
    addUser(f.sandbox, 'alice@example.com', 'alice-token', [READ_ALL, WRITE_RELEASES]);
    addUser(f.sandbox, 'bob@example.com', 'bob-token', [READ_ALL]);
    // The ServiceAccount follows Kustomizations into flux-system and asks about callers.
    addUser(f.sandbox, 'system:serviceaccount:kagent:agent-manager', 'unused', [
      READ_ALL, { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
    ]);
  });
  afterAll(async () => {
    await f?.close();
    await world?.close();
  });
  afterEach(() => f.sandbox.counters.reset());

  it('refuses a caller who may not update the release live with a 403 in the API server\'s terms, and pushes nothing', async () => {
    const branches = await world.repo.branches();
    const calls = world.github.calls.length;
    const err = await failure(f.service.updateAgent(f.ctx({ token: 'bob-token', caller: person('bob@example.com') }), { name: 'sre', displayName: 'Bob', mode: 'commit' }));
    expect(err.message).toBe('forbidden: helmreleases.helm.toolkit.fluxcd.io "sre" is forbidden: User "bob@example.com" cannot update resource "helmreleases" in API group "helm.toolkit.fluxcd.io" in the namespace "kagent"; commit mode proposes only a change the caller may make live, and nothing was pushed');
    expect(world.github.calls.length).toBe(calls);
    expect(await world.repo.branches()).toEqual(branches);
    const review = downstream ? 'selfsubjectaccessreviews.authorization.k8s.io' : 'subjectaccessreviews.authorization.k8s.io';
    expect(f.sandbox.counters.count({ verb: 'create', resource: review })).toBe(1);
  });

  it('refuses a create and a delete the same way', async () => {
    const bob = f.ctx({ token: 'bob-token', caller: person('bob@example.com') });
    const create = await failure(f.service.createAgent(bob, { ...scout, mode: 'commit', repository: 'acme/fleet', branch: 'main', path: 'clusters/new' }));
    expect(create.message).toMatch(/^forbidden: helmreleases\.helm\.toolkit\.fluxcd\.io is forbidden: User "bob@example\.com" cannot create resource "helmreleases"/);
    const del = await failure(f.service.deleteAgent(bob, { name: 'sre', mode: 'commit' }));
    expect(del.message).toMatch(/cannot delete resource "helmreleases" in API group "helm\.toolkit\.fluxcd\.io" in the namespace "kagent"/);
  });

  it('proposes the change of a caller who may make it live', async () => {
    const result = await f.service.updateAgent(f.ctx({ token: 'alice-token', caller: person('alice@example.com') }), { name: 'sre', displayName: 'Alice', mode: 'commit' });
    expect(result.commit?.pullRequest).toMatch(/\/pull\/\d+$/);
  });
});
