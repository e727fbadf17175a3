/**
 * Commit mode end to end through the AgentService: the sandbox (Flux Kustomization and
 * GitRepository, GitOps-owned releases), the GitHub host over @octokit, the GitHub API
 * double over a real bare repository. Every claim about what was pushed is checked with
 * git itself (`git log`, `git show`) and with `kubectl kustomize` on the pushed branch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROD_AGENTS, SEED_FILES, SRE_VALUES } from '../support/github/commit-world.js';
import { byKind, kubectlPresent, kustomize, startCommitWorld, type CommitWorld } from './support.js';

let w: CommitWorld;
const alice = { caller: { subject: 'u-1', email: 'alice@example.com', groups: [], source: 'sso' as const } };

beforeAll(async () => {
  w = await startCommitWorld('app');
});
afterAll(() => w.close());

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; status?: number }> {
  return promise.then(() => { throw new Error('expected a refusal'); }, (e: Error) => e);
}

describe.skipIf(!kubectlPresent)('commit mode against real git', () => {
  it('changes the toolset of a GitOps-owned agent in place: one commit, comments kept, kustomize renders what apply would write', async () => {
    const mainBefore = await w.world.repo.branch('main');
    const update = { name: 'sre', toolset: ['preset:kubernetes-read', 'server:prometheus'] };
    const result = await w.f.service.updateAgent(w.f.ctx(alice), { ...update, mode: 'commit' });
    expect(result.mode).toBe('commit');
    expect(result.changed).toEqual(['toolset']);
    const commit = result.commit!;
    expect(commit).toMatchObject({
      repository: 'acme/fleet', base: 'main', directory: 'clusters/prod', kustomization: 'flux-system/prod',
      files: [{ path: 'clusters/prod/agents.yaml', action: 'update' }], number: 1,
      pullRequest: 'https://github.example/acme/fleet/pull/1',
    });
    expect(commit.branch).toMatch(/^agent-manager\/update-kagent-sre-[0-9a-f]{8}$/);
    expect(commit.liveSteps).toBeUndefined();

    // git: one commit on the branch, from main, with the trailer; main untouched.
    expect(await w.world.repo.branch('main')).toBe(mainBefore);
    expect((await w.world.repo.git(['rev-list', '--count', `main..${commit.branch}`])).trim()).toBe('1');
    expect((await w.world.repo.git(['rev-parse', `${commit.branch}^`])).trim()).toBe(mainBefore);
    expect(await w.world.repo.git(['log', '-1', '--format=%s%n%(trailers:key=Requested-by,valueonly)', commit.branch]))
      .toBe('chore(agents): update agent sre in kagent\nalice@example.com\n\n');
    expect(await w.world.repo.git(['show', '--name-status', '--format=', commit.branch])).toBe('M\tclusters/prod/agents.yaml\n');
    const text = await w.world.repo.show(commit.branch, 'clusters/prod/agents.yaml');
    expect(text).toBe(PROD_AGENTS.replace('      - preset:kubernetes-read # read-only to start with\n', '      - preset:kubernetes-read # read-only to start with\n      - server:prometheus\n'));

    // kustomize of the pushed branch renders exactly what apply mode's dry run composes.
    const dry = await w.f.service.validateAgent(w.f.ctx(), { mode: 'update', update: { ...update, force: true } });
    const rendered = await kustomize(w.world, commit.branch, 'clusters/prod');
    expect(byKind(rendered, 'HelmRelease', 'sre')).toEqual(parse(dry.manifests.helmRelease));
    expect(byKind(rendered, 'OCIRepository', 'agent')).toEqual(parse(dry.manifests.ociRepository));

    // The pull request, and nothing written to the cluster.
    const [pull] = w.world.github.pulls('acme/fleet');
    expect(pull).toMatchObject({ title: 'chore(agents): update agent sre in kagent', head: commit.branch, base: 'main', user: 'agent-manager[bot]' });
    expect(pull!.body).toContain('- `clusters/prod/agents.yaml` (update)');
    expect(pull!.body).toMatch(/chart version 0\.\d+\.\d+/);
    expect((await w.f.service.getAgent(w.f.ctx(), { name: 'sre' })).toolset).toEqual(SRE_VALUES.toolset);
  });

  it('lays a new agent out under <path>/agent-manager/ and lists it in the parent kustomization', async () => {
    const spec = { name: 'scout', modelConfig: 'default-model-config', toolset: ['preset:kubernetes-read'], displayName: 'Scout' };
    const result = await w.f.service.createAgent(w.f.ctx(alice), { ...spec, mode: 'commit', repository: 'acme/fleet', branch: 'main', path: './clusters/new' });
    expect(result.created).toEqual({ ociRepository: false, helmRelease: false });
    const commit = result.commit!;
    // No Kustomization applies clusters/new: not GitOps-managed, and the toolset is there as an applied create's.
    expect(commit.kustomization).toBeUndefined();
    expect(result.agent).toMatchObject({ name: 'scout', managed: 'helmrelease', toolset: ['preset:kubernetes-read'] });
    expect(result.agent).not.toHaveProperty('version');
    expect(commit.files.map((f) => `${f.action} ${f.path}`)).toEqual([
      'add clusters/new/agent-manager/agent.yaml', 'add clusters/new/agent-manager/kustomization.yaml',
      'add clusters/new/agent-manager/scout.yaml', 'update clusters/new/kustomization.yaml',
    ]);
    expect(commit.branch).toMatch(/^agent-manager\/create-kagent-scout-/);
    expect(await w.world.repo.git(['log', '-1', '--format=%s', commit.branch])).toBe('feat(agents): add agent scout in kagent\n');
    const rendered = await kustomize(w.world, commit.branch, 'clusters/new');
    expect(byKind(rendered, 'HelmRelease', 'scout')).toEqual(parse(result.manifests.helmRelease));
    expect(byKind(rendered, 'OCIRepository', 'agent')).toEqual(parse(result.manifests.ociRepository));
    expect(byKind(rendered, 'ConfigMap', 'base')).toBeDefined();
    expect(await w.f.service.listAgents(w.f.ctx()).then((r) => r.agents.map((a) => a.name))).not.toContain('scout');
  });

  it('deletes with prune: the document goes, the rest of the file stays, nothing to do by hand', async () => {
    const result = await w.f.service.deleteAgent(w.f.ctx(), { name: 'sre', mode: 'commit' });
    expect(result).toMatchObject({ mode: 'commit', helmReleaseDeleted: false });
    const commit = result.commit!;
    expect(commit.files).toEqual([{ path: 'clusters/prod/agents.yaml', action: 'update' }]);
    expect(commit.liveSteps).toBeUndefined();
    const rendered = await kustomize(w.world, commit.branch, 'clusters/prod');
    expect(byKind(rendered, 'HelmRelease', 'sre')).toBeUndefined();
    expect(byKind(rendered, 'OCIRepository', 'agent')).toBeDefined(); // other releases on the cluster render from it
    expect(await w.world.repo.git(['log', '-1', '--format=%s', commit.branch])).toBe('feat(agents): remove agent sre in kagent\n');
  });

  it('deletes without prune: the file goes with its kustomization entry, and liveSteps says what to delete by hand', async () => {
    const result = await w.f.service.deleteAgent(w.f.ctx(), { name: 'ops', mode: 'commit' });
    const commit = result.commit!;
    expect(commit.kustomization).toBe('flux-system/staging');
    expect(commit.files.map((f) => `${f.action} ${f.path}`)).toEqual(['update clusters/staging/kustomization.yaml', 'remove clusters/staging/ops.yaml']);
    expect(commit.liveSteps).toEqual(['kubectl delete helmreleases.helm.toolkit.fluxcd.io ops -n kagent']);
    expect(await w.world.repo.show(commit.branch, 'clusters/staging/ops.yaml')).toBeUndefined();
    expect(await w.world.repo.show(commit.branch, 'clusters/staging/kustomization.yaml')).toBe('apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n');
    const pull = w.world.github.pulls('acme/fleet').find((p) => p.head === commit.branch)!;
    expect(pull.body).toContain('kubectl delete helmreleases.helm.toolkit.fluxcd.io ops -n kagent');
  });

  it('refuses a release defined twice in the repository, naming both files, and writes nothing', async () => {
    const branches = await w.world.repo.branches();
    const err = await failure(w.f.service.updateAgent(w.f.ctx(), { name: 'twin', toolset: ['preset:none'], mode: 'commit' }));
    expect(err.message).toBe('conflict: HelmRelease kagent/twin is defined more than once in acme/fleet@main: clusters/dup/a.yaml and clusters/dup/old/b.yaml; keep one definition, then retry');
    expect(await w.world.repo.branches()).toEqual(branches);
  });

  it('plans again when the base branch moved between the read and the write', async () => {
    let moved = '';
    w.world.github.before('POST', '/repos/acme/fleet/git/trees', async () => {
      moved = await w.world.repo.commitFiles('main', { 'clusters/prod/apps.yaml': `${SEED_FILES['clusters/prod/apps.yaml']}# touched\n` }, 'someone else');
    });
    const result = await w.f.service.updateAgent(w.f.ctx(), { name: 'sre', displayName: 'On call', mode: 'commit' });
    const branch = result.commit!.branch;
    expect((await w.world.repo.git(['rev-parse', `${branch}^`])).trim()).toBe(moved);
    expect(await w.world.repo.show(branch, 'clusters/prod/apps.yaml')).toContain('# touched');
  });

  it('answers 409 when the base branch keeps moving, and opens no pull request', async () => {
    const pulls = w.world.github.pulls('acme/fleet').length;
    for (let i = 0; i < 3; i++) {
      w.world.github.before('POST', '/repos/acme/fleet/git/trees', async () => {
        await w.world.repo.commitFiles('main', { [`noise-${i}.txt`]: `${i}\n` }, 'noise');
      });
    }
    const err = await failure(w.f.service.updateAgent(w.f.ctx(), { name: 'sre', displayName: 'Busy', mode: 'commit' }));
    expect(err.message).toBe('conflict: the base branch main of acme/fleet moved 3 times while the change was being written; retry');
    expect(w.world.github.pulls('acme/fleet')).toHaveLength(pulls);
  });

  it('with dryRun writes nothing and gives every file its content', async () => {
    const branches = await w.world.repo.branches();
    const calls = w.world.github.calls.length;
    const result = await w.f.service.updateAgent(w.f.ctx(), { name: 'sre', toolset: ['preset:none'], mode: 'commit', dryRun: true });
    const [file] = result.commit!.files;
    expect(file).toMatchObject({ path: 'clusters/prod/agents.yaml', action: 'update' });
    expect(file!.content).toContain('      - preset:none # read-only to start with\n');
    expect(file!.content).toContain('# The on-call agent.');
    expect(result.commit!.pullRequest).toBeUndefined();
    expect(await w.world.repo.branches()).toEqual(branches);
    expect(w.world.github.calls.slice(calls).every((c) => c.method === 'GET')).toBe(true);
  });

  it('still runs every apply check first: a bad toolset is a 400 and nothing reaches GitHub', async () => {
    const calls = w.world.github.calls.length;
    const err = await failure(w.f.service.updateAgent(w.f.ctx(), { name: 'sre', toolset: ['kubernetes'], mode: 'commit' }));
    expect(err.message).toMatch(/^invalid request: /);
    expect(w.world.github.calls.length).toBe(calls);
  });

  it('keeps the apply-mode 409 text and adds the repository, branch and file commit mode would change', async () => {
    const err = await failure(w.f.service.updateAgent(w.f.ctx(), { name: 'sre', toolset: ['preset:none'] }));
    expect(err.message).toBe(
      'conflict: HelmRelease kagent/sre is applied by Flux Kustomization "prod": its desired state lives in git, a live write would be undone. '
      + 'Change it in the GitOps repository, or pass force to write anyway. '
      + 'With mode "commit", agent-manager would open a pull request against acme/fleet@main changing clusters/prod/agents.yaml.',
    );
  });

  it('refuses a repository, branch or path that differs from where the Kustomization reads the release', async () => {
    const err = await failure(w.f.service.updateAgent(w.f.ctx(), { name: 'sre', toolset: ['preset:none'], mode: 'commit', branch: 'develop' }));
    expect(err.message).toBe('invalid request: the release is applied by Flux Kustomization flux-system/prod from acme/fleet@main path clusters/prod; omit repository, branch and path, or give those');
  });

  it('reports commit mode in get_info', async () => {
    expect((await w.f.service.getInfo(w.f.ctx())).capabilities.commit).toBe(true);
  });
});
