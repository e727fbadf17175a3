/**
 * Git is the desired state of a GitOps-owned release, against the GitHub double over a
 * real bare repository: a change merged but not yet applied by Flux is kept by the next
 * pull request; drift between the live release and git is reported and never committed;
 * `changed` names exactly what the pull request changes; and a release its Kustomization's
 * path does not define is refused with nothing proposed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SRE_VALUES } from '../support/github/commit-world.js';
import { merge } from './flux-apply.js';
import { NIGHT_SHIFT, seedRevision } from './seed-revisions.js';
import { byKind, kubectlPresent, kustomize, startCommitWorld, type CommitWorld } from './support.js';

let w: CommitWorld;
beforeAll(async () => {
  w = await startCommitWorld('app');
});
afterAll(() => w.close());

async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(() => { throw new Error('expected a refusal'); }, (e: Error) => e);
}

const agentsFile = (ref: string) => w.world.repo.show(ref, 'clusters/prod/agents.yaml');

describe.skipIf(!kubectlPresent)('git as the base of commit mode', () => {
  it('keeps a change merged in git but not applied yet: the next pull request changes only its own field', async () => {
    const first = await w.f.service.updateAgent(w.f.ctx(), { name: 'sre', description: 'Pages the on-call', mode: 'commit' });
    expect(first.changed).toEqual(['agent.description']);
    await merge(w.world.repo, first.commit!.branch);
    // Flux has not applied the merge: the live release still has no description.
    expect((await w.f.service.getAgent(w.f.ctx(), { name: 'sre' })).description).toBeUndefined();

    const second = await w.f.service.updateAgent(w.f.ctx(), { name: 'sre', displayName: 'On call', mode: 'commit' });
    expect(second.changed).toEqual(['agent.displayName']);
    expect(second.before).toMatchObject({ agent: { name: 'sre', displayName: 'SRE', description: 'Pages the on-call' } });
    expect(second.after).toMatchObject({ agent: { name: 'sre', displayName: 'On call', description: 'Pages the on-call' } });
    const text = await agentsFile(second.commit!.branch);
    // Only the replaced line changed: the comments, the quoting and the merged description stay.
    expect(text).toBe((await agentsFile('main'))!.replace("      displayName: 'SRE'\n", "      displayName: 'On call'\n"));
    const rendered = await kustomize(w.world, second.commit!.branch, 'clusters/prod');
    expect(byKind(rendered, 'HelmRelease', 'sre')?.spec.values.agent).toEqual({ name: 'sre', displayName: 'On call', description: 'Pages the on-call' });
    // Git and the live release differ at the merged description: reported, not a change of this pull request.
    expect(second.drift).toEqual(['agent.description']);
  });

  it('reports drift of the live release and does not commit it', async () => {
    // A forced live write (as an operator would make it) puts the release out of step with git.
    await w.f.service.updateAgent(w.f.ctx(), { name: 'sre', toolset: ['preset:full'], force: true });
    const result = await w.f.service.updateAgent(w.f.ctx(), { name: 'sre', systemMessage: 'Be brief.', mode: 'commit' });
    expect(result.changed).toEqual(['agent.systemMessage']);
    expect(result.drift).toEqual(['agent.description', 'toolset']);
    expect(result.notes).toContain("the live release differs from git at agent.description, toolset; the change is based on git's values and does not copy the live ones into git (a merge makes Flux apply git's)");
    const values = byKind(await kustomize(w.world, result.commit!.branch, 'clusters/prod'), 'HelmRelease', 'sre')?.spec.values;
    expect(values?.toolset).toEqual(SRE_VALUES.toolset);
    expect(await agentsFile(result.commit!.branch)).toContain('      - preset:kubernetes-read # read-only to start with\n');
    const pull = w.world.github.pulls('acme/fleet').find((p) => p.head === result.commit!.branch)!;
    expect(pull.body).toContain('### Drift');
    expect(pull.body).toContain('- `toolset`');
  });

  it('proposes nothing when git already carries the change, whatever the live release says', async () => {
    const branches = await w.world.repo.branches();
    const result = await w.f.service.updateAgent(w.f.ctx(), { name: 'sre', description: 'Pages the on-call', mode: 'commit' });
    expect(result.changed).toEqual([]);
    expect(result.commit!.files).toEqual([{ path: 'clusters/prod/agents.yaml', action: 'unchanged' }]);
    expect(result.commit!.pullRequest).toBeUndefined();
    expect(await w.world.repo.branches()).toEqual(branches);
  });

  it('rolls back over git\'s document: the revision\'s curated fields replace git\'s, and changed names exactly those', async () => {
    // git carries the merged description; the revision has none, so the rollback clears it there.
    seedRevision(w.f.sandbox, 7, NIGHT_SHIFT);
    const result = await w.f.service.rollbackAgent(w.f.ctx(), { name: 'sre', revision: 7, mode: 'commit' });
    expect(result.changed).toEqual(['agent.description', 'agent.displayName', 'toolset']);
    expect(result.before).toMatchObject({ agent: { description: 'Pages the on-call' } });
    const text = (await agentsFile(result.commit!.branch))!;
    expect(text).toContain("    # who it is\n    agent:\n      name: sre\n      displayName: 'Night shift'\n    modelConfig:\n");
    expect(text).toContain('      - preset:kubernetes-read # read-only to start with\n      - server:prometheus\n');
    const values = byKind(await kustomize(w.world, result.commit!.branch, 'clusters/prod'), 'HelmRelease', 'sre')?.spec.values;
    expect(values).toEqual(NIGHT_SHIFT);
  });

  it('refuses with 409 a GitOps-owned release that no file below its Kustomization\'s path defines, and proposes nothing', async () => {
    w.f.sandbox.store.create('helmreleases', {
      apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease',
      metadata: {
        name: 'handmade', namespace: 'kagent',
        labels: { 'kustomize.toolkit.fluxcd.io/name': 'prod', 'kustomize.toolkit.fluxcd.io/namespace': 'flux-system' },
      },
      spec: { interval: '10m', chartRef: { kind: 'OCIRepository', name: 'agent', namespace: 'kagent' }, values: { agent: { name: 'handmade' }, modelConfig: { name: 'default-model-config' }, toolset: ['preset:none'] } },
    } as never, { fieldManager: 'kustomize-controller' });
    const branches = await w.world.repo.branches();
    const pulls = w.world.github.pulls('acme/fleet').length;
    const expected = 'conflict: HelmRelease kagent/handmade is applied by Flux Kustomization flux-system/prod, but no file below path clusters/prod of acme/fleet@main defines it; '
      + 'nothing was proposed, since a new file would be a second definition beside what Flux applies: find where the release is defined (another Kustomization, a generated manifest) and change it there';
    expect((await failure(w.f.service.updateAgent(w.f.ctx(), { name: 'handmade', displayName: 'x', mode: 'commit' }))).message).toBe(expected);
    expect((await failure(w.f.service.deleteAgent(w.f.ctx(), { name: 'handmade', mode: 'commit' }))).message).toBe(expected);
    expect(await w.world.repo.branches()).toEqual(branches);
    expect(w.world.github.pulls('acme/fleet')).toHaveLength(pulls);
    expect(await w.world.repo.show('main', 'clusters/prod/agent-manager/handmade.yaml')).toBeUndefined();
  });
  it('proposes from git when only the live values break the chart schema, and commits none of them', async () => {
    // An operator's hand edit adds a key the chart refuses, live only: drift, not this change's business.
    const live = w.f.sandbox.store.find('helmreleases', 'kagent', 'sre')!;
    const spec = live.spec as { values: Record<string, unknown> };
    w.f.sandbox.store.update('helmreleases', { ...live, spec: { ...spec, values: { ...spec.values, bogus: 'x' } } } as never);
    const result = await w.f.service.updateAgent(w.f.ctx(), { name: 'sre', description: 'From git', mode: 'commit' });
    expect(result.changed).toEqual(['agent.description']);
    expect(result.drift).toContain('bogus');
    expect(await agentsFile(result.commit!.branch)).not.toContain('bogus');
    // A change that itself breaks the schema is still refused before GitHub is asked.
    const calls = w.world.github.calls.length;
    const refused = await failure(w.f.service.updateAgent(w.f.ctx(), { name: 'sre', runtime: 'rust', mode: 'commit' }));
    expect(refused.message).toContain('/agent/runtime');
    expect(w.world.github.calls.length).toBe(calls);
  });
});
