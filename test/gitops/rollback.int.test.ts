/**
 * rollback_agent in commit mode, end to end through the AgentService against real git: the
 * revision's values proposed as a pull request where the GitOps-owned release is defined,
 * after every check an applied rollback runs; and the rule for the history: a commit-mode
 * write (create, update, rollback) records no ControllerRevision and leaves the release as
 * it was, since nothing changed on the cluster until Flux applies the merged change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SRE_VALUES } from '../support/github/commit-world.js';
import { NIGHT_SHIFT, seedRevision, storedRevisions } from './seed-revisions.js';
import { byKind, kubectlPresent, kustomize, startCommitWorld, type CommitWorld } from './support.js';

let w: CommitWorld;
const alice = { caller: { subject: 'u-1', email: 'alice@example.com', groups: [], source: 'sso' as const } };

type Stored = { metadata: { uid: string; resourceVersion: string; annotations?: Record<string, string> } };
const release = (name: string) => w.f.sandbox.store.get('helmreleases', 'kagent', name) as unknown as Stored;
const revisions = () => storedRevisions(w.f.sandbox);
const seed = (revision: number, values: Record<string, unknown>) => seedRevision(w.f.sandbox, revision, values);

beforeAll(async () => {
  w = await startCommitWorld('app');
  seed(1, NIGHT_SHIFT);
  seed(2, SRE_VALUES); // what the release and git carry now
  seed(3, { ...SRE_VALUES, agent: { name: 'sre', runtime: 'rust' } }); // today's chart schema refuses it
  seed(4, { ...SRE_VALUES, modelConfig: { name: 'retired-model' } }); // a ModelConfig that is gone
});
afterAll(() => w.close());

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; status?: number }> {
  return promise.then(() => { throw new Error('expected a refusal'); }, (e: Error) => e);
}

describe.skipIf(!kubectlPresent)('rollback_agent in commit mode', () => {
  it('proposes the revision\'s values in place as one commit, and kustomize renders what an applied rollback\'s dry run composes', async () => {
    const mainBefore = await w.world.repo.branch('main');
    const versionBefore = release('sre').metadata.resourceVersion;
    const result = await w.f.service.rollbackAgent(w.f.ctx(alice), { name: 'sre', revision: 1, mode: 'commit' });
    expect(result).toMatchObject({ mode: 'commit', rolledBackTo: 1, changed: ['agent.displayName', 'toolset'], after: NIGHT_SHIFT });
    expect(result.revision).toBeUndefined();
    // The toolset preflight speaks as on an applied rollback (this installation does not know preset:kubernetes-read),
    // and so does the toolset comparison: revision 1 adds a server the current toolset does not hold.
    expect(result.notes).toEqual([
      expect.stringMatching(/^preset:kubernetes-read is not one of the presets every installation has/),
      'revision 1\'s toolset may reach more than the current one: from ["preset:kubernetes-read"] to ' +
      '["preset:kubernetes-read","server:prometheus"] (server:prometheus not in the current toolset)',
    ]);
    const commit = result.commit!;
    expect(commit).toMatchObject({
      repository: 'acme/fleet', base: 'main', directory: 'clusters/prod', kustomization: 'flux-system/prod',
      files: [{ path: 'clusters/prod/agents.yaml', action: 'update' }],
    });
    expect(commit.branch).toMatch(/^agent-manager\/rollback-kagent-sre-[0-9a-f]{8}$/);

    // git: one commit from main with the title and trailer, only the release's file changed, comments kept.
    expect((await w.world.repo.git(['rev-parse', `${commit.branch}^`])).trim()).toBe(mainBefore);
    expect(await w.world.repo.git(['log', '-1', '--format=%s%n%(trailers:key=Requested-by,valueonly)', commit.branch]))
      .toBe('chore(agents): roll back agent sre in kagent to revision 1\nalice@example.com\n\n');
    expect(await w.world.repo.git(['show', '--name-status', '--format=', commit.branch])).toBe('M\tclusters/prod/agents.yaml\n');
    const text = (await w.world.repo.show(commit.branch, 'clusters/prod/agents.yaml'))!;
    for (const kept of ['# Agents of the prod cluster; reviewed by the platform team.', '# The on-call agent.', '    # who it is', 'interval: 10m # Flux looks this often']) {
      expect(text).toContain(kept);
    }

    // The rendered branch equals the composition of the same rollback applied (a forced dry run).
    const dry = await w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 1, force: true, dryRun: true });
    expect(dry.mode).toBe('apply');
    const rendered = await kustomize(w.world, commit.branch, 'clusters/prod');
    expect(byKind(rendered, 'HelmRelease', 'sre')).toEqual(parse(dry.manifests.helmRelease));
    expect(byKind(rendered, 'OCIRepository', 'agent')).toEqual(parse(dry.manifests.ociRepository));

    const pull = w.world.github.pulls('acme/fleet').find((p) => p.head === commit.branch)!;
    expect(pull).toMatchObject({ title: 'chore(agents): roll back agent sre in kagent to revision 1', base: 'main', number: commit.number });
    expect(pull.body).toContain('roll back agent `sre` in namespace `kagent` to the values of its revision 1, requested by alice@example.com');
    expect(pull.body).toMatch(/chart version 0\.\d+\.\d+/);

    // Nothing on the cluster: the release is as it was and the history has no new revision.
    expect(release('sre').metadata.resourceVersion).toBe(versionBefore);
    expect(revisions()).toEqual(['sre-1', 'sre-2', 'sre-3', 'sre-4']);
  });

  it('with dryRun opens nothing and gives the file its content', async () => {
    const branches = await w.world.repo.branches();
    const calls = w.world.github.calls.length;
    const result = await w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 1, mode: 'commit', dryRun: true });
    expect(result.dryRun).toBe(true);
    const [file] = result.commit!.files;
    expect(file).toMatchObject({ path: 'clusters/prod/agents.yaml', action: 'update' });
    expect(file!.content).toContain('      - server:prometheus\n');
    expect(file!.content).toContain('# The on-call agent.');
    expect(result.commit!.pullRequest).toBeUndefined();
    expect(await w.world.repo.branches()).toEqual(branches);
    expect(w.world.github.calls.slice(calls).every((c) => c.method === 'GET')).toBe(true);
  });

  it.each([['proposed', false], ['dry run', true]])(
    'keeps the toolset git carries when the revision has none (%s): a rollback never widens access', async (_case, dryRun) => {
      if (!revisions().includes('sre-5')) seed(5, { agent: { name: 'sre', displayName: 'Before toolsets' }, modelConfig: { name: 'default-model-config' } });
      const result = await w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 5, mode: 'commit', dryRun });
      expect(result.changed).toEqual(['agent.displayName']);
      expect(result.after.toolset).toEqual(['preset:kubernetes-read']);
      expect(result.notes).toContain('revision 5 has no toolset; the current toolset [preset:kubernetes-read] is kept (a toolset is never removed)');
      const branch = result.commit!.branch;
      const text = dryRun ? result.commit!.files[0]!.content! : (await w.world.repo.show(branch, 'clusters/prod/agents.yaml'))!;
      expect(text).toContain('preset:kubernetes-read');
    },
  );

  it('proposes nothing when git already carries the revision\'s values, and says so', async () => {
    const branches = await w.world.repo.branches();
    const result = await w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 2, mode: 'commit' });
    expect(result.commit!.files).toEqual([{ path: 'clusters/prod/agents.yaml', action: 'unchanged' }]);
    expect(result.commit!.pullRequest).toBeUndefined();
    expect(result.notes?.at(-1)).toBe('nothing was proposed: the GitOps repository already carries the values of revision 2');
    expect(await w.world.repo.branches()).toEqual(branches);
  });

  it('runs every check an applied rollback runs before GitHub is asked anything', async () => {
    const calls = w.world.github.calls.length;
    const missing = await failure(w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 9, mode: 'commit' }));
    expect({ status: missing.status, message: missing.message }).toEqual({
      status: 404, message: 'not found: revision 9 of agent kagent/sre: no such revision is kept (list_agent_revisions lists the ones there are)',
    });
    const schema = await failure(w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 3, mode: 'commit' }));
    expect(schema.status).toBe(400);
    expect(schema.message).toMatch(/^invalid request: values do not satisfy the agent chart schema \S+ \(embedded\): \/agent\/runtime: "rust" is not one of "go", "python"$/);
    const model = await failure(w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 4, mode: 'commit' }));
    expect(model.status).toBe(400);
    expect(model.message).toContain('retired-model');
    const stale = await failure(w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 1, mode: 'commit', resourceVersion: '1' }));
    expect(stale.status).toBe(412);
    const unknown = await failure(w.f.service.rollbackAgent(w.f.ctx(), { name: 'nobody', revision: 1, mode: 'commit' }));
    expect(unknown.status).toBe(404);
    expect(w.world.github.calls.length).toBe(calls);
  });

  it('refuses repository, branch or path in apply mode instead of rolling back the live release', async () => {
    const versionBefore = release('sre').metadata.resourceVersion;
    const err = await failure(w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 1, force: true, branch: 'main' }));
    expect(err.message).toBe('invalid request: branch applies only with mode "commit"; pass mode "commit" to open a pull request');
    expect(release('sre').metadata.resourceVersion).toBe(versionBefore);
  });

  it('keeps the apply-mode 409 for a GitOps-owned release and names where commit mode would write', async () => {
    const err = await failure(w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 1 }));
    expect(err.status).toBe(409);
    expect(err.message).toMatch(/applied by Flux Kustomization "prod".*With mode "commit", agent-manager would open a pull request against acme\/fleet@main changing clusters\/prod\/agents\.yaml\.$/);
  });
});

describe.skipIf(!kubectlPresent)('a commit-mode write records no revision', () => {
  it('create, update and rollback in commit mode leave the history and the release as they were', async () => {
    const before = revisions();
    const sre = release('sre').metadata;
    const ops = release('ops').metadata;
    const created = await w.f.service.createAgent(w.f.ctx(), {
      name: 'scout', modelConfig: 'default-model-config', toolset: ['preset:none'], mode: 'commit', repository: 'acme/fleet', path: 'clusters/new',
    });
    const updated = await w.f.service.updateAgent(w.f.ctx(), { name: 'ops', description: 'staging on call', mode: 'commit' });
    const rolled = await w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 1, mode: 'commit' });
    for (const result of [created, updated, rolled]) {
      expect(result.commit!.pullRequest).toMatch(/\/pull\/\d+$/);
      expect(result).not.toHaveProperty('revision');
    }
    expect(revisions()).toEqual(before);
    expect(w.f.sandbox.store.list('helmreleases', { namespace: 'kagent' }).items.map((o) => (o.metadata as { name: string }).name)).not.toContain('scout');
    for (const [name, was] of [['sre', sre], ['ops', ops]] as const) {
      expect(release(name).metadata.resourceVersion).toBe(was.resourceVersion);
      expect(release(name).metadata.annotations).toEqual(was.annotations);
    }
    // ops never had an applied write: its history is still only the entry of a release written outside agent-manager.
    expect((await w.f.service.listAgentRevisions(w.f.ctx(), { name: 'ops' })).revisions).toEqual([expect.objectContaining({ revision: null, current: true })]);
  });
});
